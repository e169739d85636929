/**
 * LayerZero OFT transfers through the real indexer (src/protocols/layerzero-oft/index.ts behind
 * the protocol seam), on the devnet's real EndpointV2 / OFT contracts, with the indexer
 * configured from the devnet manifest (its `contracts`): an OFT send and an OFTAdapter send
 * each go Processing -> Success with every record field checked against the chain; a packet
 * not yet delivered stays Processing; a delivery that reverts in lzReceive (paused receiver)
 * raises LzReceiveAlert, the record stays Processing, then Success after the retry. On SQLite
 * and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, getAddress, type Hex, zeroAddress } from "viem";
import { formatAmount } from "../../../src/amount.js";
import type { ManifestAccount } from "../../../src/devnet/manifest.js";
import type {
  LayerZeroManifest,
  LayerZeroManifestDeployment,
} from "../../../src/devnet/protocols/layerzero-oft/manifest.js";
import {
  createLayerZeroRelayer,
  type LayerZeroRelayer,
} from "../../../src/devnet/protocols/layerzero-oft/relayer.js";
import type { BridgeTransaction } from "../../../src/domain/bridge-transaction.js";
import { formatUtc } from "../../../src/domain/utc-time.js";
import { erc20Abi, oftAbi } from "../../../src/protocols/layerzero-oft/abi.js";
import {
  configOf,
  indexUntilIdle,
  openIsolatedIndexer,
  type TestIndexer,
} from "../../indexer/helpers.js";
import { type ChainConnection, setupDevnet, type TestDevnet } from "../../setup/anvil.js";
import {
  type LayerZeroDevnetView,
  type SentOft,
  sendOftFrom,
  setReceivePaused,
  viewLayerZeroDevnet,
} from "./send-oft.js";

type Fields = Omit<BridgeTransaction, "created_at" | "updated_at">;

describe("layerzero-oft through the indexer (devnet)", () => {
  let devnet: TestDevnet;
  let lz: LayerZeroManifest;
  let relayer: LayerZeroRelayer;
  const indexers: { backend: string; ix: TestIndexer }[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    devnet = await setupDevnet();
    assert.ok(devnet.manifest.layerzero !== undefined, "the manifest has a layerzero section");
    lz = devnet.manifest.layerzero;
    assert.ok(
      (devnet.manifest.contracts ?? []).some((c) => c.protocol === "layerzero-oft"),
      "the manifest lists LayerZero's contracts for the indexer",
    );
    view = viewLayerZeroDevnet(devnet.manifest);
    // Driven by poll(): "not yet delivered" is a state the test controls.
    relayer = createLayerZeroRelayer({
      layerzero: lz,
      chains: devnet.manifest.chains,
      retryDelayMs: 0,
    });
    for (const backend of ["sqlite", "postgres"] as const) {
      const { ix } = await openIsolatedIndexer(backend, configOf(devnet.manifest), cleanups);
      indexers.push({ backend, ix });
    }
  });
  after(async () => {
    await relayer?.stop();
    for (const c of cleanups.reverse()) await c();
    await devnet?.cleanup();
  });

  let view: LayerZeroDevnetView;
  const chain = (name: string): ChainConnection => view.chain(name);
  const user = (index: number): ManifestAccount => view.user(index);
  const deployment = (symbol: string, name: string): LayerZeroManifestDeployment =>
    view.deployment(symbol, name);

  /** Indexes every chain on both stores; returns each store's record of `guid`. */
  async function recordsOf(guid: Hex): Promise<(BridgeTransaction | undefined)[]> {
    const out = [];
    for (const { ix } of indexers) {
      await indexUntilIdle(ix.indexer.chains);
      out.push(await ix.store.transfers.getTransfer(guid.toLowerCase()));
    }
    return out;
  }

  async function assertRecord(guid: Hex, expected: Fields): Promise<void> {
    const records = await recordsOf(guid);
    for (const [i, record] of records.entries()) {
      assert.ok(record !== undefined, `${indexers[i]!.backend}: a record for ${guid}`);
      const { created_at: _c, updated_at: _u, ...fields } = record;
      assert.deepEqual(fields, expected, indexers[i]!.backend);
    }
  }

  /** The OFTSent of a send's receipt: its guid and amounts, as the chain emitted them. */
  async function oftSentOf(name: string, sent: SentOft, oft: Address) {
    const logs = await chain(name).client.getContractEvents({
      address: oft,
      abi: oftAbi,
      eventName: "OFTSent",
      blockHash: sent.receipt.blockHash,
    });
    const log = logs.find((l) => l.transactionHash === sent.receipt.transactionHash);
    assert.ok(log !== undefined, "OFTSent in the send's block");
    return log.args as { guid: Hex; amountSentLD: bigint; amountReceivedLD: bigint };
  }

  /** The OFTReceived of `guid` on `name`'s `oft`, if delivered. */
  async function oftReceivedOf(name: string, oft: Address, guid: Hex) {
    const logs = await chain(name).client.getContractEvents({
      address: oft,
      abi: oftAbi,
      eventName: "OFTReceived",
      args: { guid },
      fromBlock: BigInt(chain(name).chain.deployBlock),
      toBlock: "latest",
    });
    return logs[0];
  }

  async function tokenMeta(name: string, token: Address) {
    const { client } = chain(name);
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: "symbol" }),
      client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" }),
    ]);
    return { symbol: symbol as string, decimals: Number(decimals) };
  }

  const blockTime = async (name: string, blockNumber: bigint) =>
    formatUtc(Number((await chain(name).client.getBlock({ blockNumber })).timestamp));

  /** The record the chain says a send must have, Processing or (with its delivery) Success. */
  async function expectedRecord(
    symbol: string,
    from: string,
    to: string,
    sender: ManifestAccount,
    recipient: Address,
    sent: SentOft,
    delivered: boolean,
  ): Promise<Fields> {
    const source = deployment(symbol, from);
    const dest = deployment(symbol, to);
    const event = await oftSentOf(from, sent, source.oft);
    const tx = await chain(from).client.getTransaction({ hash: sent.receipt.transactionHash });
    // The inner tokens the OFTs move, read from the contracts (not the manifest).
    const sourceToken = (await chain(from).client.readContract({
      address: source.oft,
      abi: oftAbi,
      functionName: "token",
    })) as Address;
    const destToken = (await chain(to).client.readContract({
      address: dest.oft,
      abi: oftAbi,
      functionName: "token",
    })) as Address;
    const srcMeta = await tokenMeta(from, sourceToken);
    const dstMeta = await tokenMeta(to, destToken);
    const received = delivered ? await oftReceivedOf(to, dest.oft, event.guid) : undefined;
    assert.equal(received !== undefined, delivered, "delivered on the chain as expected");
    return {
      message_id: event.guid.toLowerCase(),
      source_contract: getAddress(source.oft),
      dest_contract: getAddress(dest.oft),
      source_tx_hash: sent.receipt.transactionHash.toLowerCase(),
      dest_tx_hash: received?.transactionHash.toLowerCase() ?? "",
      from_address: getAddress(sender.address),
      to_address: getAddress(recipient),
      send_amount: formatAmount(event.amountSentLD, srcMeta.decimals),
      min_receive_amount: formatAmount(event.amountReceivedLD, dstMeta.decimals),
      receive_amount:
        received === undefined
          ? ""
          : formatAmount(received.args.amountReceivedLD as bigint, dstMeta.decimals),
      source_chain_name: from,
      dest_chain_name: to,
      source_token_address: getAddress(sourceToken),
      source_token_decimals: srcMeta.decimals,
      source_token_symbol: srcMeta.symbol,
      dest_token_address: getAddress(destToken),
      dest_token_decimals: dstMeta.decimals,
      dest_token_symbol: dstMeta.symbol,
      dest_bridge_token: getAddress(destToken),
      dest_bridge_token_decimals: dstMeta.decimals,
      dest_bridge_token_amount: formatAmount(event.amountReceivedLD, dstMeta.decimals),
      fee_address: getAddress(sourceToken),
      fee_decimals: srcMeta.decimals,
      fee_symbol: srcMeta.symbol,
      xproto_fee: formatAmount(tx.value, 18),
      bridge_fee: formatAmount(event.amountSentLD - event.amountReceivedLD, srcMeta.decimals),
      status: received === undefined ? "Processing" : "Success",
      subsidy_amount: "0",
      start_time: await blockTime(from, sent.receipt.blockNumber),
      end_time: received === undefined ? "" : await blockTime(to, received.blockNumber),
      protocol: "layerzero-oft",
      xproto_fee_address: zeroAddress,
      xproto_fee_decimals: 18,
      xproto_fee_symbol: "ETH",
    };
  }

  /** Sends, checks the Processing record, delivers, checks the Success record. */
  async function sendAndFollow(
    symbol: string,
    from: string,
    to: string,
    sender: ManifestAccount,
    recipient: Address,
    amountLD: bigint,
  ): Promise<{ guid: Hex; sent: SentOft }> {
    const sent = await sendOftFrom(
      chain(from),
      deployment(symbol, from),
      deployment(symbol, to),
      sender,
      recipient,
      amountLD,
    );
    const processing = await expectedRecord(symbol, from, to, sender, recipient, sent, false);
    const guid = processing.message_id as Hex;
    assert.notEqual(processing.xproto_fee, "0", "a messaging fee was paid");
    await assertRecord(guid, processing);
    // Not delivered yet: however often the indexer polls, it stays Processing.
    await assertRecord(guid, processing);

    await relayer.poll();
    const success = await expectedRecord(symbol, from, to, sender, recipient, sent, true);
    assert.equal(success.status, "Success");
    await assertRecord(guid, success);
    return { guid, sent };
  }

  it("behavior: an OFT send (OMNI alpha -> beta, with dust) is Processing until delivered, then Success, every field as on the chain", async () => {
    const { sent } = await sendAndFollow(
      "OMNI",
      "alpha",
      "beta",
      user(0),
      user(1).address,
      12_345_678_901_234_567_891n,
    );
    // The dust never left the sender: send_amount is the dust-free amount.
    assert.equal(sent.quote.amountSentLD, 12_345_678_000_000_000_000n);
  });

  it("behavior: an OFTAdapter send (DAI locked on alpha -> lzDAI on gamma) and the way back (unlock) each go Processing -> Success", async () => {
    const { guid } = await sendAndFollow(
      "lzDAI",
      "alpha",
      "gamma",
      user(2),
      user(3).address,
      250n * 10n ** 18n + 777n,
    );
    const [record] = await recordsOf(guid);
    assert.equal(record?.source_token_symbol, "DAI", "the adapter's inner token");
    assert.equal(record?.dest_token_symbol, "lzDAI");
    const back = await sendAndFollow(
      "lzDAI",
      "gamma",
      "alpha",
      user(3),
      user(3).address,
      100n * 10n ** 18n,
    );
    const [backRecord] = await recordsOf(back.guid);
    assert.equal(backRecord?.dest_contract, getAddress(deployment("lzDAI", "alpha").oft));
    assert.equal(backRecord?.dest_token_symbol, "DAI", "unlocked as the adapter's token");
  });

  it("behavior: a delivery that reverts in lzReceive raises LzReceiveAlert; the record stays Processing, then Success after the retry", async () => {
    const omniGamma = deployment("OMNI", "gamma");
    const gamma = chain("gamma");
    const pause = (paused: boolean) =>
      setReceivePaused(devnet.manifest, gamma, omniGamma.oft, paused);
    await pause(true);
    const sender = user(5);
    const recipient = user(4).address;
    const sent = await sendOftFrom(
      chain("beta"),
      deployment("OMNI", "beta"),
      omniGamma,
      sender,
      recipient,
      5n * 10n ** 18n,
    );
    const processing = await expectedRecord(
      "OMNI",
      "beta",
      "gamma",
      sender,
      recipient,
      sent,
      false,
    );
    const guid = processing.message_id as Hex;
    const alerted = relayer.stats().alerted;
    await relayer.poll();
    assert.equal(relayer.stats().alerted, alerted + 1, "the relayer raised LzReceiveAlert");
    await assertRecord(guid, processing);
    for (const { backend, ix } of indexers) {
      const events = await ix.store.transfers.transferEvents(guid);
      assert.deepEqual(
        events.map((e) => [e.chainId, e.eventName, e.role]),
        [
          [chain("beta").chain.chainId, "OFTSent", "sent"],
          [gamma.chain.chainId, "LzReceiveAlert", "retrying"],
        ],
        backend,
      );
    }

    await pause(false);
    await relayer.poll();
    const success = await expectedRecord("OMNI", "beta", "gamma", sender, recipient, sent, true);
    await assertRecord(guid, success);
    for (const { backend, ix } of indexers) {
      const events = await ix.store.transfers.transferEvents(guid);
      assert.deepEqual(
        events.map((e) => e.role),
        ["sent", "retrying", "delivered"],
        backend,
      );
    }
  });
});
