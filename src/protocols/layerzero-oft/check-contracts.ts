/**
 * `bridge-oracle check-config` for LayerZero: the configured EndpointV2s and OFTs (registry.ts)
 * against what the contracts answer. An endpoint's `eid()` is its configured endpoint id (and
 * on a preset mainnet, mainnet.ts's address and id); an OFT's `endpoint()` is its chain's
 * configured endpoint, its `token()` the configured token, `approvalRequired()` says adapter
 * (kind 0) or OFT (kind 2), and `peers(eid)` names the configured OFT of its mesh on every
 * other chain.
 *
 * A mesh is not written in the configuration: it is read from the peers. Two configured OFTs
 * are of one mesh when either names the other as its peer; within a mesh every OFT must name
 * every other (one on each chain). A peer the configuration does not list is named too: the
 * indexer cannot pair transfers with a contract it does not follow (docs/protocols.md).
 *
 * An OFT entry naming our swap periphery (`swapSender`, `swapComposer`: the router's source and
 * destination swaps) has it checked too: the sender answers `swapAdapter()`, the composer's
 * `endpoint()` is the chain's EndpointV2 and it trusts the OFT (`trustedOft`).
 *
 * `readLayerZeroState` does the reads; `compareLayerZeroState` is pure.
 */
import { type Address, getAddress, type Hex, pad, zeroHash } from "viem";
import type { ContractReader, ReadResult } from "../../chain/contract-reader.js";
import type { RegistryBridge } from "../../domain/bridge-registry.js";
import type { ConfigCheck } from "../../domain/config-check.js";
import { endpointAbi, oftAbi, oftSwapComposerAbi, oftSwapSenderAbi } from "./abi.js";
import { LAYERZERO_V2_MAINNET } from "./mainnet.js";
import { LAYERZERO_OFT_PROTOCOL } from "./registry.js";

export interface EndpointState {
  eid: ReadResult<number>;
}

export interface OftState {
  endpoint: ReadResult<Address>;
  token: ReadResult<Address>;
  approvalRequired: ReadResult<boolean>;
  /** `peers(eid)` for the endpoint id of every other configured chain (decimal string keys). */
  peers: Record<string, ReadResult<Hex>>;
  /** The configured OftSwapSender's `swapAdapter()`. */
  swapSender?: { swapAdapter: ReadResult<Address> };
  /** The configured OftSwapComposer's `endpoint()` and `trustedOft(this OFT)`. */
  swapComposer?: { endpoint: ReadResult<Address>; trusted: ReadResult<boolean> };
}

/** What was read, by `contractKey`; a contract left out was not read (no code, chain down). */
export interface LayerZeroState {
  endpoints: Map<string, EndpointState>;
  ofts: Map<string, OftState>;
}

export function contractKey(chainId: number, address: string): string {
  return `${chainId}:${address.toLowerCase()}`;
}

/** The `layerzero-oft` entries of a configuration's contracts. */
export function layerZeroContracts(bridges: readonly RegistryBridge[]): RegistryBridge[] {
  return bridges.filter((b) => b.protocol === LAYERZERO_OFT_PROTOCOL);
}

/** The endpoint ids of the configured chains other than `chainId`, ascending. */
function otherEids(contracts: readonly RegistryBridge[], chainId: number): string[] {
  const eids = new Set(contracts.filter((c) => c.chainId !== chainId).map((c) => c.bridgeChainId));
  return [...eids].sort((a, b) => Number(a) - Number(b));
}

/**
 * Reads every endpoint's and OFT's state. `readerOf` gives undefined for a contract that is not
 * to be read (its chain did not answer or is another chain, or it has no code).
 */
