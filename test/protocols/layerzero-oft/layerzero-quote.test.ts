/**
 * The pure OFT quote math (quote-math.ts) over the state read at one block (state.ts) against the
 * contracts' own quoteOFT / quoteSend called at that same block, for arbitrary amounts and
 * minimums (fast-check), on an OFT and on an OFTAdapter.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { BaseError, ContractFunctionRevertedError, maxUint64, zeroHash } from "viem";
import type { LayerZeroManifestDeployment } from "../../../src/devnet/protocols/layerzero-oft/manifest.js";
import { oftAbi } from "../../../src/protocols/layerzero-oft/abi.js";
import { addressToBytes32 } from "../../../src/protocols/layerzero-oft/packet.js";
import { maxSendableLD, quoteOftSend } from "../../../src/protocols/layerzero-oft/quote-math.js";
import { type OftState, readOftState } from "../../../src/protocols/layerzero-oft/state.js";
import { connectChain, setupDevnet, type TestDevnet } from "../../setup/anvil.js";

describe("layerzero-oft quotes against quoteOFT / quoteSend on the devnet", () => {
  let devnet: TestDevnet;

  before(async () => {
    devnet = await setupDevnet({ names: ["alpha", "beta"] });
  });
  after(async () => {
    await devnet?.cleanup();
  });

  const deploymentsOf = (symbol: string): LayerZeroManifestDeployment[] => {
    const mesh = devnet.manifest.layerzero?.meshes.find((m) => m.symbol === symbol);
    if (mesh === undefined) throw new Error(`no mesh ${symbol}`);
    return mesh.deployments;
  };

  /** What the contract says at `state.blockNumber`: the receipt and fee, or the revert's name. */
  async function contractQuote(
    state: OftState,
    dstEid: number,
    amountLD: bigint,
    minAmountLD: bigint,
  ): Promise<{ sent: bigint; received: bigint; fee: bigint } | { error: string }> {
    const alpha = connectChain(devnet.manifest, "alpha");
    const sendParam = {
      dstEid,
      to: addressToBytes32(devnet.manifest.accounts[0]!.address),
      amountLD,
      minAmountLD,
      extraOptions: "0x",
      composeMsg: "0x",
      oftCmd: "0x",
    } as const;
    try {
      const [, , receipt] = await alpha.client.readContract({
        address: state.oft,
        abi: oftAbi,
        functionName: "quoteOFT",
        args: [sendParam],
        blockNumber: state.blockNumber,
      });
      const fee = await alpha.client.readContract({
        address: state.oft,
        abi: oftAbi,
        functionName: "quoteSend",
        args: [sendParam, false],
        blockNumber: state.blockNumber,
      });
      return { sent: receipt.amountSentLD, received: receipt.amountReceivedLD, fee: fee.nativeFee };
    } catch (error) {
      const reverted =
        error instanceof BaseError
          ? error.walk((e) => e instanceof ContractFunctionRevertedError)
          : null;
      if (reverted instanceof ContractFunctionRevertedError)
        return { error: reverted.data?.errorName ?? "?" };
      throw error;
    }
  }

  for (const symbol of ["OMNI", "lzDAI"]) {
    it(`behavior: ${symbol}: the pure quote equals quoteOFT and quoteSend at the same block for any amount`, async () => {
      const [source, dest] = deploymentsOf(symbol);
      assert.ok(
        source !== undefined && dest !== undefined,
        "source !== undefined && dest !== undefined",
      );
      const alpha = connectChain(devnet.manifest, "alpha");
      const state = await readOftState(alpha.client, {
        oft: source.oft,
        dstEids: [dest.eid, 99999],
      });
      assert.equal(state.decimalConversionRate, 10n ** 12n);
      assert.equal(state.sharedDecimals, 6);
      assert.equal(state.approvalRequired, source.adapter);
      assert.equal(state.token, source.token);
      assert.equal(state.peers.has(99999), false, "no peer, no fee entry");
      assert.equal(
        state.maxAmountLD,
        await alpha.client.readContract({
          address: source.token,
          abi: [
            {
              type: "function",
              name: "totalSupply",
              inputs: [],
              outputs: [{ type: "uint256" }],
              stateMutability: "view",
            },
          ],
          functionName: "totalSupply",
        }),
      );
      const rate = state.decimalConversionRate;
      const amount = fc.oneof(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: rate * 3n }), // around the dust boundary
        fc.bigInt({ min: maxSendableLD(rate) - rate * 2n, max: maxSendableLD(rate) + rate * 2n }), // uint64 edge
      );
      const seen = { ok: 0, slippage: 0, overflow: 0 };
      await fc.assert(
        fc.asyncProperty(
          amount,
          fc.bigInt({ min: 0n, max: 10n ** 30n }),
          fc.boolean(),
          async (amountLD, min, useMin) => {
            const minAmountLD = useMin ? min : 0n;
            const pure = quoteOftSend(state, { dstEid: dest.eid, amountLD, minAmountLD });
            const chain = await contractQuote(state, dest.eid, amountLD, minAmountLD);
            if (pure.ok) {
              seen.ok++;
              assert.deepEqual(chain, {
                sent: pure.amountSentLD,
                received: pure.amountReceivedLD,
                fee: pure.nativeFee,
              });
            } else if (pure.reason === "slippage") {
              seen.slippage++;
              assert.deepEqual(chain, { error: "SlippageExceeded" });
            } else {
              assert.equal(pure.reason, "amount-too-large");
              seen.overflow++;
              assert.deepEqual(chain, { error: "AmountSDOverflowed" });
            }
          },
        ),
        { numRuns: 60 },
      );
      // Every branch of the contract's behaviour was compared, not only the happy path.
      assert.ok(seen.ok > 0 && seen.slippage > 0 && seen.overflow > 0, JSON.stringify(seen));
      assert.ok(
        maxSendableLD(rate) / rate === maxUint64,
        "maxSendableLD(rate) / rate === maxUint64",
      );
      assert.deepEqual(
        quoteOftSend(state, { dstEid: 99999, amountLD: 1n, minAmountLD: 0n }).ok,
        false,
      );
      assert.notEqual(state.peers.get(dest.eid), zeroHash);
    });
  }
});
