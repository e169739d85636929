/**
 * LayerZero OFT routes through the router's seam (protocols/layerzero-oft/routing.ts), on the
 * router fixture with two meshes added as the devnet writes them (`contracts` with a mesh):
 * OMNI (an OFT on alpha and beta) and lzDAI (an OFTAdapter over alpha's DAI, an OFT on beta),
 * and OFT state as readOftState gives it. Checked: the legs, dust as the fee, the native
 * messaging fee beside it, bridgeType 0 at an adapter, limits, the send and approval calldata,
 * swaps not offered, and discovery.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Address, decodeFunctionData, pad, zeroAddress } from "viem";
import { formatAmount, toBaseUnits } from "../amount.js";
import { parseRegistry } from "../domain/registry.js";
import { erc20Abi, oftAbi } from "../protocols/layerzero-oft/abi.js";
import { layerZeroRegistryBridges } from "../protocols/layerzero-oft/registry.js";
import type { OftChainState, OftRoutingState } from "../protocols/layerzero-oft/routing.js";
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
const FEE = { alpha: 10n ** 14n, beta: 2n * 10n ** 14n };

const contracts = layerZeroRegistryBridges({
  chains: [
    { chainId: alpha.chainId, eid: eid.alpha, endpoint: fixtureAddress("endpoint/alpha") },
    { chainId: beta.chainId, eid: eid.beta, endpoint: fixtureAddress("endpoint/beta") },
  ],
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
        { chainId: beta.chainId, eid: eid.beta, oft: omni.beta, token: omni.beta, adapter: false },
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
const registry = parseRegistry({ ...f.registryJson, contracts });

function oftState(
  oft: Address,
  token: Address,
  peerEid: number,
  peer: Address,
  fee: bigint,
  locked?: bigint,
): OftRoutingState {
  return {
    oft,
    blockNumber: 1n,
    token,
    approvalRequired: locked !== undefined,
    sharedDecimals: 6,
    decimalConversionRate: RATE,
    minAmountLD: 0n,
    maxAmountLD: 1_000_000n * E18,
    feeByDstEid: new Map([[peerEid, { nativeFee: fee, lzTokenFee: 0n }]]),
    peers: new Map([[peerEid, pad(peer, { size: 32 })]]),
    composeFeeByDstEid: new Map([[peerEid, { nativeFee: fee * 3n, lzTokenFee: 0n }]]),
    locked,
  };
}

const lzState: Record<"alpha" | "beta", OftChainState> = {
  alpha: new Map([
    [omni.alpha.toLowerCase(), oftState(omni.alpha, omni.alpha, eid.beta, omni.beta, FEE.alpha)],
    [
      lzDai.alpha.toLowerCase(),
      oftState(lzDai.alpha, dai, eid.beta, lzDai.beta, FEE.alpha, 500n * E18),
    ],
  ]),
  beta: new Map([
    [omni.beta.toLowerCase(), oftState(omni.beta, omni.beta, eid.alpha, omni.alpha, FEE.beta)],
    [lzDai.beta.toLowerCase(), oftState(lzDai.beta, lzDai.beta, eid.alpha, lzDai.alpha, FEE.beta)],
  ]),
};

function snapshotWith(
  change: (name: "alpha" | "beta") => OftChainState | undefined,
): StateSnapshot {
  const chains = new Map<number, ChainState>();
  for (const [id, state] of f.snapshot.chains) {
    const name = id === alpha.chainId ? "alpha" : id === beta.chainId ? "beta" : undefined;
    const lz = name === undefined ? undefined : change(name);
    chains.set(
      id,
      lz === undefined ? state : { ...state, protocols: new Map([["layerzero-oft", lz]]) },
    );
  }
  return { chains };
}
const snapshot = snapshotWith((name) => lzState[name]);
const router = createRouter({ registry });

function quote(from: ["alpha" | "beta", Address], to: ["alpha" | "beta", Address], amount: string) {
  return router.quote(
    {
      sourceChain: String(f.chain(from[0]).chainId),
      sourceToken: from[1],
      destChain: String(f.chain(to[0]).chainId),
      destToken: to[1],
      amount,
      to: TO,
    },
    snapshot,
  );
}

describe("OFT routes", () => {
  it("default: an OFT to OFT quote: fee = the dust, the native messaging fee beside it, OFT.send with value = nativeFee", () => {
    // 12.5 OMNI + 123 wei of dust (below the 6 shared decimals).
    const amount = `12.500000000000000123`;
    const result = quote(["alpha", omni.alpha], ["beta", omni.beta], amount);
    assert.ok(result.ok, result.ok ? "" : result.message);
    const { data } = result;
    assert.equal(data.fee, "0.000000000000000123");
    assert.equal(data.destMaxAmount, "12.5");
    assert.deepEqual(data.messagingFee, {
      amount: formatAmount(FEE.alpha, 18),
      address: zeroAddress,
      symbol: alpha.nativeToken.symbol,
      decimals: 18,
    });
    assert.equal(data.signData.bridge, omni.alpha);
    assert.equal(data.signData.bridgeType, 2);
    const params = JSON.parse(data.signData.params);
    assert.equal(params.destChainId, String(eid.beta));
    assert.equal(params.sourceSwap, false);
    assert.equal(params.destSwap, false);
    assert.equal(params.fee, data.fee);
    assert.equal(data.approval, null, "an OFT burns: nothing to approve");
    const tx = data.transactionRequest!;
    assert.equal(tx.to, omni.alpha);
    assert.equal(tx.chainId, alpha.chainId);
    assert.equal(BigInt(tx.value), FEE.alpha);
    const call = decodeFunctionData({ abi: oftAbi, data: tx.data });
    assert.equal(call.functionName, "send");
    const [sendParam, fee, refund] = call.args as unknown as [
      { dstEid: number; to: string; amountLD: bigint; minAmountLD: bigint },
      { nativeFee: bigint; lzTokenFee: bigint },
      Address,
    ];
    assert.equal(sendParam.dstEid, eid.beta);
    assert.equal(sendParam.to, pad(TO.toLowerCase() as Address, { size: 32 }));
    assert.equal(sendParam.amountLD, 12_500_000_000_000_000_123n);
    // destMinAmount (12.5 less 0.5 % slippage) in whole shared-decimals units.
    assert.equal(data.destMinAmount, "12.4375");
    assert.equal(sendParam.minAmountLD, toBaseUnits(data.destMinAmount, 18));
    assert.equal(sendParam.minAmountLD % RATE, 0n);
    assert.deepEqual(fee, { nativeFee: FEE.alpha, lzTokenFee: 0n });
    assert.equal(refund, TO);
  });

  it("behavior: from the OFTAdapter (alpha's DAI) the leg is bridgeType 0 and needs the DAI approval; into it the locked DAI caps the amount", () => {
    const out = quote(["alpha", dai], ["beta", lzDai.beta], "10");
    assert.ok(out.ok, out.ok ? "" : out.message);
    assert.equal(out.data.signData.bridgeType, 0);
    assert.equal(out.data.signData.bridge, lzDai.alpha);
    assert.equal(out.data.fee, "0");
    const approval = out.data.approval!;
    assert.equal(approval.token, dai);
    assert.equal(approval.spender, lzDai.alpha);
    assert.equal(approval.amount, "10");
    const approve = decodeFunctionData({ abi: erc20Abi, data: approval.transactionRequest.data });
    assert.deepEqual(approve.args, [lzDai.alpha, 10n * E18]);

    const back = quote(["beta", lzDai.beta], ["alpha", dai], "500");
    assert.ok(back.ok, back.ok ? "" : back.message);
    assert.equal(back.data.signData.bridgeType, 0);
    assert.equal(back.data.approval, null);
    assert.equal(BigInt(back.data.transactionRequest!.value), FEE.beta);
    const tooMuch = quote(["beta", lzDai.beta], ["alpha", dai], "500.000001");
    assert.equal(tooMuch.ok, false);
    assert.ok(
      !tooMuch.ok && tooMuch.kind === "amountOutOfRange",
      tooMuch.ok ? "" : `${tooMuch.kind}: ${tooMuch.message}`,
    );
  });

  it("error: an amount below one shared-decimals unit delivers nothing: out of range, with the smallest accepted", () => {
    const result = quote(["alpha", omni.alpha], ["beta", omni.beta], "0.0000009");
    assert.ok(
      !result.ok && result.kind === "amountOutOfRange",
      result.ok ? "" : `${result.kind}: ${result.message}`,
    );
    assert.equal(result.route?.reason === "amountOutOfRange" && result.route.min, "0.000001");
  });

  it("error: swaps around an OFT leg are not offered (no route), and the reference routes are unchanged", () => {
    const usdc = f.token("beta", "USDC").address;
    const result = quote(["alpha", omni.alpha], ["beta", usdc], "1");
    assert.ok(!result.ok && result.kind === "noRoute", JSON.stringify(result));
    const reference = router.quote(
      {
        sourceChain: "71001",
        sourceToken: f.token("alpha", "USDC").address,
        destChain: "71002",
        destToken: usdc,
        amount: "1000",
        to: TO,
      },
      snapshot,
    );
    const plain = createRouter({ registry: f.registry }).quote(
      {
        sourceChain: "71001",
        sourceToken: f.token("alpha", "USDC").address,
        destChain: "71002",
        destToken: usdc,
        amount: "1000",
        to: TO,
      },
      f.snapshot,
    );
    assert.ok(reference.ok && plain.ok, "both quote");
    assert.equal(JSON.stringify(reference.data), JSON.stringify(plain.data));
  });

  it("error: a peer that is not the registry's destination, or no OFT state, is state unavailable naming it", () => {
    const unwired = snapshotWith((name) =>
      name === "alpha"
        ? new Map([
            [
              omni.alpha.toLowerCase(),
              oftState(omni.alpha, omni.alpha, eid.beta, fixtureAddress("elsewhere"), FEE.alpha),
            ],
          ])
        : lzState[name],
    );
    const result = router.quote(
      {
        sourceChain: String(alpha.chainId),
        sourceToken: omni.alpha,
        destChain: String(beta.chainId),
        destToken: omni.beta,
        amount: "1",
        to: TO,
      },
      unwired,
    );
    assert.ok(!result.ok && result.kind === "serviceUnavailable", JSON.stringify(result));
    assert.match(result.message, /peer for endpoint 40102/);
  });

  it("behavior: discovery lists the OFT legs with neither swap (no periphery) and the native messaging fee token", () => {
    const catalog = createConnectionCatalog(registry, 50);
    const [connection] = catalog.connections(snapshot, {
      sourceChain: alpha.chainId,
      destChain: beta.chainId,
    });
    const oft = connection!.bridges.filter((b) => b.swaps !== undefined);
    assert.ok(
      oft.every((b) => b.swaps!.source === false && b.swaps!.dest === false),
      "no periphery in this registry: neither swap",
    );
    assert.deepEqual(
      oft.map((b) => [b.bridge, b.bridgeType, b.destChainId, b.sourceTokens, b.destTokens]),
      [
        [omni.alpha, 2, String(eid.beta), [omni.alpha], [omni.beta]],
        [lzDai.alpha, 0, String(eid.beta), [dai], [lzDai.beta]],
      ],
    );
    assert.deepEqual(oft[0]!.fee, {
      feeBps: 0,
      flatFee: "0",
      messagingFee: formatAmount(FEE.alpha, 18),
    });
    assert.equal(oft[0]!.messagingFeeToken?.address, zeroAddress);
    assert.equal(oft[0]!.minAmount, "0.000001");
    assert.equal(catalog.isRouted(alpha.chainId, omni.alpha), true);
    assert.equal(catalog.isRouted(alpha.chainId, fixtureAddress("endpoint/alpha")), false);
    // The reference bridges' entries are as before (no swaps or messagingFeeToken field).
    const reference = connection!.bridges.filter((b) => b.swaps === undefined);
    assert.ok(reference.length > 0, "reference.length > 0");
    assert.ok(
      reference.every((b) => !("messagingFeeToken" in b)),
      'reference.every((b) => !("messagingFeeToken" in b))',
    );
  });
});