export async function readLayerZeroState(
  bridges: readonly RegistryBridge[],
  readerOf: (contract: RegistryBridge) => ContractReader | undefined,
): Promise<LayerZeroState> {
  const contracts = layerZeroContracts(bridges);
  const state: LayerZeroState = { endpoints: new Map(), ofts: new Map() };
  await Promise.all(
    contracts.map(async (c) => {
      const reader = readerOf(c);
      if (reader === undefined) return;
      if (c.auxiliary === true) {
        const eid = await reader.read<number>(c.address, endpointAbi, "eid");
        state.endpoints.set(contractKey(c.chainId, c.address), { eid });
        return;
      }
      const eids = otherEids(contracts, c.chainId);
      const [endpoint, token, approvalRequired, ...peers] = await Promise.all([
        reader.read<Address>(c.address, oftAbi, "endpoint"),
        reader.read<Address>(c.address, oftAbi, "token"),
        reader.read<boolean>(c.address, oftAbi, "approvalRequired"),
        ...eids.map((eid) => reader.read<Hex>(c.address, oftAbi, "peers", [Number(eid)])),
      ]);
      const sender = c.swapSender as Address | undefined;
      const composer = c.swapComposer as Address | undefined;
      const [swapAdapter, composerEndpoint, trusted] = await Promise.all([
        sender === undefined
          ? undefined
          : reader.read<Address>(sender, oftSwapSenderAbi, "swapAdapter"),
        composer === undefined
          ? undefined
          : reader.read<Address>(composer, oftSwapComposerAbi, "endpoint"),
        composer === undefined
          ? undefined
          : reader.read<boolean>(composer, oftSwapComposerAbi, "trustedOft", [c.address]),
      ]);
      state.ofts.set(contractKey(c.chainId, c.address), {
        endpoint: endpoint as ReadResult<Address>,
        token: token as ReadResult<Address>,
        approvalRequired: approvalRequired as ReadResult<boolean>,
        peers: Object.fromEntries(eids.map((eid, i) => [eid, peers[i] as ReadResult<Hex>])),
        ...(swapAdapter === undefined ? {} : { swapSender: { swapAdapter } }),
        ...(composerEndpoint === undefined || trusted === undefined
          ? {}
          : { swapComposer: { endpoint: composerEndpoint, trusted } }),
      });
    }),
  );
  return state;
}

/** An address as an OApp peer (bytes32, left-padded), lowercase. */
export function peerOf(address: string): Hex {
  return pad(address.toLowerCase() as Hex, { size: 32 });
}

/** The EVM address a peer names, or undefined when it is not one (upper 12 bytes set). */
function peerAddress(peer: Hex): Address | undefined {
  return /^0x0{24}[0-9a-fA-F]{40}$/.test(peer) ? getAddress(`0x${peer.slice(26)}`) : undefined;
}

