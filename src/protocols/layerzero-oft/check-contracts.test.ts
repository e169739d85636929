/**
 * compareLayerZeroState: configured endpoints and OFTs against what they answered (no chain
 * here: the state is written out as the reads would give it).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Address, getAddress, type Hex, zeroHash } from "viem";
import type { ReadResult } from "../../chain/contract-reader.js";
import type { RegistryBridge } from "../../domain/bridge-registry.js";
import type { ConfigCheck } from "../../domain/config-check.js";
import {
  compareLayerZeroState,
  contractKey,
  type LayerZeroState,
  type OftState,
  peerOf,
} from "./check-contracts.js";

const ENDPOINT: Address = "0x1a44076050125825900e736c501f859c50fE728c";
const CHAINS = [
  { chainId: 1, eid: "30101", name: "ethereum" },
  { chainId: 42161, eid: "30110", name: "arbitrum" },
  { chainId: 10, eid: "30111", name: "optimism" },
] as const;
const name = (chainId: number) => CHAINS.find((c) => c.chainId === chainId)?.name ?? "?";
const eidOf = (chainId: number) => CHAINS.find((c) => c.chainId === chainId)!.eid;

const address = (n: number): Address => getAddress(`0x${n.toString(16).padStart(40, "0")}`);
const TOKEN = address(0xdead);
/** Mesh X: an adapter on ethereum (over TOKEN), OFTs on arbitrum and optimism. */
const X = { 1: address(0xa1), 42161: address(0xa2), 10: address(0xa3) } as const;
/** Mesh Y: OFTs on arbitrum and optimism only. */
const Y = { 42161: address(0xb2), 10: address(0xb3) } as const;

const ok = <T>(value: T): ReadResult<T> => ({ ok: true, value });

function endpoints(): RegistryBridge[] {
  return CHAINS.map((c) => ({
    protocol: "layerzero-oft",
    kind: 2,
    chainId: c.chainId,
    address: ENDPOINT,
    bridgeChainId: c.eid,
    auxiliary: true,
  }));
}

function oft(chainId: number, at: Address, adapter = false): RegistryBridge {
  return {
    protocol: "layerzero-oft",
    kind: adapter ? 0 : 2,
    chainId,
    address: at,
    bridgeChainId: eidOf(chainId),
    token: adapter ? TOKEN : at,
  };
}

function configured(): RegistryBridge[] {
  return [
    ...endpoints(),
    oft(1, X[1], true),
    oft(42161, X[42161]),
    oft(10, X[10]),
    oft(42161, Y[42161]),
    oft(10, Y[10]),
  ];
}

/** What each contract answers when everything is wired as configured. */
function wired(bridges: readonly RegistryBridge[]): LayerZeroState {
  const state: LayerZeroState = { endpoints: new Map(), ofts: new Map() };
  for (const b of bridges.filter((x) => x.auxiliary === true)) {
    state.endpoints.set(contractKey(b.chainId, b.address), { eid: ok(Number(b.bridgeChainId)) });
  }
  const meshes: Record<string, Address>[] = [X, Y];
  for (const b of bridges.filter((x) => x.auxiliary !== true)) {
    const mesh = meshes.find((m) => Object.values(m).includes(b.address))!;
    const peers: Record<string, ReadResult<Hex>> = {};
    for (const c of CHAINS.filter((c) => c.chainId !== b.chainId)) {
      const peer = mesh[c.chainId];
      peers[c.eid] = ok(peer === undefined ? zeroHash : peerOf(peer));
    }
    state.ofts.set(contractKey(b.chainId, b.address), {
      endpoint: ok(ENDPOINT),
      token: ok(b.kind === 0 ? TOKEN : b.address),
      approvalRequired: ok(b.kind === 0),
      peers,
    });
  }
  return state;
}

function oftState(state: LayerZeroState, chainId: number, at: Address): OftState {
  const s = state.ofts.get(contractKey(chainId, at));
  assert.ok(s !== undefined, `state of ${at}`);
  return s;
}

const fails = (checks: ConfigCheck[]) =>
  checks.filter((c) => c.status === "fail").map((c) => c.message);

