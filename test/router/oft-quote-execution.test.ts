/**
 * LayerZero OFT routes quoted by the router over the chain state provider (anvil devnet, the real
 * EndpointV2 and OFTs) and executed:
 * - property: for arbitrary amounts, the router's quote equals the OFT's own quoteOFT and
 *   quoteSend called at the block the quote's state was read at (dust, amount received, native
 *   fee), and its send's minAmountLD passes quoteOFT's check there;
 * - every quoted OFT route (OMNI both ways, lzDAI out of and back into the OFTAdapter) executed
 *   with the client's executeQuote, relayed by the devnet's LayerZero relayer, delivers exactly
 *   destMaxAmount, at least destMinAmount, to a fresh recipient.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { type Address, decodeFunctionData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { executeQuote } from "../../packages/client/src/execute-quote.js";
import { formatAmount, toBaseUnits } from "../../src/amount.js";
import type { ManifestAccount } from "../../src/devnet/manifest.js";
import type { LayerZeroManifestDeployment } from "../../src/devnet/protocols/layerzero-oft/manifest.js";
import {
  createLayerZeroRelayer,
  type LayerZeroRelayer,
} from "../../src/devnet/protocols/layerzero-oft/relayer.js";
import { parseRegistry, type Registry } from "../../src/domain/registry.js";
import { erc20Abi, oftAbi } from "../../src/protocols/layerzero-oft/abi.js";
import { createRouter, type Router } from "../../src/router/create-router.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
} from "../../src/router/providers/chain-state-provider.js";
import type { RouteQuoteData } from "../../src/router/quote-response.js";
import { connectChain, setupDevnet, type TestDevnet } from "../setup/anvil.js";

describe("OFT routes quoted and executed on the devnet", () => {
  let devnet: TestDevnet;
  let registry: Registry;
  let provider: ChainStateProvider;
  let router: Router;
  let relayer: LayerZeroRelayer;

  before(async () => {
    devnet = await setupDevnet({ names: ["alpha", "beta"] });
    registry = parseRegistry(devnet.manifest);
    provider = createChainStateProvider({ registry, maxStateAgeMs: 60_000, pollIntervalMs: 50 });
    await provider.start();
    router = createRouter({ registry, memoizeQuotes: false });
    relayer = createLayerZeroRelayer({
      layerzero: devnet.manifest.layerzero!,
      chains: devnet.manifest.chains,
      retryDelayMs: 0,
    });
  });
  after(async () => {
    await relayer?.stop();
    await provider?.stop();
    await devnet?.cleanup();
  });

  const mesh = (symbol: string): LayerZeroManifestDeployment[] => {
    const found = devnet.manifest.layerzero?.meshes.find((m) => m.symbol === symbol);
    if (found === undefined) throw new Error(`no mesh ${symbol}`);
    return found.deployments;
  };
  const chainName = (chainId: number) =>
    devnet.manifest.chains.find((c) => c.chainId === chainId)!.name;

  async function quote(
    from: LayerZeroManifestDeployment,
    to: LayerZeroManifestDeployment,
    amount: string,
    recipient: Address,
  ): Promise<RouteQuoteData> {
    await provider.refresh();
    const result = router.quote(
      {
        sourceChain: String(from.chainId),
        sourceToken: from.token,
        destChain: String(to.chainId),
        destToken: to.token,
        amount,
        to: recipient,
      },
      provider.current(),
    );
    assert.ok(result.ok, result.ok ? "" : `${result.kind}: ${result.message}`);
    return result.data;
  }

  for (const symbol of ["OMNI", "lzDAI"]) {
    it(`behavior: ${symbol}: the router's quote equals quoteOFT and quoteSend at the block it was priced from`, async () => {
      const [source, dest] = mesh(symbol);
      const alpha = connectChain(devnet.manifest, "alpha");
      const recipient = privateKeyToAddress(generatePrivateKey());
      await provider.refresh();
      const snapshot = provider.current();
      const block = snapshot.chains.get(source!.chainId)!.blockNumber;
      const amounts = fc.oneof(
        fc.bigInt({ min: 10n ** 12n, max: 10n ** 22n }),
        fc.bigInt({ min: 10n ** 12n, max: 3n * 10n ** 12n }),
      );
      let compared = 0;
      await fc.assert(
        fc.asyncProperty(amounts, async (amountLD) => {
          const result = router.quote(
            {
              sourceChain: String(source!.chainId),
              sourceToken: source!.token,
              destChain: String(dest!.chainId),
              destToken: dest!.token,
              amount: formatAmount(amountLD, 18),
              to: recipient,
            },
            snapshot,
          );
          assert.ok(result.ok, result.ok ? "" : `${result.kind}: ${result.message}`);
          const { data } = result;
          assert.equal(data.stateBlocks?.[String(source!.chainId)], Number(block));
          const call = decodeFunctionData({ abi: oftAbi, data: data.transactionRequest!.data });
          const [sendParam] = call.args as unknown as [
            {
              dstEid: number;
              to: Hex;
              amountLD: bigint;
              minAmountLD: bigint;
              extraOptions: Hex;
              composeMsg: Hex;
              oftCmd: Hex;
            },
          ];
          assert.equal(sendParam.amountLD, amountLD);
          const [, , receipt] = await alpha.client.readContract({
            address: source!.oft,
            abi: oftAbi,
            functionName: "quoteOFT",
            args: [sendParam],
            blockNumber: block,
          });
          const fee = await alpha.client.readContract({
            address: source!.oft,
            abi: oftAbi,
            functionName: "quoteSend",
            args: [sendParam, false],
            blockNumber: block,
          });
          // fee = the dust: what of the amount is not sent.
          assert.equal(toBaseUnits(data.fee, 18), amountLD - receipt.amountSentLD);
          assert.equal(toBaseUnits(data.destMaxAmount, 18), receipt.amountReceivedLD);
          assert.ok(
            receipt.amountReceivedLD >= sendParam.minAmountLD,
            "receipt.amountReceivedLD >= sendParam.minAmountLD",
          );
          assert.ok(
            sendParam.minAmountLD >= toBaseUnits(data.destMinAmount, 18),
            "sendParam.minAmountLD >= destMinAmount",
          );
          assert.equal(toBaseUnits(data.messagingFee!.amount, 18), fee.nativeFee);
          assert.equal(BigInt(data.transactionRequest!.value), fee.nativeFee);
          compared++;
        }),
        { numRuns: 25 },
      );
      assert.equal(compared, 25);
    });
  }

  /** Sends the quote with executeQuote from `sender`, relays, returns what `recipient` got. */
  async function execute(
    data: RouteQuoteData,
    from: LayerZeroManifestDeployment,
    to: LayerZeroManifestDeployment,
    sender: ManifestAccount,
    recipient: Address,
  ): Promise<bigint> {
    const source = connectChain(devnet.manifest, chainName(from.chainId));
    const dest = connectChain(devnet.manifest, chainName(to.chainId));
    const balance = () =>
      dest.client.readContract({
        address: to.token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [recipient],
      });
    const before = await balance();
    await executeQuote({
      walletClient: source.wallet(sender),
      publicClient: source.client,
      quote: { transactionRequest: data.transactionRequest!, approval: data.approval! },
    });
    for (let i = 0; i < 40; i++) {
      await relayer.poll();
      const now = await balance();
      if (now !== before) return now - before;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the OFT transfer was not delivered");
  }

  it("default: every quoted OFT route executes through executeQuote and delivers at least destMinAmount", async () => {
    const sender = devnet.manifest.accounts[1]!;
    const [omniAlpha, omniBeta] = mesh("OMNI");
    const [adapter, lzDaiBeta] = mesh("lzDAI");
    const cases: [LayerZeroManifestDeployment, LayerZeroManifestDeployment, string, Address][] = [
      [omniAlpha!, omniBeta!, "12.345678901234567891", privateKeyToAddress(generatePrivateKey())],
      [omniBeta!, omniAlpha!, "7.5", privateKeyToAddress(generatePrivateKey())],
      // Into beta's lzDAI for the sender itself, who then sends part of it back to the adapter.
      [adapter!, lzDaiBeta!, "100.000000000000000777", sender.address],
      [lzDaiBeta!, adapter!, "40.25", privateKeyToAddress(generatePrivateKey())],
    ];
    for (const [from, to, amount, recipient] of cases) {
      const data = await quote(from, to, amount, recipient);
      const bridgeType = from.adapter || to.adapter ? 0 : 2;
      assert.equal(data.signData.bridgeType, bridgeType);
      assert.equal(data.signData.bridge, from.oft);
      assert.equal(data.approval !== null, from.adapter, "an approval exactly from the adapter");
      const got = await execute(data, from, to, sender, recipient);
      const label = `${amount} from ${chainName(from.chainId)} ${from.oft}`;
      assert.ok(got >= toBaseUnits(data.destMinAmount, 18), `${label}: ${got} < destMinAmount`);
      assert.equal(got, toBaseUnits(data.destMaxAmount, 18), `${label}: OFT delivery is exact`);
    }
  });
});