/** Every check of the configured LayerZero contracts against what was read. Pure. */
export function compareLayerZeroState(
  bridges: readonly RegistryBridge[],
  state: LayerZeroState,
  chainName: (chainId: number) => string,
): ConfigCheck[] {
  const contracts = layerZeroContracts(bridges);
  const endpoints = contracts.filter((c) => c.auxiliary === true);
  const ofts = contracts.filter((c) => c.auxiliary !== true);
  const where = (c: RegistryBridge) => `${chainName(c.chainId)} (eid ${c.bridgeChainId})`;
  const out: ConfigCheck[] = [];
  const add = (c: RegistryBridge, check: string, ok: boolean, message: string) =>
    out.push({
      status: ok ? "ok" : "fail",
      chainId: c.chainId,
      check,
      address: c.address,
      message,
    });

  for (const e of endpoints) {
    const label = `EndpointV2 ${e.address} on ${where(e)}`;
    const preset = LAYERZERO_V2_MAINNET.find((p) => p.chainId === e.chainId);
    if (preset !== undefined) {
      const same =
        getAddress(preset.endpoint) === getAddress(e.address) &&
        String(preset.eid) === e.bridgeChainId;
      add(
        e,
        "preset",
        same,
        same
          ? `${label} is the mainnet preset's`
          : `${label} differs from the mainnet preset (EndpointV2 ${preset.endpoint}, eid ${preset.eid}, mainnet.ts): use the preset's address and bridgeChainId "${preset.eid}"`,
      );
    }
    const read = state.endpoints.get(contractKey(e.chainId, e.address));
    if (read === undefined) continue;
    if (!read.eid.ok) {
      add(
        e,
        "eid",
        false,
        read.eid.reverted
          ? `${label}: eid() reverted: the address is not an EndpointV2`
          : `${label}: ${read.eid.error}`,
      );
    } else {
      const same = String(read.eid.value) === e.bridgeChainId;
      add(
        e,
        "eid",
        same,
        same
          ? `${label}: eid() is ${read.eid.value} as configured`
          : `${label}: eid() is ${read.eid.value}, configured ${e.bridgeChainId}: set bridgeChainId "${read.eid.value}" on every layerzero-oft entry of ${chainName(e.chainId)}`,
      );
    }
  }

  const meshOf = meshes(ofts, state);
  for (const o of ofts) {
    const adapter = o.kind === 0;
    const label = `${adapter ? "OFTAdapter" : "OFT"} ${o.address} on ${where(o)}`;
    if (o.kind === 1) {
      add(o, "kind", false, `${label}: kind 1 is no OFT kind: 2 for an OFT, 0 for an OFTAdapter`);
    }
    const chainEndpoints = endpoints.filter((e) => e.chainId === o.chainId);
    for (const e of chainEndpoints) {
      if (e.bridgeChainId !== o.bridgeChainId) {
        add(
          o,
          "eid",
          false,
          `${label}: bridgeChainId ${o.bridgeChainId} differs from its chain's EndpointV2 entry (${e.bridgeChainId}): one endpoint id per chain`,
        );
      }
    }
    const read = state.ofts.get(contractKey(o.chainId, o.address));
    if (read === undefined) continue;

    // endpoint(): the chain's configured EndpointV2.
    if (!read.endpoint.ok) {
      add(o, "endpoint", false, notAnOft(label, "endpoint", read.endpoint));
    } else if (chainEndpoints.length === 0) {
      add(
        o,
        "endpoint",
        false,
        `${label}: no EndpointV2 is configured on ${chainName(o.chainId)}; its endpoint() is ${read.endpoint.value}: add { "protocol": "${LAYERZERO_OFT_PROTOCOL}", "chainId": ${o.chainId}, "kind": 2, "bridgeChainId": "${o.bridgeChainId}", "address": "${read.endpoint.value}", "auxiliary": true } to contracts`,
      );
    } else {
      const actual = getAddress(read.endpoint.value);
      const match = chainEndpoints.some((e) => getAddress(e.address) === actual);
      add(
        o,
        "endpoint",
        match,
        match
          ? `${label}: endpoint() is the configured EndpointV2 ${read.endpoint.value}`
          : `${label}: endpoint() is ${read.endpoint.value}, but the configured EndpointV2 of ${chainName(o.chainId)} is ${chainEndpoints.map((e) => e.address).join(", ")}: correct the endpoint entry, or this is not the OFT you meant`,
      );
    }

    // token(): what the record names as the token moved (an OFT without `token`: itself).
    if (!read.token.ok) {
      add(o, "token", false, notAnOft(label, "token", read.token));
    } else if (o.token === undefined && adapter) {
      add(
        o,
        "token",
        false,
        `${label}: an OFTAdapter needs its "token"; token() is ${read.token.value}: add "token": "${read.token.value}"`,
      );
    } else {
      const expected = getAddress(o.token ?? o.address);
      const same = getAddress(read.token.value) === expected;
      add(
        o,
        "token",
        same,
        same
          ? `${label}: token() is ${expected} as configured`
          : `${label}: token() is ${read.token.value}, configured ${expected}: set "token": "${read.token.value}"`,
      );
    }

    // approvalRequired(): true for an adapter (it pulls the inner token), false for an OFT.
    if (!read.approvalRequired.ok) {
      add(o, "kind", false, notAnOft(label, "approvalRequired", read.approvalRequired));
    } else {
      const isAdapter = read.approvalRequired.value;
      const same = isAdapter === adapter;
      add(
        o,
        "kind",
        same,
        same
          ? `${label}: approvalRequired() is ${isAdapter}, as kind ${o.kind} says`
          : isAdapter
            ? `${label}: approvalRequired() is true: an OFTAdapter (lock and unlock): set "kind": 0 and "token" to its token()`
            : `${label}: approvalRequired() is false: an OFT (burn and mint): set "kind": 2 and "token" to its own address`,
      );
    }

    out.push(...comparePeers(o, label, read, contracts, meshOf, chainName));
    out.push(...comparePeriphery(o, label, read, chainEndpoints));
  }
  return out;
}