describe("compareLayerZeroState", () => {
  it("default: a wired configuration passes, two meshes side by side", () => {
    const bridges = configured();
    const checks = compareLayerZeroState(bridges, wired(bridges), name);
    assert.deepEqual(fails(checks), []);
    // Endpoints: preset and eid() each; OFTs: endpoint, token, kind, a peer per mesh mate.
    assert.equal(checks.filter((c) => c.check === "preset").length, 3, "presets");
    assert.equal(checks.filter((c) => c.check === "eid").length, 3, "eid()");
    assert.equal(checks.filter((c) => c.check === "peer").length, 3 * 2 + 2 * 1, "peers");
    assert.equal(checks.filter((c) => c.check === "kind").length, 5, "kinds");
  });

  it("error: an endpoint id unlike the preset and unlike eid()", () => {
    const bridges = configured().map((b) =>
      b.chainId === 10 ? { ...b, bridgeChainId: "30112" } : b,
    );
    const state = wired(configured());
    // The state was read under the configured eids: re-key optimism's reads, eid() stays 30111.
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.ok(
      messages.some((m) =>
        /differs from the mainnet preset \(EndpointV2 0x1a44.*, eid 30111, mainnet.ts\)/.test(m),
      ),
      messages.join("\n"),
    );
    assert.ok(
      messages.some((m) => /eid\(\) is 30111, configured 30112: set bridgeChainId "30111"/.test(m)),
      messages.join("\n"),
    );
  });

  it("error: an unset peer whose mate names it: the setPeer to make", () => {
    const bridges = configured();
    const state = wired(bridges);
    oftState(state, 42161, X[42161]).peers["30111"] = ok(zeroHash);
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.deepEqual(messages, [
      `OFT ${X[42161]} on arbitrum (eid 30110): peers(30111) is unset, but ${X[10]} on optimism (eid 30111) is of its mesh (a peer names the other): sends to and deliveries from optimism fail; as the OFT's owner call setPeer(30111, ${peerOf(X[10])})`,
    ]);
  });

  it("error: a peer other than the configured mate: either is wrong, both fixes named", () => {
    const bridges = configured();
    const state = wired(bridges);
    const stray = address(0xcafe);
    oftState(state, 1, X[1]).peers["30110"] = ok(peerOf(stray));
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.equal(messages.length, 1, messages.join("\n"));
    assert.match(
      messages[0]!,
      new RegExp(
        `OFTAdapter ${X[1]} on ethereum \\(eid 30101\\): peers\\(30110\\) is ${stray}, not ${X[42161]}, the configured OFT of its mesh on arbitrum .*configure it in place of ${X[42161]}; else as the OFT's owner call setPeer\\(30110, ${peerOf(X[42161])}\\)`,
      ),
    );
  });

  it("error: a peer the configuration does not list at all", () => {
    // Mesh Y without its optimism OFT: arbitrum's peer there is unlisted.
    const bridges = configured().filter((b) => b.address !== Y[10]);
    const state = wired(configured());
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.deepEqual(messages, [
      `OFT ${Y[42161]} on arbitrum (eid 30110): peers(30111) is ${Y[10]} on optimism (eid 30111), which the configuration does not list: its transfers there are not paired; add it to contracts (kind 2, or 0 for an adapter, bridgeChainId "30111")`,
    ]);
  });

  it("error: an OFT with no peer on any configured chain, named by none", () => {
    const lonely = address(0xc2);
    const bridges = [...configured(), oft(42161, lonely)];
    const state = wired(configured());
    state.ofts.set(contractKey(42161, lonely), {
      endpoint: ok(ENDPOINT),
      token: ok(lonely),
      approvalRequired: ok(false),
      peers: { "30101": ok(zeroHash), "30111": ok(zeroHash) },
    });
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.deepEqual(messages, [
      `OFT ${lonely} on arbitrum (eid 30110): no peer on any other configured chain (peers(eid) unset for 30101, 30111): its transfers cannot be followed; check the address, or configure its peers' chains`,
    ]);
  });

  it("error: kind against approvalRequired(), both ways", () => {
    const bridges = configured().map((b) =>
      b.address === X[1]
        ? { ...b, kind: 2 as const }
        : b.address === X[10]
          ? { ...b, kind: 0 as const }
          : b,
    );
    const state = wired(configured());
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.ok(
      messages.includes(
        `OFT ${X[1]} on ethereum (eid 30101): approvalRequired() is true: an OFTAdapter (lock and unlock): set "kind": 0 and "token" to its token()`,
      ),
      messages.join("\n"),
    );
    assert.ok(
      messages.includes(
        `OFTAdapter ${X[10]} on optimism (eid 30111): approvalRequired() is false: an OFT (burn and mint): set "kind": 2 and "token" to its own address`,
      ),
      messages.join("\n"),
    );
  });

  it("error: token() unlike the configured token; an adapter without one", () => {
    const bridges = configured().map((b) => {
      if (b.address === X[42161]) return { ...b, token: TOKEN };
      if (b.address !== X[1]) return b;
      const { token: _token, ...rest } = b;
      return rest;
    });
    const messages = fails(compareLayerZeroState(bridges, wired(configured()), name));
    assert.deepEqual(messages.sort(), [
      `OFT ${X[42161]} on arbitrum (eid 30110): token() is ${X[42161]}, configured ${TOKEN}: set "token": "${X[42161]}"`,
      `OFTAdapter ${X[1]} on ethereum (eid 30101): an OFTAdapter needs its "token"; token() is ${TOKEN}: add "token": "${TOKEN}"`,
    ]);
  });

  it("error: endpoint() unlike the chain's configured endpoint, or none configured", () => {
    const other = address(0xe0);
    const bridges = configured().filter((b) => !(b.auxiliary === true && b.chainId === 10));
    const state = wired(configured());
    oftState(state, 42161, Y[42161]).endpoint = ok(other);
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.ok(
      messages.includes(
        `OFT ${Y[42161]} on arbitrum (eid 30110): endpoint() is ${other}, but the configured EndpointV2 of arbitrum is ${ENDPOINT}: correct the endpoint entry, or this is not the OFT you meant`,
      ),
      messages.join("\n"),
    );
    assert.ok(
      messages.includes(
        `OFT ${X[10]} on optimism (eid 30111): no EndpointV2 is configured on optimism; its endpoint() is ${ENDPOINT}: add { "protocol": "layerzero-oft", "chainId": 10, "kind": 2, "bridgeChainId": "30111", "address": "${ENDPOINT}", "auxiliary": true } to contracts`,
      ),
      messages.join("\n"),
    );
  });

  it("error: the swap periphery named on an OFT: a sender that is not one, a composer on another endpoint or not trusting the OFT", () => {
    const sender = address(0x5e);
    const composer = address(0xc0);
    const bridges = configured().map((b) =>
      b.address === X[42161] || b.address === Y[42161] || b.address === X[10]
        ? { ...b, swapSender: sender, swapComposer: composer }
        : b,
    );
    const state = wired(bridges);
    const periphery = { endpoint: ok(ENDPOINT), trusted: ok(true) };
    oftState(state, 42161, X[42161]).swapSender = { swapAdapter: ok(address(0xad)) };
    oftState(state, 42161, X[42161]).swapComposer = periphery;
    oftState(state, 42161, Y[42161]).swapSender = {
      swapAdapter: { ok: false, reverted: true, error: "reverted" },
    };
    oftState(state, 42161, Y[42161]).swapComposer = { endpoint: ok(ENDPOINT), trusted: ok(false) };
    oftState(state, 10, X[10]).swapComposer = { endpoint: ok(address(0xe1)), trusted: ok(true) };
    const checks = compareLayerZeroState(bridges, state, name);
    const passed = checks.filter((c) => c.status === "ok" && c.check.startsWith("swap"));
    assert.deepEqual(
      passed.map((c) => [c.check, c.address]),
      [
        ["swapSender", X[42161]],
        ["swapComposer", X[42161]],
      ],
    );
    assert.deepEqual(fails(checks).sort(), [
      `OFT ${X[10]} on optimism (eid 30111): swapComposer ${composer}: its endpoint() is ${address(0xe1)}, not the chain's configured EndpointV2: lzCompose would never reach it`,
      `OFT ${Y[42161]} on arbitrum (eid 30110): swapComposer ${composer}: trustedOft(${Y[42161]}) is false: the composer refuses this OFT's composes (deploy one that trusts it, or remove "swapComposer")`,
      `OFT ${Y[42161]} on arbitrum (eid 30110): swapSender ${sender}: OftSwapSender.swapAdapter() reverted: the address is not our OftSwapSender; remove "swapSender" or correct it`,
    ]);
  });

  it("error: reads that reverted or failed say which, once per read", () => {
    const bridges = configured();
    const state = wired(bridges);
    const x10 = oftState(state, 10, X[10]);
    x10.endpoint = { ok: false, reverted: true, error: "endpoint() reverted or returned no data" };
    x10.peers["30101"] = { ok: false, reverted: false, error: "peers() failed: HTTP 429" };
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.deepEqual(messages.sort(), [
      `OFT ${X[10]} on optimism (eid 30111): endpoint() reverted: the address is not a LayerZero V2 OFT or OFTAdapter`,
      `OFT ${X[10]} on optimism (eid 30111): peers(30101): peers() failed: HTTP 429`,
    ]);
  });

  it("behavior: contracts not read (no code, chain down) give no lines of their own", () => {
    const bridges = configured();
    const state = wired(bridges);
    state.ofts.delete(contractKey(10, X[10]));
    state.endpoints.delete(contractKey(10, ENDPOINT));
    const checks = compareLayerZeroState(bridges, state, name);
    assert.deepEqual(fails(checks), []);
    assert.ok(
      !checks.some((c) => c.address === X[10] || (c.chainId === 10 && c.check === "eid")),
      "nothing read of optimism's",
    );
  });

  it("behavior: a peer that is not an EVM address is named as bytes32", () => {
    const bridges = configured().filter((b) => b.address !== Y[10]);
    const state = wired(configured());
    const solana = `0x${"ab".repeat(32)}` as Hex;
    oftState(state, 42161, Y[42161]).peers["30111"] = ok(solana);
    const messages = fails(compareLayerZeroState(bridges, state, name));
    assert.deepEqual(messages, [
      `OFT ${Y[42161]} on arbitrum (eid 30110): peers(30111) is ${solana}, not an EVM address: check the endpoint id of optimism (eid 30111)`,
    ]);
  });
});
