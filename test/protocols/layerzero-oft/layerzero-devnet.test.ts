/**
 * LayerZero V2 on the devnet, end to end against the real contracts on anvil: the deployed code is
 * the packages', OFT and OFTAdapter sends built by transaction.ts are delivered by the devnet's
 * DVN + executor with balances moved exactly, the decoder reads the real logs, a packet not yet
 * delivered is visible as sent only, and a delivery that reverts raises LzReceiveAlert and goes
 * through after a retry.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Address,
  type Hex,
  type PublicClient,
  pad,
  type TransactionReceipt,
  toFunctionSelector,
} from "viem";
import { createDevnetClients } from "../../../src/devnet/chain-clients.js";
import type { ManifestAccount } from "../../../src/devnet/manifest.js";
import type {
  LayerZeroManifest,
  LayerZeroManifestDeployment,
} from "../../../src/devnet/protocols/layerzero-oft/manifest.js";
import {
  createLayerZeroRelayer,
  type LayerZeroRelayer,
} from "../../../src/devnet/protocols/layerzero-oft/relayer.js";
import { sendRandomOftTransfer } from "../../../src/devnet/protocols/layerzero-oft/traffic.js";
import { createRandom } from "../../../src/devnet/traffic-plan.js";
import { endpointAbi, oftAbi } from "../../../src/protocols/layerzero-oft/abi.js";
import {
  type LayerZeroArtifacts,
  loadLayerZeroArtifacts,
  runtimeCodeMatches,
} from "../../../src/protocols/layerzero-oft/artifacts.js";
import {
  decodeLayerZeroLog,
  normaliseLayerZeroTransaction,
  type OftDeliveredEvent,
  type OftRetryableEvent,
  type OftSentEvent,
} from "../../../src/protocols/layerzero-oft/decode.js";
import { computeGuid, decodeOftMessage } from "../../../src/protocols/layerzero-oft/packet.js";
import { removeDust } from "../../../src/protocols/layerzero-oft/quote-math.js";
import { type ChainConnection, setupDevnet, type TestDevnet } from "../../setup/anvil.js";
import {
  type LayerZeroDevnetView,
  type SentOft,
  sendOftFrom,
  setReceivePaused,
  viewLayerZeroDevnet,
} from "./send-oft.js";

describe("layerzero-oft on the devnet", () => {
  let devnet: TestDevnet;
  let lz: LayerZeroManifest;
  let relayer: LayerZeroRelayer;
  let artifacts: LayerZeroArtifacts;

  before(async () => {
    artifacts = loadLayerZeroArtifacts();
    devnet = await setupDevnet();
    assert.ok(devnet.manifest.layerzero !== undefined, "the manifest has a layerzero section");
    lz = devnet.manifest.layerzero;
    view = viewLayerZeroDevnet(devnet.manifest);
    // Not started: each test drives it with poll(), so "not yet delivered" is a state it controls.
    relayer = createLayerZeroRelayer({
      layerzero: lz,
      chains: devnet.manifest.chains,
      retryDelayMs: 0,
    });
  });
  after(async () => {
    await relayer?.stop();
    await devnet?.cleanup();
  });

  let view: LayerZeroDevnetView;
  const chain = (name: string): ChainConnection => view.chain(name);
  const user = (index: number): ManifestAccount => view.user(index);
  const deployment = (symbol: string, name: string): LayerZeroManifestDeployment =>
    view.deployment(symbol, name);
  const lzChain = (name: string) => view.lzChain(name);
  const balance = (name: string, token: Address, owner: Address) =>
    chain(name).balanceOf(token, owner);

  /** Quotes with the pure math over state read at the current block, then sends as `from`. */
  const sendOft = (
    symbol: string,
    from: string,
    to: string,
    sender: ManifestAccount,
    recipient: Address,
    amountLD: bigint,
  ): Promise<SentOft> =>
    sendOftFrom(
      chain(from),
      deployment(symbol, from),
      deployment(symbol, to),
      sender,
      recipient,
      amountLD,
    );

  async function normalised(client: PublicClient, receipt: TransactionReceipt) {
    const tx = await client.getTransaction({ hash: receipt.transactionHash });
    return normaliseLayerZeroTransaction(receipt.logs, { txValue: tx.value });
  }

  /** Every normalised event on `name` from its endpoint and OFTs since the deploy block. */
  async function eventsOn(name: string): Promise<ReturnType<typeof normaliseLayerZeroTransaction>> {
    const connection = chain(name);
    const addresses = [
      lzChain(name).endpoint,
      ...lz.meshes.map((m) => deployment(m.symbol, name).oft),
    ];
    const logs = await connection.client.getLogs({
      address: addresses,
      fromBlock: BigInt(connection.chain.deployBlock),
      toBlock: "latest",
    });
    const byTx = new Map<Hex, typeof logs>();
    for (const log of logs)
      byTx.set(log.transactionHash, [...(byTx.get(log.transactionHash) ?? []), log]);
    return [...byTx.values()].flatMap((txLogs) => normaliseLayerZeroTransaction(txLogs));
  }

  it("default: the deployed EndpointV2 and SimpleMessageLib are the package's runtime code, the OFTs ours", async () => {
    for (const name of ["alpha", "beta", "gamma"]) {
      const { client } = chain(name);
      const lzc = lzChain(name);
      const word = (value: bigint | Address): Hex =>
        typeof value === "bigint"
          ? pad(`0x${value.toString(16)}`, { size: 32 })
          : pad(value, { size: 32 });
      const blocked = (await client.readContract({
        address: lzc.endpoint,
        abi: [
          {
            type: "function",
            name: "blockedLibrary",
            inputs: [],
            outputs: [{ type: "address" }],
            stateMutability: "view",
          },
        ],
        functionName: "blockedLibrary",
      })) as Address;
      const endpointCode = (await client.getCode({ address: lzc.endpoint })) as Hex;
      assert.ok(
        runtimeCodeMatches(endpointCode, artifacts.EndpointV2, [
          word(BigInt(lzc.eid)),
          word(blocked),
        ]),
        `${name}: EndpointV2 runtime code differs from the package's deployedBytecode`,
      );
      const libCode = (await client.getCode({ address: lzc.messageLib })) as Hex;
      assert.ok(
        runtimeCodeMatches(libCode, artifacts.SimpleMessageLib, [
          word(lzc.endpoint),
          word(devnet.manifest.deployer.address),
          word(BigInt(lzc.eid)),
        ]),
        `${name}: SimpleMessageLib runtime code differs from the package's deployedBytecode`,
      );
      // Without the immutables' values the comparison fails: it is not vacuous.
      assert.equal(runtimeCodeMatches(libCode, artifacts.SimpleMessageLib, []), false);
      for (const mesh of lz.meshes) {
        const d = deployment(mesh.symbol, name);
        const code = (await client.getCode({ address: d.oft })) as Hex;
        const artifact = d.adapter ? artifacts.DevnetOFTAdapter : artifacts.DevnetOFT;
        assert.ok(runtimeCodeMatches(code, artifact), `${name}: ${mesh.symbol} runtime code`);
        assert.equal(
          await client.readContract({ address: d.oft, abi: oftAbi, functionName: "endpoint" }),
          lzc.endpoint,
        );
      }
    }
  });

  it("behavior: an OFT send is sent only until the relayer delivers it; then OFTReceived pairs by guid and balances moved exactly", async () => {
    const sender = user(0);
    const recipient = user(1).address;
    const omniAlpha = deployment("OMNI", "alpha");
    const omniBeta = deployment("OMNI", "beta");
    const amountLD = 12_345_678_901_234_567_891n; // 12.3... OMNI with dust below 10^12
    const senderBefore = await balance("alpha", omniAlpha.token, sender.address);
    const recipientBefore = await balance("beta", omniBeta.token, recipient);
    const libBefore = await chain("alpha").client.getBalance({
      address: lzChain("alpha").messageLib,
    });

    const { receipt, quote } = await sendOft("OMNI", "alpha", "beta", sender, recipient, amountLD);
    assert.equal(quote.amountSentLD, 12_345_678_000_000_000_000n);
    assert.equal(quote.amountReceivedLD, quote.amountSentLD);
    assert.equal(quote.nativeFee, BigInt(lzChain("alpha").nativeFee));

    const [sent, ...rest] = await normalised(chain("alpha").client, receipt);
    assert.equal(rest.length, 0);
    assert.equal(sent?.type, "sent");
    const s = sent as OftSentEvent;
    assert.equal(s.srcEid, lzChain("alpha").eid);
    assert.equal(s.dstEid, lzChain("beta").eid);
    assert.equal(s.oft, omniAlpha.oft);
    assert.equal(s.destinationOft, omniBeta.oft);
    assert.equal(s.from, sender.address);
    assert.equal(s.to, recipient);
    assert.equal(s.amountSentLD, quote.amountSentLD);
    assert.equal(s.amountReceivedLD, quote.amountReceivedLD);
    assert.equal(s.messagingFee, quote.nativeFee, "messaging fee = the transaction's value");
    // The fee went to the send library; the dust stayed with the sender (burnt: amountSentLD only).
    assert.equal(
      (await chain("alpha").client.getBalance({ address: lzChain("alpha").messageLib })) -
        libBefore,
      quote.nativeFee,
    );
    assert.equal(
      senderBefore - (await balance("alpha", omniAlpha.token, sender.address)),
      quote.amountSentLD,
    );

    // The raw PacketSent: the packet's fields and the OFT message inside it.
    const packetEvent = receipt.logs.map(decodeLayerZeroLog).find((e) => e?.event === "PacketSent");
    assert.ok(packetEvent?.event === "PacketSent", "PacketSent decoded");
    const { packet } = packetEvent;
    assert.equal(packet.guid, s.guid);
    assert.equal(
      packet.guid,
      computeGuid(packet),
      "guid = keccak(nonce, srcEid, sender, dstEid, receiver)",
    );
    assert.equal(packet.sender, pad(omniAlpha.oft.toLowerCase() as Hex, { size: 32 }));
    assert.equal(s.nonce, packet.nonce);
    const message = decodeOftMessage(packet.message);
    assert.equal(message.amountSD, quote.amountReceivedLD / 10n ** 12n);
    assert.equal(message.compose, undefined);

    // Not delivered yet: sent on alpha, nothing of it on beta.
    assert.equal((await eventsOn("beta")).filter((e) => e.guid === s.guid).length, 0);
    assert.equal(await balance("beta", omniBeta.token, recipient), recipientBefore);

    await relayer.poll();
    const onBeta = (await eventsOn("beta")).filter((e) => e.guid === s.guid);
    assert.deepEqual(
      onBeta.map((e) => e.type),
      ["delivered"],
    );
    const d = onBeta[0] as OftDeliveredEvent;
    assert.equal(d.srcEid, lzChain("alpha").eid);
    assert.equal(d.oft, omniBeta.oft);
    assert.equal(d.to, recipient);
    assert.equal(d.amountReceivedLD, s.amountReceivedLD);
    assert.equal(d.nonce, s.nonce);
    assert.equal(d.sourceOft, omniAlpha.oft);
    assert.equal(
      (await balance("beta", omniBeta.token, recipient)) - recipientBefore,
      s.amountReceivedLD,
    );
    // A second pass redoes nothing.
    const delivered = relayer.stats().delivered;
    await relayer.poll();
    assert.equal(relayer.stats().delivered, delivered);
  });

  it("behavior: an OFTAdapter send locks DAI on alpha and mints lzDAI on gamma; the way back unlocks it", async () => {
    const sender = user(2);
    const recipient = user(3).address;
    const adapter = deployment("lzDAI", "alpha");
    const lzDaiGamma = deployment("lzDAI", "gamma");
    assert.equal(adapter.adapter, true);
    assert.equal(adapter.token, chain("alpha").token("DAI"));
    const amountLD = 250n * 10n ** 18n + 777n; // 777 wei of dust
    const lockedBefore = await balance("alpha", adapter.token, adapter.oft);
    const daiBefore = await balance("alpha", adapter.token, sender.address);

    const { receipt, quote } = await sendOft(
      "lzDAI",
      "alpha",
      "gamma",
      sender,
      recipient,
      amountLD,
    );
    assert.equal(quote.amountSentLD, 250n * 10n ** 18n);
    const [sent] = (await normalised(chain("alpha").client, receipt)) as OftSentEvent[];
    assert.equal(sent?.oft, adapter.oft);
    assert.equal(
      (await balance("alpha", adapter.token, adapter.oft)) - lockedBefore,
      quote.amountSentLD,
    );
    assert.equal(
      daiBefore - (await balance("alpha", adapter.token, sender.address)),
      quote.amountSentLD,
    );

    await relayer.poll();
    const got = (await eventsOn("gamma")).find((e) => e.guid === sent?.guid);
    assert.equal(got?.type, "delivered");
    assert.equal(await balance("gamma", lzDaiGamma.token, recipient), quote.amountReceivedLD);

    // Back: gamma's OFT burns, alpha's adapter unlocks to the recipient.
    const back = user(3);
    const daiOfBack = await balance("alpha", adapter.token, back.address);
    const { receipt: backReceipt, quote: backQuote } = await sendOft(
      "lzDAI",
      "gamma",
      "alpha",
      back,
      back.address,
      100n * 10n ** 18n,
    );
    const [backSent] = (await normalised(chain("gamma").client, backReceipt)) as OftSentEvent[];
    await relayer.poll();
    const unlocked = (await eventsOn("alpha")).find((e) => e.guid === backSent?.guid);
    assert.equal(unlocked?.type, "delivered");
    assert.equal(unlocked?.oft, adapter.oft);
    assert.equal(
      (await balance("alpha", adapter.token, back.address)) - daiOfBack,
      backQuote.amountReceivedLD,
    );
    assert.equal(
      await balance("alpha", adapter.token, adapter.oft),
      lockedBefore + quote.amountSentLD - backQuote.amountReceivedLD,
    );
  });

  it("behavior: a delivery that reverts in lzReceive raises LzReceiveAlert, stays retryable and succeeds after a retry", async () => {
    const omniGamma = deployment("OMNI", "gamma");
    const gamma = chain("gamma");
    const pause = (paused: boolean) =>
      setReceivePaused(devnet.manifest, gamma, omniGamma.oft, paused);
    await pause(true);
    const recipient = user(4).address;
    const before = await balance("gamma", omniGamma.token, recipient);
    const { receipt } = await sendOft("OMNI", "beta", "gamma", user(5), recipient, 5n * 10n ** 18n);
    const [sent] = (await normalised(chain("beta").client, receipt)) as OftSentEvent[];
    assert.ok(sent !== undefined, "sent !== undefined");

    await relayer.poll();
    const afterAlert = (await eventsOn("gamma")).filter((e) => e.guid === sent.guid);
    assert.deepEqual(
      afterAlert.map((e) => e.type),
      ["retryable"],
    );
    const alert = afterAlert[0] as OftRetryableEvent;
    assert.equal(alert.oft, omniGamma.oft);
    assert.equal(alert.srcEid, lzChain("beta").eid);
    assert.equal(alert.sourceOft, deployment("OMNI", "beta").oft);
    assert.equal(alert.nonce, sent.nonce);
    assert.equal(alert.executor, lz.executor.address);
    assert.equal(alert.reason, toFunctionSelector("ReceivePaused()"), "the receiver's revert data");
    assert.equal(await balance("gamma", omniGamma.token, recipient), before);
    // The payload stays stored on the endpoint for the retry.
    const stored = await gamma.client.readContract({
      address: lzChain("gamma").endpoint,
      abi: endpointAbi,
      functionName: "inboundPayloadHash",
      args: [
        omniGamma.oft,
        lzChain("beta").eid,
        pad(deployment("OMNI", "beta").oft, { size: 32 }),
        sent.nonce ?? 0n,
      ],
    });
    assert.notEqual(BigInt(stored), 0n);
    assert.equal(relayer.stats().alerted, 1);

    // Still paused: another pass neither delivers nor alerts again.
    await relayer.poll();
    assert.equal((await eventsOn("gamma")).filter((e) => e.guid === sent.guid).length, 1);

    await pause(false);
    await relayer.poll();
    const afterRetry = (await eventsOn("gamma")).filter((e) => e.guid === sent.guid);
    assert.deepEqual(
      afterRetry.map((e) => e.type),
      ["retryable", "delivered"],
    );
    assert.equal(
      (await balance("gamma", omniGamma.token, recipient)) - before,
      sent.amountReceivedLD,
    );
  });

  it("behavior: the traffic generator's OFT transfers (both meshes, dust included) are delivered exactly", async () => {
    const account = user(6);
    const random = createRandom(7);
    const sent = [];
    for (let i = 0; i < 6; i++) {
      const transfer = await sendRandomOftTransfer({
        layerzero: lz,
        account: account.address,
        clientsFor: (chainId) => {
          const found = devnet.manifest.chains.find((c) => c.chainId === chainId);
          assert.ok(found !== undefined, `chain ${chainId}`);
          const clients = createDevnetClients(found, account.privateKey, 20);
          return { publicClient: clients.publicClient, walletClient: clients.walletClient };
        },
        random,
        recipients: [user(7).address],
      });
      if (transfer !== null) sent.push(transfer);
    }
    assert.ok(sent.length >= 4, `sent ${sent.length} of 6`);
    assert.ok(new Set(sent.map((t) => t.symbol)).size === 2, "both meshes");
    await relayer.poll();
    for (const transfer of sent) {
      const dest = devnet.manifest.chains.find((c) => c.chainId === transfer.destChainId);
      assert.ok(dest !== undefined, "destination chain");
      const got = (await eventsOn(dest.name)).find((e) => e.guid === transfer.guid);
      assert.equal(got?.type, "delivered", transfer.guid);
      assert.equal(
        got?.type === "delivered" && got.amountReceivedLD,
        removeDust(transfer.amountLD, 10n ** 12n),
      );
    }
  });
});