/** The OFT's swap periphery as configured (`swapSender`, `swapComposer`) against what it answers. */
function comparePeriphery(
  o: RegistryBridge,
  label: string,
  read: OftState,
  chainEndpoints: readonly RegistryBridge[],
): ConfigCheck[] {
  const out: ConfigCheck[] = [];
  const add = (check: string, ok: boolean, message: string) =>
    out.push({
      status: ok ? "ok" : "fail",
      chainId: o.chainId,
      check,
      address: o.address,
      message,
    });
  const failed = (what: string, r: ReadResult<unknown>) =>
    r.ok
      ? ""
      : r.reverted
        ? `${what} reverted: the address is not our ${what.split(".")[0]}`
        : r.error;
  if (o.swapSender !== undefined && read.swapSender !== undefined) {
    const r = read.swapSender.swapAdapter;
    add(
      "swapSender",
      r.ok,
      r.ok
        ? `${label}: swapSender ${o.swapSender} swaps through ${r.value}`
        : `${label}: swapSender ${o.swapSender}: ${failed("OftSwapSender.swapAdapter()", r)}; remove "swapSender" or correct it`,
    );
  }
  if (o.swapComposer !== undefined && read.swapComposer !== undefined) {
    const { endpoint, trusted } = read.swapComposer;
    const where = `${label}: swapComposer ${o.swapComposer}`;
    if (!endpoint.ok || !trusted.ok) {
      const r = endpoint.ok ? trusted : endpoint;
      add(
        "swapComposer",
        false,
        `${where}: ${failed(`OftSwapComposer.${endpoint.ok ? "trustedOft" : "endpoint"}()`, r)}; remove "swapComposer" or correct it`,
      );
      return out;
    }
    const sameEndpoint = chainEndpoints.some(
      (e) => getAddress(e.address) === getAddress(endpoint.value),
    );
    if (!sameEndpoint) {
      add(
        "swapComposer",
        false,
        `${where}: its endpoint() is ${endpoint.value}, not the chain's configured EndpointV2: lzCompose would never reach it`,
      );
    } else if (!trusted.value) {
      add(
        "swapComposer",
        false,
        `${where}: trustedOft(${o.address}) is false: the composer refuses this OFT's composes (deploy one that trusts it, or remove "swapComposer")`,
      );
    } else {
      add("swapComposer", true, `${where}: on the chain's endpoint and trusts this OFT`);
    }
  }
  return out;
}

function notAnOft(label: string, fn: string, read: ReadResult<unknown>): string {
  if (read.ok) return label;
  return read.reverted
    ? `${label}: ${fn}() reverted: the address is not a LayerZero V2 OFT or OFTAdapter`
    : `${label}: ${read.error}`;
}

/**
 * The mesh of each OFT: union of OFTs linked by a peer in either direction. Keys: contractKey;
 * value: a representative key shared by the mesh.
 */
