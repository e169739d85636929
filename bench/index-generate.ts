/**
 * Bulk transfer generation for the index benchmark: a devnet (three anvil chains, our bridges,
 * no relayer, no traffic) filled with N transfers as fast as anvil takes them. Automine is
 * switched off; each chain gets blocks of `perBlock` transactions sent as one JSON-RPC batch of
 * eth_sendTransaction (anvil signs for its unlocked default accounts) with explicit nonces,
 * then one evm_mine. The relayer account then delivers them the same way, and refunds some.
 *
 * Mix (seeded): kinds 0/1/2 in turn over random chain pairs and the eight users; ~10 % are built
 * to fail on the destination (a destination swap into WETH with an impossible minimum), half of
 * those are refunded on the source; ~3 % are never delivered (stay Processing). Every send,
 * delivery and refund is counted back from the chain's logs, so a reverted transaction shows.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Address,
  decodeEventLog,
  encodeEventTopics,
  encodeFunctionData,
  type Hex,
  maxUint256,
  parseAbi,
} from "viem";
import { jsonRpc } from "../src/devnet/json-rpc.js";
import type { DevnetManifest, ManifestChain } from "../src/devnet/manifest.js";
import {
  bridgeEntryAbi,
  bridgeEventsAbi,
  bridgeRelayAbi,
  endpointAbi,
} from "../src/devnet/protocols/reference/relayer-abi.js";
import {
  buildBridgeMessage,
  type TransferSentArgs,
} from "../src/devnet/protocols/reference/relayer-messages.js";
import { type RunningDevnet, runDevnet } from "../src/devnet/run-devnet.js";
import type { BridgeKind } from "../src/domain/bridge-kind.js";
import { createPrng } from "../src/transfers/prng.js";

const approveAbi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]);
const TOKEN_OF_KIND: Record<BridgeKind, string> = { 0: "DAI", 1: "USDC", 2: "USDC" };
const TX_GAS = 600_000n;

export interface GenerateOptions {
  transfers: number;
  perBlock: number;
  seed: number;
  log: (line: string) => void;
}

export interface GeneratedDevnet {
  devnet: RunningDevnet;
  manifest: DevnetManifest;
  sends: number;
  deliveries: number;
  failures: number;
  refunds: number;
  /** Wall time of the whole generation (devnet start included), ms. */
  generationMs: number;
  deployMs: number;
  /** Sends one more transfer (mined by the chain's own block interval); its source tx hash. */
  sendOne(): Promise<{ rpcUrl: string; txHash: Hex }>;
}

type JsonRpc = (method: string, params: unknown[]) => Promise<unknown>;
const jsonRpcTo =
  (url: string): JsonRpc =>
  (method, params) =>
    jsonRpc(url, method, params);

interface Call {
  from: Address;
  to: Address;
  data: Hex;
}

/** Sends calls to one chain in blocks of `perBlock`, one JSON-RPC batch + evm_mine per block. */
function createChainSender(chain: ManifestChain, gasPrice: bigint) {
  const rpc = jsonRpcTo(chain.rpcUrl);
  const nonces = new Map<string, number>();
  async function nonceOf(from: Address): Promise<number> {
    const key = from.toLowerCase();
    let n = nonces.get(key);
    if (n === undefined)
      n = Number(BigInt((await rpc("eth_getTransactionCount", [from, "pending"])) as string));
    nonces.set(key, n + 1);
    return n;
  }
  /** eth_sendTransaction's parameter for `c`, taking the next nonce of its sender. */
  const transactionOf = async (c: Call) => ({
    from: c.from,
    to: c.to,
    data: c.data,
    gas: `0x${TX_GAS.toString(16)}`,
    gasPrice: `0x${gasPrice.toString(16)}`,
    nonce: `0x${(await nonceOf(c.from)).toString(16)}`,
  });
  return {
    rpc,
    /** One transaction into the pool (no mining): for a chain that mines by itself. */
    async submit(c: Call): Promise<Hex> {
      return (await rpc("eth_sendTransaction", [await transactionOf(c)])) as Hex;
    },
    async send(calls: readonly Call[], perBlock: number): Promise<void> {
      for (let at = 0; at < calls.length; at += perBlock) {
        const part = calls.slice(at, at + perBlock);
        const batch = [];
        for (const [i, c] of part.entries()) {
          batch.push({
            jsonrpc: "2.0",
            id: i,
            method: "eth_sendTransaction",
            params: [await transactionOf(c)],
          });
        }
        const response = await fetch(chain.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(batch),
        });
        const answers = (await response.json()) as { error?: { message: string } }[];
        const failed = answers.find((a) => a.error !== undefined);
        if (failed !== undefined) throw new Error(`${chain.name}: ${failed.error!.message}`);
        await rpc("evm_mine", []);
      }
    },
  };
}

interface SentLog {
  chain: ManifestChain;
  kind: BridgeKind;
  args: TransferSentArgs;
}

