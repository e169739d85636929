/**
 * Swaps around LayerZero OFT legs (protocols/layerzero-oft/routing.ts) on the router fixture
 * with the OMNI and lzDAI meshes (lzDAI: an OFTAdapter over alpha's DAI, an OFT on beta) and our
 * periphery named per chain: a source swap (alpha USDC -> DAI, then the adapter's send) through
 * OftSwapSender.swapAndSend; a destination swap (beta lzDAI -> alpha DAI -> USDC) through the
 * composer, with the composed send's messaging fee; the swaps offered per chain (where its
 * periphery is) in routes and discovery; no native coin through the periphery; a contract whose
 * state could not be read leaves only its own routes unpriced.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type Address,
  ContractFunctionExecutionError,
  ContractFunctionZeroDataError,
  decodeFunctionData,
  HttpRequestError,
  pad,
  zeroAddress,
} from "viem";
import { toBaseUnits } from "../amount.js";
import { parseRegistry, type Registry } from "../domain/registry.js";
import { erc20Abi, oftAbi, oftSwapSenderAbi } from "../protocols/layerzero-oft/abi.js";
import { decodeSwapComposeMsg } from "../protocols/layerzero-oft/compose.js";
import { removeDust } from "../protocols/layerzero-oft/quote-math.js";
import { layerZeroRegistryBridges } from "../protocols/layerzero-oft/registry.js";
import {
  layerZeroOftRouting,
  type OftChainState,
  type OftRoutingState,
} from "../protocols/layerzero-oft/routing.js";
import { COMPOSED_SEND_FEE_FIELDS } from "../protocols/layerzero-oft/state.js";
import { createConnectionCatalog } from "./connections.js";
import { createRouter } from "./create-router.js";
import { createRouterFixture, fixtureAddress } from "./fixtures.js";
import type { ChainState, StateSnapshot } from "./state.js";

const f = createRouterFixture();
const E18 = 10n ** 18n;
const RATE = 10n ** 12n;
const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const alpha = f.chain("alpha");
const beta = f.chain("beta");
const eid = { alpha: 40101, beta: 40102 };
const omni = { alpha: fixtureAddress("omni/alpha"), beta: fixtureAddress("omni/beta") };
const lzDai = { alpha: fixtureAddress("lzdai/alpha"), beta: fixtureAddress("lzdai/beta") };
const dai = f.token("alpha", "DAI").address;
const usdcAlpha = f.token("alpha", "USDC").address;
const FEE = { alpha: 10n ** 14n, beta: 2n * 10n ** 14n };
const COMPOSED_FEE = { alpha: 7n * 10n ** 14n, beta: 9n * 10n ** 14n };
const periphery = {
  alpha: {
    swapSender: fixtureAddress("sender/alpha"),
    swapComposer: fixtureAddress("composer/alpha"),
  },
  beta: {
    swapSender: fixtureAddress("sender/beta"),
    swapComposer: fixtureAddress("composer/beta"),
  },
};

function registryWith(on: readonly ("alpha" | "beta")[]): Registry {
  const chain = (name: "alpha" | "beta") => ({
    chainId: f.chain(name).chainId,
    eid: eid[name],
    endpoint: fixtureAddress(`endpoint/${name}`),
    ...(on.includes(name) ? { periphery: periphery[name] } : {}),
  });
  const contracts = layerZeroRegistryBridges({
    chains: [chain("alpha"), chain("beta")],
    meshes: [
      {
        symbol: "OMNI",
        decimals: 18,
        deployments: [
          {
            chainId: alpha.chainId,
            eid: eid.alpha,
            oft: omni.alpha,
            token: omni.alpha,
            adapter: false,
          },
          {
            chainId: beta.chainId,
            eid: eid.beta,
            oft: omni.beta,
            token: omni.beta,
            adapter: false,
          },
        ],
      },
      {
        symbol: "lzDAI",
        decimals: 18,
        deployments: [
          { chainId: alpha.chainId, eid: eid.alpha, oft: lzDai.alpha, token: dai, adapter: true },
          {
            chainId: beta.chainId,
            eid: eid.beta,
            oft: lzDai.beta,
            token: lzDai.beta,
            adapter: false,
          },
        ],
      },
    ],
  });
  return parseRegistry({ ...f.registryJson, contracts });
}

function oftState(
  token: Address,
  peerEid: number,
  peer: Address,
  name: "alpha" | "beta",
  locked?: bigint,
): OftRoutingState {
  return {
    oft: token,
    blockNumber: 1n,
    token,
    approvalRequired: locked !== undefined,
    sharedDecimals: 6,
    decimalConversionRate: RATE,
    minAmountLD: 0n,
    maxAmountLD: 1_000_000n * E18,
    feeByDstEid: new Map([[peerEid, { nativeFee: FEE[name], lzTokenFee: 0n }]]),
    composeFeeByDstEid: new Map([[peerEid, { nativeFee: COMPOSED_FEE[name], lzTokenFee: 0n }]]),
    peers: new Map([[peerEid, pad(peer, { size: 32 })]]),
    locked,
  };
}

const lzState: Record<"alpha" | "beta", OftChainState> = {
  alpha: new Map([
    [omni.alpha.toLowerCase(), oftState(omni.alpha, eid.beta, omni.beta, "alpha")],
    [lzDai.alpha.toLowerCase(), oftState(dai, eid.beta, lzDai.beta, "alpha", 5000n * E18)],
  ]),
  beta: new Map([
    [omni.beta.toLowerCase(), oftState(omni.beta, eid.alpha, omni.alpha, "beta")],
    [lzDai.beta.toLowerCase(), oftState(lzDai.beta, eid.alpha, lzDai.alpha, "beta")],
  ]),
};

function snapshotWith(lz: Record<"alpha" | "beta", OftChainState>): StateSnapshot {
  const chains = new Map<number, ChainState>();
  for (const [id, state] of f.snapshot.chains) {
    const name = id === alpha.chainId ? "alpha" : id === beta.chainId ? "beta" : undefined;
    chains.set(
      id,
      name === undefined ? state : { ...state, protocols: new Map([["layerzero-oft", lz[name]]]) },
    );
  }
  return { chains };
}
const snapshot = snapshotWith(lzState);
const both = registryWith(["alpha", "beta"]);

function quote(
  registry: Registry,
  from: ["alpha" | "beta", Address],
  to: ["alpha" | "beta", Address],
  amount: string,
  state: StateSnapshot = snapshot,
) {
  return createRouter({ registry, memoizeQuotes: false }).quote(
    {
      sourceChain: String(f.chain(from[0]).chainId),
      sourceToken: from[1],
      destChain: String(f.chain(to[0]).chainId),
      destToken: to[1],
      amount,
      to: TO,
    },
    state,
  );
}

describe("OFT routes with swaps through the periphery", () => {
  it("default: a source swap (alpha USDC -> DAI, the adapter's send): swapAndSend with minAmountOut = sourceMinAmount, the plain messaging fee, USDC approved to the sender", () => {
    const result = quote(both, ["alpha", usdcAlpha], ["beta", lzDai.beta], "1000");
    assert.ok(result.ok, result.ok ? "" : result.message);
    const { data } = result;
    const params = JSON.parse(data.signData.params);
    assert.equal(params.sourceSwap, true);
    assert.equal(params.destSwap, false);
    assert.equal(data.signData.bridge, lzDai.alpha);
    assert.equal(data.signData.bridgeType, 0);
    const tx = data.transactionRequest!;
    assert.equal(tx.to, periphery.alpha.swapSender);
    assert.equal(BigInt(tx.value), FEE.alpha);
    const call = decodeFunctionData({ abi: oftSwapSenderAbi, data: tx.data });
    assert.equal(call.functionName, "swapAndSend");
    const [p] = call.args as unknown as [
      {
        oft: Address;
        tokenIn: Address;
        amountIn: bigint;
        minAmountOut: bigint;
        dstEid: number;
        to: string;
        minAmountLD: bigint;
        composeMsg: string;
        refundAddress: Address;
      },
    ];
    assert.equal(p.oft, lzDai.alpha);
    assert.equal(p.tokenIn, usdcAlpha);
    assert.equal(p.amountIn, 1000_000000n);
    assert.equal(p.minAmountOut, toBaseUnits(params.sourceMinAmount, 18));
    assert.equal(p.dstEid, eid.beta);
    assert.equal(p.to, pad(TO.toLowerCase() as Address, { size: 32 }));
    assert.equal(p.composeMsg, "0x");
    // The OFT's minimum holds when the swap pays only minAmountOut (its dust removed), and
    // guarantees destMinAmount.
    assert.ok(
      p.minAmountLD <= removeDust(p.minAmountOut, RATE),
      "minAmountLD <= removeDust(minAmountOut)",
    );
    assert.ok(p.minAmountLD >= toBaseUnits(data.destMinAmount, 18), "minAmountLD >= destMinAmount");
    const approval = data.approval!;
    assert.equal(approval.token, usdcAlpha);
    assert.equal(approval.spender, periphery.alpha.swapSender);
    const approve = decodeFunctionData({ abi: erc20Abi, data: approval.transactionRequest.data });
    assert.deepEqual(approve.args, [periphery.alpha.swapSender, 1000_000000n]);
  });

  it("default: a destination swap (beta lzDAI -> alpha DAI -> USDC): OFT.send to alpha's composer with the compose message and options, the composed messaging fee", () => {
    const result = quote(
      both,
      ["beta", lzDai.beta],
      ["alpha", usdcAlpha],
      "250.000000000000000042",
    );
    assert.ok(result.ok, result.ok ? "" : result.message);
    const { data } = result;
    const params = JSON.parse(data.signData.params);
    assert.equal(params.sourceSwap, false);
    assert.equal(params.destSwap, true);
    assert.equal(toBaseUnits(data.messagingFee!.amount, 18), COMPOSED_FEE.beta);
    const tx = data.transactionRequest!;
    assert.equal(tx.to, lzDai.beta);
    assert.equal(BigInt(tx.value), COMPOSED_FEE.beta);
    assert.equal(data.approval, null, "an OFT burns: nothing to approve");
    const call = decodeFunctionData({ abi: oftAbi, data: tx.data });
    assert.equal(call.functionName, "send");
    const [sendParam, fee] = call.args as unknown as [
      {
        to: string;
        amountLD: bigint;
        minAmountLD: bigint;
        extraOptions: string;
        composeMsg: `0x${string}`;
      },
      { nativeFee: bigint },
    ];
    assert.equal(
      sendParam.to,
      pad(periphery.alpha.swapComposer.toLowerCase() as Address, { size: 32 }),
    );
    assert.equal(sendParam.extraOptions, COMPOSED_SEND_FEE_FIELDS.extraOptions);
    assert.equal(fee.nativeFee, COMPOSED_FEE.beta);
    // The bridged token's minimum is the amount less its dust (no source swap: it is exact).
    assert.equal(sendParam.amountLD, 250n * E18 + 42n);
    assert.equal(sendParam.minAmountLD, 250n * E18);
    const composed = decodeSwapComposeMsg(sendParam.composeMsg);
    assert.equal(composed.tokenOut, usdcAlpha);
    assert.equal(composed.recipient, TO);
    assert.equal(composed.minAmountOut, toBaseUnits(data.destMinAmount, 6));
    assert.ok(
      composed.minAmountOut > 240_000000n,
      "about 250 USDC less the pool's fee and slippage",
    );
  });

  it("behavior: the swaps are offered per chain, where the periphery is: a sender on the source, a composer on the destination; discovery says which", () => {
    const onBeta = registryWith(["beta"]);
    // alpha has no sender: no source swap from alpha; beta's composer is not used by alpha's sends.
    const from = quote(onBeta, ["alpha", usdcAlpha], ["beta", lzDai.beta], "1000");
    assert.ok(!from.ok && from.kind === "noRoute", JSON.stringify(from));
    // alpha has no composer: no destination swap into alpha.
    const into = quote(onBeta, ["beta", lzDai.beta], ["alpha", usdcAlpha], "10");
    assert.ok(!into.ok && into.kind === "noRoute", JSON.stringify(into));
    const catalog = createConnectionCatalog(onBeta, 50);
    const [alphaToBeta] = catalog.connections(snapshot, {
      sourceChain: alpha.chainId,
      destChain: beta.chainId,
    });
    const [betaToAlpha] = catalog.connections(snapshot, {
      sourceChain: beta.chainId,
      destChain: alpha.chainId,
    });
    const lz = (c: typeof alphaToBeta, bridge: Address) =>
      c!.bridges.find((b) => b.bridge === bridge)!;
    assert.deepEqual(lz(alphaToBeta, lzDai.alpha).swaps, { source: false, dest: true });
    assert.deepEqual(lz(alphaToBeta, lzDai.alpha).sourceTokens, [dai]);
    assert.deepEqual(lz(betaToAlpha, lzDai.beta).swaps, { source: true, dest: false });
    assert.deepEqual(lz(betaToAlpha, lzDai.beta).destTokens, [dai]);
    // With the periphery on both chains the swaps are offered both ways: no `swaps` field.
    const [full] = createConnectionCatalog(both, 50).connections(snapshot, {
      sourceChain: beta.chainId,
      destChain: alpha.chainId,
    });
    const entry = lz(full, lzDai.beta);
    assert.equal(entry.swaps, undefined);
    assert.ok(entry.destTokens.includes(usdcAlpha), "USDC is reached by a destination swap");
    assert.ok(!entry.destTokens.includes(zeroAddress), "never the native coin");
  });

  it("error: the native coin is not swapped through the periphery (no route)", () => {
    const result = quote(both, ["alpha", alpha.nativeToken.address], ["beta", lzDai.beta], "1");
    assert.ok(!result.ok && result.kind === "noRoute", JSON.stringify(result));
  });

  it("error: a contract whose state could not be read leaves its own routes unpriced, naming why; the chain's other OFTs quote", () => {
    const failed = new Map(lzState.alpha);
    failed.set(omni.alpha.toLowerCase(), {
      failed: 'The contract function "token" returned no data ("0x").',
    });
    const state = snapshotWith({ alpha: failed, beta: lzState.beta });
    const broken = quote(both, ["alpha", omni.alpha], ["beta", omni.beta], "1", state);
    assert.ok(!broken.ok && broken.kind === "serviceUnavailable", JSON.stringify(broken));
    assert.match(broken.message, /unreadable: The contract function "token" returned no data/);
    const fine = quote(both, ["alpha", usdcAlpha], ["beta", lzDai.beta], "10", state);
    assert.ok(fine.ok, fine.ok ? "" : fine.message);
  });

  it("property: with a source swap, the send's minAmountLD holds when the swap pays only minAmountOut (dust removed) and guarantees destMinAmount", () => {
    let quoted = 0;
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000000n, max: 4000_000000n }),
        fc.integer({ min: 0, max: 1 }),
        (amount, slippage) => {
          const result = createRouter({
            registry: both,
            memoizeQuotes: false,
            slippageBps: slippage * 300,
          }).quote(
            {
              sourceChain: String(alpha.chainId),
              sourceToken: usdcAlpha,
              destChain: String(beta.chainId),
              destToken: lzDai.beta,
              amount: (Number(amount) / 1e6).toFixed(6),
              to: TO,
            },
            snapshot,
          );
          assert.ok(result.ok, result.ok ? "" : result.message);
          quoted++;
          const call = decodeFunctionData({
            abi: oftSwapSenderAbi,
            data: result.data.transactionRequest!.data,
          });
          const [p] = call.args as unknown as [{ minAmountOut: bigint; minAmountLD: bigint }];
          assert.ok(
            p.minAmountLD <= removeDust(p.minAmountOut, RATE),
            "minAmountLD <= removeDust(minAmountOut)",
          );
          assert.ok(
            p.minAmountLD >= toBaseUnits(result.data.destMinAmount, 18),
            "minAmountLD >= destMinAmount",
          );
          assert.ok(
            toBaseUnits(result.data.destMinAmount, 18) <=
              toBaseUnits(result.data.destMaxAmount, 18),
            "destMinAmount <= destMaxAmount",
          );
        },
      ),
      { numRuns: 200 },
    );
    assert.equal(quoted, 200);
  });

  it("error: the state reader keeps a contract's own failure (no code) per contract, and fails the whole read on a transport failure", async () => {
    const reader = layerZeroOftRouting.stateReader(both, both.chain(alpha.chainId)!)!;
    const noCode = new ContractFunctionExecutionError(
      new ContractFunctionZeroDataError({ functionName: "token" }),
      { abi: [], functionName: "token" },
    );
    const client = (fail: (address: string) => Error | undefined) => ({
      readContract: (async (args: { address: string }) => {
        const error = fail(args.address.toLowerCase());
        if (error !== undefined) throw error;
        throw new Error("unexpected read in this test");
      }) as never,
    });
    // Every contract fails here, omni with no code, lzDAI with no code too: both recorded.
    const state = (await reader.read(
      client(() => noCode),
      1n,
    )) as OftChainState;
    const failures = reader.unreadable!(state);
    assert.deepEqual(
      [...failures.keys()].sort(),
      [lzDai.alpha.toLowerCase(), omni.alpha.toLowerCase()].sort(),
    );
    assert.match(failures.get(omni.alpha.toLowerCase())!, /returned no data/);
    // A transport failure is the chain's: the read rejects (the provider keeps its last state).
    const down = new HttpRequestError({ url: "http://127.0.0.1:1", details: "connection refused" });
    await assert.rejects(
      reader.read(
        client(() => down),
        1n,
      ),
      HttpRequestError,
    );
  });
});
