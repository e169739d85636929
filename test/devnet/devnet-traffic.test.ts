/**
 * The traffic generator inside a running devnet (relayer on, 1 s blocks): within a short run it
 * sends transfers of all three kinds, with source and destination swaps, and some fail on their
 * destination and get refunded.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { erc20Abi, zeroAddress } from "viem";
import { createDevnetClients } from "../../src/devnet/chain-clients.js";
import { createMemoryLogger } from "../../src/devnet/logger.js";
import { createTrafficGenerator } from "../../src/devnet/protocols/reference/traffic.js";
import { type RunningDevnet, runDevnet } from "../../src/devnet/run-devnet.js";
import { demoAddress } from "../../src/start/banner.js";
import { type FoundEvent, transferEvents, waitFor } from "./devnet-helpers.js";

describe("devnet: traffic generator", () => {
  let dir: string;
  let devnet: RunningDevnet;
  // The generator's warnings (a transfer that failed at the source says why) for the assertions.
  const logger = createMemoryLogger();
  const warnings = () => logger.lines.filter((line) => !line.startsWith("info")).join("\n");

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-traffic-"));
    devnet = await runDevnet({
      logger,
      dir,
      blockTime: 1,
      relayDelayMs: 0,
      confirmations: 1,
      traffic: 240,
      failureRate: 0.3,
      seed: 7,
    });
  });
  after(async () => {
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("default: a short run produces every kind, swaps, deliveries, failures and refunds", async () => {
    const has = (events: FoundEvent[], name: FoundEvent["eventName"], kind?: number) =>
      events.some((e) => e.eventName === name && (kind === undefined || e.kind === kind));
    const events = await waitFor(
      "traffic of every kind with a refund",
      async () => {
        const all = await transferEvents(devnet.manifest);
        const complete =
          [0, 1, 2].every(
            (kind) => has(all, "TransferSent", kind) && has(all, "TransferDelivered", kind),
          ) &&
          has(all, "TransferFailed") &&
          has(all, "TransferRefunded");
        return complete && all;
      },
      45_000,
      500,
    );
    const sent = events.filter((e) => e.eventName === "TransferSent");
    const lower = (value: unknown) => String(value).toLowerCase();
    assert.ok(
      sent.some((e) => lower(e.args.sourceToken) !== lower(e.args.sourceBridgeToken)),
      "a source swap",
    );
    assert.ok(
      sent.some((e) => lower(e.args.destToken) !== lower(e.args.destBridgeToken)),
      "a destination swap",
    );

    const transfers = devnet.traffic?.transfers() ?? [];
    const stats = devnet.traffic?.stats();
    assert.ok(stats !== undefined, "stats !== undefined");
    assert.equal(stats.errors, 0, `no transfer reverted at the source:\n${warnings()}`);
    assert.ok(
      stats.sent["0"] > 0 && stats.sent["1"] > 0 && stats.sent["2"] > 0,
      'stats.sent["0"] > 0 && stats.sent["1"] > 0 && stats.sent["2"] > 0',
    );
    // Every refund is for a transfer the generator built to fail.
    const builtToFail = new Set(transfers.filter((t) => t.expectFailure).map((t) => t.messageId));
    for (const refund of events.filter((e) => e.eventName === "TransferRefunded")) {
      assert.ok(builtToFail.has(refund.messageId), `unexpected refund of ${refund.messageId}`);
    }
    // And no transfer that should succeed failed.
    for (const failure of events.filter((e) => e.eventName === "TransferFailed")) {
      assert.ok(
        builtToFail.has(failure.messageId),
        `unexpected failure: ${String(failure.args.reason)}`,
      );
    }
  });
});

describe("devnet: traffic generator's first sender", () => {
  let dir: string;
  let devnet: RunningDevnet;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-traffic-first-"));
    devnet = await runDevnet({ dir, chains: 2, blockTime: 0, relay: false });
  });
  after(async () => {
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("behavior: a run's first transfer comes from the address start's banner lists, later ones from any user", async () => {
    const senders = new Set<string>();
    for (const seed of [1, 2, 3]) {
      const traffic = createTrafficGenerator({ manifest: devnet.manifest, perMinute: 1, seed });
      const first = await traffic.sendOne();
      assert.equal(first?.from, demoAddress(devnet.manifest), `seed ${seed}`);
      for (let i = 0; i < 3; i++) {
        const next = await traffic.sendOne();
        assert.ok(next !== null, `seed ${seed}: transfer ${i + 2} was not sent`);
        senders.add(next.from);
      }
      await traffic.stop();
    }
    assert.ok(senders.size > 1, `later transfers all came from ${[...senders].join(", ")}`);
  });

  it("error: a user who spends the generator's allowance from the same account (approve(bridge, amount), then bridge(p), as docs/devnet-contracts.md says) does not break its later transfers", async () => {
    const user = devnet.manifest.accounts[0];
    assert.ok(user !== undefined, "user !== undefined");
    // Only this account, so every transfer is the user's and meets what the user left behind.
    const traffic = createTrafficGenerator({
      manifest: { ...devnet.manifest, accounts: [user] },
      perMinute: 1,
      seed: 11,
      failureRate: 0,
    });
    // What a wallet executing quotes from that account leaves: allowance = what bridge() spent,
    // i.e. 0, for every token and bridge it used (here: all of them).
    const spendAllowances = async () => {
      for (const chain of devnet.manifest.chains) {
        const { publicClient, walletClient } = createDevnetClients(chain, user.privateKey);
        for (const token of chain.tokens) {
          if (token.address === zeroAddress) continue;
          for (const bridge of Object.values(chain.bridges)) {
            const hash = await walletClient.writeContract({
              address: token.address,
              abi: erc20Abi,
              functionName: "approve",
              args: [bridge, 0n],
            });
            await publicClient.waitForTransactionReceipt({ hash });
          }
        }
      }
    };
    try {
      for (let i = 0; i < 20; i++) {
        const sent = await traffic.sendOne();
        assert.ok(sent !== null, `transfer ${i + 1}: ${JSON.stringify(traffic.stats())}`);
        await spendAllowances();
      }
      assert.equal(traffic.stats().errors, 0);
    } finally {
      await traffic.stop();
    }
  });
});