async function logsOf(rpc: JsonRpc, address: Address[], topic: Hex, head: number) {
  const out: { address: string; topics: Hex[]; data: Hex }[] = [];
  for (let from = 0; from <= head; from += 200) {
    const logs = (await rpc("eth_getLogs", [
      {
        address,
        topics: [topic],
        fromBlock: `0x${from.toString(16)}`,
        toBlock: `0x${Math.min(head, from + 199).toString(16)}`,
      },
    ])) as { address: string; topics: Hex[]; data: Hex }[];
    out.push(...logs);
  }
  return out;
}

function encodeTopic(abi: readonly unknown[], name: string): Hex {
  const encode = encodeEventTopics as (p: { abi: unknown; eventName: string }) => Hex[];
  return encode({ abi, eventName: name })[0]!;
}

export async function generateTransfers(options: GenerateOptions): Promise<GeneratedDevnet> {
  const started = Date.now();
  // Its own manifest directory: the developer's .devnet (and a resumable `npm start`) stays intact.
  const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-bench-index-"));
  const devnet = await runDevnet({ chains: 3, blockTime: 0, relay: false, traffic: 0, dir });
  const deployMs = Date.now() - started;
  const { manifest } = devnet;
  const next = createPrng(options.seed).float;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

  const senders = new Map<number, ReturnType<typeof createChainSender>>();
  for (const chain of manifest.chains) {
    const rpc = jsonRpcTo(chain.rpcUrl);
    await rpc("evm_setAutomine", [false]);
    await rpc("evm_setBlockGasLimit", [
      `0x${(TX_GAS * BigInt(options.perBlock) * 2n).toString(16)}`,
    ]);
    await rpc("anvil_setBalance", [manifest.relayer.address, `0x${(10n ** 27n).toString(16)}`]);
    const gasPrice = BigInt((await rpc("eth_gasPrice", [])) as string) * 4n + 10n ** 9n;
    senders.set(chain.chainId, createChainSender(chain, gasPrice));
  }
  const token = (chain: ManifestChain, symbol: string): Address =>
    chain.tokens.find((t) => t.symbol === symbol)!.address;
  const users = manifest.accounts.map((a) => a.address);

  // Approvals: every user, every chain, every kind's token to its bridge.
  await Promise.all(
    manifest.chains.map((chain) => {
      const calls: Call[] = [];
      for (const from of users)
        for (const kind of [0, 1, 2] as const)
          calls.push({
            from,
            to: token(chain, TOKEN_OF_KIND[kind]),
            data: encodeFunctionData({
              abi: approveAbi,
              functionName: "approve",
              args: [chain.bridges[`${kind}`], maxUint256],
            }),
          });
      return senders.get(chain.chainId)!.send(calls, options.perBlock);
    }),
  );

  // Fee rules per (chain, kind) and messaging fees per (chain, dest): read once.
  const feeRule = new Map<string, readonly bigint[]>();
  const xproto = new Map<string, bigint>();
  for (const chain of manifest.chains) {
    const rpc = senders.get(chain.chainId)!.rpc;
    const call = async (to: Address, data: Hex) =>
      (await rpc("eth_call", [{ to, data }, "latest"])) as Hex;
    for (const kind of [0, 1, 2] as const) {
      const out = await call(
        chain.bridges[`${kind}`],
        encodeFunctionData({
          abi: bridgeEntryAbi,
          functionName: "tokenConfig",
          args: [token(chain, TOKEN_OF_KIND[kind])],
        }),
      );
      const words = out
        .slice(2)
        .match(/.{64}/g)!
        .map((w) => BigInt(`0x${w}`));
      feeRule.set(`${chain.chainId}:${kind}`, words);
      for (const dest of manifest.chains) {
        if (dest === chain || kind !== 2) continue;
        const fee = await call(
          chain.bridges["2"],
          encodeFunctionData({
            abi: bridgeEntryAbi,
            functionName: "xprotoFee",
            args: [BigInt(dest.bridgeChainIds["2"])],
          }),
        );
        xproto.set(`${chain.chainId}:${dest.chainId}`, BigInt(fee));
      }
    }
  }

  // Sends.
  function planSend(): { source: ManifestChain; call: Call } {
    const kind = (Math.floor(next() * 3) % 3) as BridgeKind;
    const source = pick(manifest.chains);
    const dest = pick(manifest.chains.filter((c) => c !== source));
    const symbol = TOKEN_OF_KIND[kind];
    const decimals = source.tokens.find((t) => t.symbol === symbol)!.decimals;
    // 5.00 .. 25.00 whole tokens with two decimals: above every minimum, small enough that the
    // users' funding and the pools last for hundreds of thousands of transfers.
    const amount = BigInt(500 + Math.floor(next() * 2000)) * 10n ** BigInt(decimals - 2);
    const [feeBps, flatFee] = feeRule.get(`${source.chainId}:${kind}`)!;
    const fee =
      flatFee! +
      (amount * feeBps!) / 10_000n +
      (xproto.get(`${source.chainId}:${dest.chainId}`) ?? 0n);
    const failing = next() < 0.1;
    const sourceToken = token(source, symbol);
    const params = {
      destChainId: BigInt(dest.bridgeChainIds[`${kind}`]),
      sourceToken,
      destToken: failing ? token(dest, "WETH") : token(dest, symbol),
      amount,
      fee,
      to: pick(users),
      sourceSwap: false,
      sourceSwapFee: 0n,
      sourceBridgeToken: sourceToken,
      sourceMinAmount: amount,
      destSwap: failing,
      destSwapFee: 0n,
      destBridgeToken: token(dest, symbol),
      destMinAmount: failing ? 10n ** 40n : amount - fee,
    };
    const call = {
      from: pick(users),
      to: source.bridges[`${kind}`],
      data: encodeFunctionData({ abi: bridgeEntryAbi, functionName: "bridge", args: [params] }),
    };
    return { source, call };
  }
  const plan = new Map<number, Call[]>(manifest.chains.map((c) => [c.chainId, []]));
  for (let i = 0; i < options.transfers; i++) {
    const { source, call } = planSend();
    plan.get(source.chainId)!.push(call);
  }
  await Promise.all(
    manifest.chains.map((c) =>
      senders.get(c.chainId)!.send(plan.get(c.chainId)!, options.perBlock),
    ),
  );
  options.log(`sends mined after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Deliveries (and refunds) from what the chains emitted.
  const sentTopic = encodeTopic(bridgeEventsAbi, "TransferSent");
  const packetTopic = encodeTopic(endpointAbi, "PacketSent");
  const sent: SentLog[] = [];
  const packets = new Map<string, readonly unknown[]>();
  for (const chain of manifest.chains) {
    const rpc = senders.get(chain.chainId)!.rpc;
    const head = Number(BigInt((await rpc("eth_blockNumber", [])) as string));
    const bridges = ([0, 1, 2] as const).map((k) => chain.bridges[`${k}`]);
    for (const log of await logsOf(rpc, bridges, sentTopic, head)) {
      const kind = bridges.findIndex(
        (b) => b.toLowerCase() === log.address.toLowerCase(),
      ) as BridgeKind;
      const decoded = decodeEventLog({
        abi: bridgeEventsAbi,
        data: log.data,
        topics: log.topics as never,
      });
      sent.push({ chain, kind, args: decoded.args as unknown as TransferSentArgs });
    }
    for (const log of await logsOf(rpc, [chain.messagingEndpoint], packetTopic, head)) {
      const d = decodeEventLog({ abi: endpointAbi, data: log.data, topics: log.topics as never });
      const a = d.args as {
        guid: Hex;
        srcEid: number;
        sender: Address;
        receiver: Address;
        payload: Hex;
      };
      packets.set(a.guid.toLowerCase(), [a.guid, a.srcEid, a.sender, a.receiver, a.payload]);
    }
  }
  const deliveries = new Map<number, Call[]>(manifest.chains.map((c) => [c.chainId, []]));
  const refunds = new Map<number, Call[]>(manifest.chains.map((c) => [c.chainId, []]));
  let failures = 0;
  const relayer = manifest.relayer.address;
  for (const s of sent) {
    if (next() < 0.03) continue; // never delivered: stays Processing
    const dest = manifest.chains.find(
      (c) => BigInt(c.bridgeChainIds[`${s.kind}`]) === s.args.destChainId,
    )!;
    const failing = s.args.destToken.toLowerCase() !== s.args.destBridgeToken.toLowerCase();
    if (failing) failures++;
    const data =
      s.kind === 2
        ? encodeFunctionData({
            abi: endpointAbi,
            functionName: "deliver",
            args: packets.get(s.args.messageId.toLowerCase()) as never,
          })
        : encodeFunctionData({
            abi: bridgeRelayAbi,
            functionName: "deliver",
            args: [buildBridgeMessage(s.args, s.chain, s.kind)],
          });
    deliveries.get(dest.chainId)!.push({
      from: relayer,
      to: s.kind === 2 ? dest.messagingEndpoint : dest.bridges[`${s.kind}`],
      data,
    });
    if (failing && next() < 0.5) {
      refunds.get(s.chain.chainId)!.push({
        from: relayer,
        to: s.chain.bridges[`${s.kind}`],
        data: encodeFunctionData({
          abi: bridgeRelayAbi,
          functionName: "refund",
          args: [s.args.messageId],
        }),
      });
    }
  }
  await Promise.all(
    manifest.chains.map(async (c) => {
      const sender = senders.get(c.chainId)!;
      await sender.send(deliveries.get(c.chainId)!, options.perBlock);
      await sender.send(refunds.get(c.chainId)!, options.perBlock);
    }),
  );
  const count = (m: Map<number, Call[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);
  return {
    // Stopping it also removes its manifest directory, which is this run's alone.
    devnet: {
      ...devnet,
      async stop() {
        await devnet.stop();
        await rm(dir, { recursive: true, force: true });
      },
    },
    manifest,
    sends: sent.length,
    deliveries: count(deliveries),
    failures,
    refunds: count(refunds),
    generationMs: Date.now() - started,
    deployMs,
    async sendOne() {
      const { source, call } = planSend();
      return { rpcUrl: source.rpcUrl, txHash: await senders.get(source.chainId)!.submit(call) };
    },
  };
}
