/**
 * The relayer against real anvil (1 s blocks): it delivers a transfer of each kind, refunds a
 * transfer that failed on its destination, and a restarted relayer never delivers twice.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, type Hex, http } from "viem";
import { createMemoryLogger } from "../../src/devnet/logger.js";
import { createRelayer, type Relayer } from "../../src/devnet/protocols/reference/relayer.js";
import {
  createTrafficGenerator,
  type TrafficGenerator,
  type TrafficTransfer,
} from "../../src/devnet/protocols/reference/traffic.js";
import { type RunningDevnet, runDevnet } from "../../src/devnet/run-devnet.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";
import { eventsOf, transferEvents, waitFor } from "./devnet-helpers.js";

describe("devnet: relayer", () => {
  let dir: string;
  let devnet: RunningDevnet;
  let succeeding: TrafficGenerator;
  let failing: TrafficGenerator;
  let relayer: Relayer | undefined;

  const newRelayer = (delayMs = 0, confirmations = 1) =>
    createRelayer({ manifest: devnet.manifest, delayMs, confirmations, pollIntervalMs: 200 });
  const chainName = (chainId: number) =>
    devnet.manifest.chains.find((c) => c.chainId === chainId)?.name;

  /** Every transfer the tests sent (the generators cycle kinds, so some are extra). */
  const allSent: TrafficTransfer[] = [];

  /** Sends transfers until one of `kind` goes out (the generator cycles kinds 0, 1, 2). */
  async function sendKind(generator: TrafficGenerator, kind: BridgeKind): Promise<TrafficTransfer> {
    for (let attempt = 0; attempt < 9; attempt++) {
      const transfer = await generator.sendOne();
      if (transfer !== null) allSent.push(transfer);
      if (transfer?.kind === kind) return transfer;
    }
    throw new Error(`no transfer of kind ${kind} went out`);
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-relayer-"));
    devnet = await runDevnet({ dir, blockTime: 1, relay: false });
    succeeding = createTrafficGenerator({
      manifest: devnet.manifest,
      perMinute: 1,
      seed: 3,
      failureRate: 0,
    });
    failing = createTrafficGenerator({
      manifest: devnet.manifest,
      perMinute: 1,
      seed: 5,
      failureRate: 1,
    });
  });
  after(async () => {
    await relayer?.stop();
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("default: delivers a transfer of each kind on its destination chain", async () => {
    const sent: TrafficTransfer[] = [];
    for (const kind of [0, 1, 2] as const) sent.push(await sendKind(succeeding, kind));
    relayer = newRelayer();
    await relayer.start();
    const events = await waitFor("three deliveries", async () => {
      const all = await transferEvents(devnet.manifest);
      return sent.every((t) => eventsOf(all, "TransferDelivered", t.messageId).length === 1) && all;
    });
    for (const transfer of sent) {
      const [delivery] = eventsOf(events, "TransferDelivered", transfer.messageId);
      assert.equal(delivery?.chain, chainName(transfer.destChainId));
      assert.equal(delivery?.kind, transfer.kind);
      assert.equal(eventsOf(events, "TransferFailed", transfer.messageId).length, 0);
    }
  });

  it("behavior: a transfer that fails on the destination is refunded on the source", async () => {
    const transfer = await sendKind(failing, 1);
    assert.equal(transfer.expectFailure, true);
    const events = await waitFor("failure and refund", async () => {
      const all = await transferEvents(devnet.manifest);
      return eventsOf(all, "TransferRefunded", transfer.messageId).length > 0 && all;
    });
    const [failure] = eventsOf(events, "TransferFailed", transfer.messageId);
    const [refund] = eventsOf(events, "TransferRefunded", transfer.messageId);
    const [sentEvent] = eventsOf(events, "TransferSent", transfer.messageId);
    assert.equal(failure?.chain, chainName(transfer.destChainId));
    assert.equal(refund?.chain, chainName(transfer.sourceChainId));
    assert.equal(eventsOf(events, "TransferDelivered", transfer.messageId).length, 0);
    assert.equal(refund?.args.sender, sentEvent?.args.sender);
    assert.equal(refund?.args.token, sentEvent?.args.sourceBridgeToken);
    assert.ok((refund?.args.amount as bigint) > 0n, "(refund?.args.amount as bigint) > 0n");
  });

  it("behavior: a restarted relayer delivers what is new and nothing twice", async () => {
    await relayer?.stop();
    await waitFor("earlier transfers settled", async () => {
      const all = await transferEvents(devnet.manifest);
      return allSent.every(
        (t) =>
          eventsOf(all, t.expectFailure ? "TransferRefunded" : "TransferDelivered", t.messageId)
            .length > 0,
      );
    });
    // Sent while no relayer runs: only the restarted one can deliver them.
    const before = allSent.length;
    const pendingWhileDown = await sendKind(succeeding, 2);
    const sentWhileDown = allSent.length - before;
    const clock = createPublicClient({ transport: http(devnet.manifest.chains[0]?.rpcUrl) });
    const restartedAt = (await clock.getBlock()).timestamp;
    relayer = newRelayer(2000, 2);
    await relayer.start();
    await relayer.caughtUp();
    await waitFor("the new deliveries", async () => {
      const all = await transferEvents(devnet.manifest);
      return allSent.every(
        (t) =>
          eventsOf(all, "TransferDelivered", t.messageId).length +
            eventsOf(all, "TransferFailed", t.messageId).length >
          0,
      );
    });
    // A few more polls to (wrongly) act on the old messages, until nothing is left to do: an
    // action queued wrongly stays pending until done (its 2 s delay included).
    const pollsThen = relayer.stats().polls;
    const stats = await waitFor("a few more polls, nothing pending", async () => {
      const now = relayer?.stats();
      return now !== undefined && now.polls >= pollsThen + 10 && now.pending === 0 && now;
    });
    assert.equal(
      stats.delivered,
      sentWhileDown,
      "only the messages sent while the relayer was down",
    );
    assert.ok(allSent.includes(pendingWhileDown), "allSent.includes(pendingWhileDown)");
    assert.equal(stats.refunded, 0);
    assert.equal(stats.pending, 0);
    const events = await transferEvents(devnet.manifest);
    // The restarted relayer waited its confirmations and its delay.
    for (const transfer of allSent.slice(before)) {
      const [sentEvent] = eventsOf(events, "TransferSent", transfer.messageId);
      const [delivery] = eventsOf(events, "TransferDelivered", transfer.messageId);
      assert.ok(
        sentEvent !== undefined && delivery !== undefined,
        "sentEvent !== undefined && delivery !== undefined",
      );
      const destRpc = devnet.manifest.chains.find(
        (c) => c.chainId === transfer.destChainId,
      )?.rpcUrl;
      const dest = createPublicClient({ transport: http(destRpc) });
      const deliveredAt = (await dest.getBlock({ blockNumber: delivery.blockNumber })).timestamp;
      assert.ok(
        deliveredAt >= restartedAt + 2n,
        `delivered ${deliveredAt - restartedAt} s after restart`,
      );
    }
    const ids: Hex[] = allSent.map((t) => t.messageId);
    for (const id of ids) {
      const outcomes =
        eventsOf(events, "TransferDelivered", id).length +
        eventsOf(events, "TransferFailed", id).length;
      assert.equal(outcomes, 1, `message ${id} has ${outcomes} outcomes`);
      assert.ok(
        eventsOf(events, "TransferRefunded", id).length <= 1,
        'eventsOf(events, "TransferRefunded", id).length <= 1',
      );
    }
  });

  it("behavior: an unreachable chain is retried quietly while the others keep relaying", async () => {
    await relayer?.stop();
    const { manifest } = devnet;
    const [alpha, beta, gamma] = manifest.chains;
    assert.ok(
      alpha !== undefined && beta !== undefined && gamma !== undefined,
      "alpha !== undefined && beta !== undefined && gamma !== undefined",
    );
    // beta's node "goes away": the relayer sees a closed port instead.
    const withDeadBeta = {
      ...manifest,
      chains: [alpha, { ...beta, rpcUrl: "http://127.0.0.1:9" }, gamma],
    };
    const logger = createMemoryLogger();
    relayer = createRelayer({
      manifest: withDeadBeta,
      delayMs: 0,
      confirmations: 1,
      pollIntervalMs: 200,
      logger,
    });
    await relayer.start();
    // Only alpha -> gamma traffic, so every transfer can still be delivered.
    const alphaToGamma = createTrafficGenerator({
      manifest: {
        ...manifest,
        links: manifest.links.filter(
          (l) => l.sourceChainId === alpha.chainId && l.destChainId === gamma.chainId,
        ),
      },
      perMinute: 1,
      seed: 9,
      failureRate: 0,
    });
    const transfer = await alphaToGamma.sendOne();
    assert.ok(transfer !== null, "transfer !== null");
    await waitFor("delivery on gamma", async () => {
      const all = await transferEvents(manifest);
      return eventsOf(all, "TransferDelivered", transfer.messageId).length === 1;
    });
    const betaWarnings = logger.lines.filter((line) => line.startsWith("warn beta: scan failed"));
    assert.ok(betaWarnings.length >= 1, logger.lines.join("\n"));
    assert.ok(betaWarnings.length <= 2, `one warning per streak, got ${betaWarnings.length}`);
  });
});
