/**
 * A fake RPC client of one fixture chain for the chain state provider: answers every read the
 * provider makes (block number, block, factory pairs, reserves, bridge views) from the router
 * fixture's snapshot; `head`, `fail` and `bump` steer it, `calls` records what was asked.
 */
import type { RouterFixture } from "../../src/router/fixtures.js";
import type { StateReaderClient } from "../../src/router/providers/chain-state-provider.js";
import { coupleKey } from "../../src/router/state.js";

export interface FakeChain {
  client: StateReaderClient;
  calls: { method: string; blockNumber?: bigint }[];
  head: bigint;
  fail: Error | undefined;
  /** Added to every reserve, to tell reads apart. */
  bump: bigint;
  /** Creates a pair in the fake factory, as anyone can on chain. */
  addPair(a: string, b: string, address: string, reserve0: bigint, reserve1: bigint): void;
}

export function fakeChain(fixture: RouterFixture, chainId: number): FakeChain {
  const state = fixture.snapshot.chains.get(chainId)!;
  const fake: FakeChain = {
    client: undefined as never,
    calls: [],
    head: 100n,
    fail: undefined,
    bump: 0n,
    addPair(a, b, address, reserve0, reserve1) {
      const [token0, token1] = [a.toLowerCase(), b.toLowerCase()].sort() as [string, string];
      pairByCouple.set(coupleKey(token0, token1), address);
      pairByAddress.set(address.toLowerCase(), { token0, token1, reserve0, reserve1 });
    },
  };
  const pairByAddress = new Map(
    fixture.registry.chain(chainId)!.dex.pairs.map((p) => [p.key, state.pairs.get(p.key)!]),
  );
  const pairByCouple = new Map(
    fixture.registry
      .chain(chainId)!
      .dex.pairs.map((p) => [coupleKey(p.token0.key, p.token1.key), p.address as string]),
  );
  const bridgeByAddress = new Map(
    ([0, 1, 2] as const).map((k) => [
      fixture.registry.chain(chainId)!.bridges[k]!.toLowerCase(),
      k,
    ]),
  );
  const check = (method: string, blockNumber?: bigint) => {
    fake.calls.push({ method, ...(blockNumber === undefined ? {} : { blockNumber }) });
    if (fake.fail) throw fake.fail;
  };
  fake.client = {
    getBlockNumber: async () => {
      check("eth_blockNumber");
      return fake.head;
    },
    getBlock: async (args: { blockNumber: bigint }) => {
      check("getBlock", args.blockNumber);
      return { number: args.blockNumber, timestamp: 1_700_000_000n + args.blockNumber };
    },
    readContract: async (args: {
      address: string;
      functionName: string;
      args?: readonly unknown[];
      blockNumber: bigint;
    }) => {
      check(args.functionName, args.blockNumber);
      const address = args.address.toLowerCase();
      // The factory: the registry's pairs, and the couples fake.extraPairs adds.
      if (args.functionName === "allPairsLength") return BigInt(pairByCouple.size);
      if (args.functionName === "getPair") {
        const [a, b] = (args.args as string[]).map((t) => t.toLowerCase());
        return pairByCouple.get(coupleKey(a!, b!)) ?? "0x0000000000000000000000000000000000000000";
      }
      if (args.functionName === "token0") return pairByAddress.get(address)!.token0;
      if (args.functionName === "getReserves") {
        const r = pairByAddress.get(address)!;
        return [r.reserve0 + fake.bump, r.reserve1 + fake.bump, 0];
      }
      const kind = bridgeByAddress.get(address)!;
      const bridge = state.bridges[kind]!;
      const arg = args.args![0] as string | bigint;
      if (args.functionName === "tokenConfig") {
        const c = bridge.tokenConfigs.get(String(arg).toLowerCase())!;
        return [c.feeBps, c.flatFee, c.minAmount, c.maxAmount];
      }
      if (args.functionName === "availableLiquidity") {
        return bridge.availableLiquidity!.get(String(arg).toLowerCase())!;
      }
      const dest = fixture.registry.chainByBridgeChainId(2, String(arg))!;
      return bridge.xprotoFees!.get(dest.chainId)!;
    },
  } as unknown as StateReaderClient;
  return fake;
}