function meshes(ofts: readonly RegistryBridge[], state: LayerZeroState): Map<string, string> {
  const parent = new Map(
    ofts.map((o) => [contractKey(o.chainId, o.address), contractKey(o.chainId, o.address)]),
  );
  const find = (k: string): string => {
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(k, root);
    return root;
  };
  for (const a of ofts) {
    const read = state.ofts.get(contractKey(a.chainId, a.address));
    if (read === undefined) continue;
    for (const b of ofts) {
      if (b.chainId === a.chainId) continue;
      const peer = read.peers[b.bridgeChainId];
      if (peer?.ok && peer.value.toLowerCase() === peerOf(b.address)) {
        parent.set(
          find(contractKey(a.chainId, a.address)),
          find(contractKey(b.chainId, b.address)),
        );
      }
    }
  }
  return new Map(
    ofts.map((o) => [contractKey(o.chainId, o.address), find(contractKey(o.chainId, o.address))]),
  );
}

function comparePeers(
  o: RegistryBridge,
  label: string,
  read: OftState,
  contracts: readonly RegistryBridge[],
  meshOf: Map<string, string>,
  chainName: (chainId: number) => string,
): ConfigCheck[] {
  const out: ConfigCheck[] = [];
  const add = (ok: boolean, message: string) =>
    out.push({
      status: ok ? "ok" : "fail",
      chainId: o.chainId,
      check: "peer",
      address: o.address,
      message,
    });
  const mesh = meshOf.get(contractKey(o.chainId, o.address));
  const others = contracts.filter((b) => b.auxiliary !== true && b.chainId !== o.chainId);
  let named = 0;
  for (const [eid, peer] of Object.entries(read.peers)) {
    const there = contracts.find((b) => b.bridgeChainId === eid)?.chainId;
    const chain = there === undefined ? `eid ${eid}` : `${chainName(there)} (eid ${eid})`;
    if (!peer.ok) {
      add(false, notAnOft(`${label}: peers(${eid})`, "peers", peer));
      continue;
    }
    const value = peer.value.toLowerCase() as Hex;
    const mates = others.filter(
      (b) => b.bridgeChainId === eid && meshOf.get(contractKey(b.chainId, b.address)) === mesh,
    );
    const listed = others.find((b) => b.bridgeChainId === eid && peerOf(b.address) === value);
    const setPeer = (b: RegistryBridge) =>
      `as the OFT's owner call setPeer(${eid}, ${peerOf(b.address)})`;
    if (value === zeroHash) {
      // Unset: wrong only where its mesh has an OFT (that one names this OFT as its peer).
      for (const b of mates) {
        add(
          false,
          `${label}: peers(${eid}) is unset, but ${b.address} on ${chain} is of its mesh (a peer names the other): sends to and deliveries from ${chainName(b.chainId)} fail; ${setPeer(b)}`,
        );
      }
      continue;
    }
    named++;
    if (listed !== undefined) {
      add(true, `${label}: peers(${eid}) is ${listed.address} on ${chain}, as configured`);
      continue;
    }
    const address = peerAddress(value);
    const shown = address ?? value;
    if (mates.length > 0) {
      for (const b of mates) {
        add(
          false,
          `${label}: peers(${eid}) is ${shown}, not ${b.address}, the configured OFT of its mesh on ${chain}: if ${shown} is the OFT there, configure it in place of ${b.address}; else ${setPeer(b)}`,
        );
      }
    } else {
      add(
        false,
        address === undefined
          ? `${label}: peers(${eid}) is ${value}, not an EVM address: check the endpoint id of ${chain}`
          : `${label}: peers(${eid}) is ${address} on ${chain}, which the configuration does not list: its transfers there are not paired; add it to contracts (kind 2, or 0 for an adapter, bridgeChainId "${eid}")`,
      );
    }
  }
  // No peer on any configured chain, and named by none: nothing of its mesh is configured.
  const alone = others.every((b) => meshOf.get(contractKey(b.chainId, b.address)) !== mesh);
  if (named === 0 && alone && Object.keys(read.peers).length > 0) {
    add(
      false,
      `${label}: no peer on any other configured chain (peers(eid) unset for ${Object.keys(read.peers).join(", ")}): its transfers cannot be followed; check the address, or configure its peers' chains`,
    );
  }
  return out;
}
