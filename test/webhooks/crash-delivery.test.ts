/**
 * At least once, across kill -9 (docs/webhooks.md, "Design"): `bridge-oracle deliver` runs as a child
 * process and is killed with SIGKILL at seeded random moments, several times in a row, each time
 * restarted, while transfers are created and settled; the receiver on loopback answers 500 to a
 * share of requests and never answers some (the time limit ends those). At the end every change
 * of the change log was delivered (answered 2xx) at least once, every event id always came with
 * the same body, and the newest delivered state of each transfer is what the list endpoint
 * shows. On SQLite and PostgreSQL; on SQLite a second delivery process is refused meanwhile.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { createPrng } from "../../src/transfers/prng.js";
import { createSubscription } from "../../src/webhooks/subscriptions.js";
import { buildTestApp } from "../api/setup.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";
import { startWebhookReceiver, type WebhookReceiver } from "../setup/webhook-receiver.js";
import { openWebhookDatabase } from "./webhook-database.js";

const ENTRY = join(import.meta.dirname, "../start/cli-entry.ts");
const SEED = 2511;
const KILLS = 5;
/** At least this many transfers, however fast the kills go. */
const MIN_TRANSFERS = 20;
/** And at most this many: a slow machine makes the kills take longer, not the test bigger. */
const MAX_TRANSFERS = 60;

interface EventBody {
  id: string;
  seq: number;
  data: BridgeTransaction;
}

function startDeliver(databaseUrl: string): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, [...tsEntryArgs(ENTRY), "deliver"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      // Debug: every failed attempt is logged, so the secret-free logs are tested too.
      LOG_LEVEL: "debug",
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
      // Short enough for hung requests to cost little, long enough for a loaded CI machine.
      WEBHOOK_TIMEOUT_MS: "1000",
      WEBHOOK_RETRY_BASE_MS: "20",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook delivery across kill -9 (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Store;
    let app: FastifyInstance;
    let receiver: WebhookReceiver;
    let current: ChildProcess | undefined;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      ({ app } = await buildTestApp(store, { logLevel: "warn" }));
      const prng = createPrng(SEED);
      receiver = await startWebhookReceiver(() => {
        const roll = prng.float();
        return roll < 0.2 ? "fail" : roll < 0.25 ? "hang" : "ok";
      });
    });
    after(async () => {
      if (current !== undefined) await kill9(current);
      await app?.close();
      await receiver?.close();
      await store?.close();
      await db?.cleanup();
    });

    it("default: every change is delivered at least once, one body per event id, none missing", async () => {
      const webhooks = await openWebhookDatabase(db.databaseUrl);
      let secret: string;
      try {
        // Credentials in the URL: sent as Basic auth, never logged.
        ({ secret } = await createSubscription(
          webhooks,
          { ownerKeyId: 1, url: `${receiver.url.replace("//", "//hook:hunter2@")}/hook` },
          { allowPrivateAddresses: true, now: Date.now() },
        ));
      } finally {
        await webhooks.close();
      }
      const outputs: (() => string)[] = [];
      const prng = createPrng(SEED + 1);

      // Traffic for as long as the kills go on: a transfer created every 100-300 ms, each settled
      // three creations later; the last ones settled (Failed) once the kills are over.
      const transfers: BridgeTransaction[] = [];
      let killing = true;
      const traffic = (async () => {
        while ((killing || transfers.length < MIN_TRANSFERS) && transfers.length < MAX_TRANSFERS) {
          const created = makeProcessingTransfer();
          transfers.push(created);
          await store.transfers.upsertTransfers([created]);
          const settle = transfers[transfers.length - 4];
          if (settle !== undefined) {
            await store.transfers.upsertTransfers([
              { ...settle, status: "Success", end_time: "2026-02-01 00:00:00" },
            ]);
          }
          await sleep(100 + prng.int(200));
        }
        for (const settle of transfers.slice(-3)) {
          await store.transfers.upsertTransfers([
            { ...settle, status: "Failed", end_time: "2026-02-01 00:00:00" },
          ]);
        }
      })();

      let refusalChecked = backend !== "sqlite";
      for (let kill = 0; kill < KILLS; kill++) {
        const run = startDeliver(db.databaseUrl);
        outputs.push(run.output);
        current = run.child;
        if (!refusalChecked) {
          // While one runs (its lock taken: it logged nothing yet, so wait for a delivery).
          await eventually(15_000, () => assert.ok(receiver.requests.length > 0, "no delivery"));
          const second = startDeliver(db.databaseUrl);
          const [code] = (await once(second.child, "exit")) as [number];
          assert.equal(code, 1);
          assert.match(second.output(), /deliver refused: another delivery process .*SQLite/s);
          refusalChecked = true;
        }
        await sleep(300 + prng.int(1200));
        await kill9(run.child);
      }
      killing = false;
      await traffic;
      const last = startDeliver(db.databaseUrl);
      outputs.push(last.output);
      current = last.child;

      // Every change of the log, delivered (2xx) at least once.
      const changes = await changeLog(db.databaseUrl);
      assert.equal(changes.length, transfers.length * 2, "one creation and one settlement each");
      let missing: number[] = [];
      await eventually(45_000, () => {
        const delivered = new Set(
          receiver.delivered().map((r) => (JSON.parse(r.body) as EventBody).id),
        );
        missing = changes.filter((seq) => !delivered.has(`evt_${seq}`));
        assert.equal(missing.length, 0);
      }).catch(async () => {
        const rows = await deliveryRows(db.databaseUrl, missing);
        assert.fail(
          `${missing.length} of ${changes.length} not delivered: ${JSON.stringify(rows)}`,
        );
      });
      await kill9(last.child);

      // Logs: failed attempts are there; the secret and the URL's password never are.
      const logs = outputs.map((output) => output()).join("");
      assert.match(logs, /webhook attempt failed/);
      assert.equal(logs.includes(secret), false);
      assert.equal(logs.includes("hunter2"), false);
      assert.equal(
        receiver.requests[0]?.headers.authorization,
        `Basic ${Buffer.from("hook:hunter2").toString("base64")}`,
      );

      // Duplicates (retries, attempts cut off by kill -9) carry the same id and the same body.
      const byId = new Map<string, Set<string>>();
      for (const request of receiver.requests) {
        const id = String(request.headers["bridge-oracle-event-id"]);
        assert.equal((JSON.parse(request.body) as EventBody).id, id);
        byId.set(id, (byId.get(id) ?? new Set()).add(request.body));
      }
      for (const [id, bodies] of byId)
        assert.equal(bodies.size, 1, `${id} sent with different bodies`);
      assert.ok(receiver.requests.length > changes.length, "some attempts failed and were retried");
      assert.ok(
        receiver.requests.some((r) => r.answer === "hang"),
        'receiver.requests.some((r) => r.answer === "hang")',
      );

      // The newest delivered state of each transfer is the list endpoint's record.
      const newest = new Map<string, EventBody>();
      for (const request of receiver.delivered()) {
        const event = JSON.parse(request.body) as EventBody;
        const seen = newest.get(event.data.message_id);
        if (seen === undefined || seen.seq < event.seq) newest.set(event.data.message_id, event);
      }
      assert.equal(newest.size, transfers.length);
      for (const transfer of transfers) {
        const answer = await app.inject({
          url: `/api/oracle/bridge-transactions?addressOrTxHash=${transfer.message_id}&pageNo=1&pageSize=10`,
        });
        const [listed] = answer.json().data.data as BridgeTransaction[];
        assert.deepEqual(newest.get(transfer.message_id)?.data, listed);
      }
    });
  });
}

/** The delivery rows of some changes, to say why they were not delivered. */
async function deliveryRows(databaseUrl: string, seqs: readonly number[]): Promise<unknown[]> {
  const webhooks = await openWebhookDatabase(databaseUrl);
  try {
    const rows = await webhooks.sql.all(
      "SELECT change_seq, status, attempts, next_attempt_at, claimed_until, last_error FROM webhook_deliveries ORDER BY change_seq",
    );
    return [
      { now: Date.now() },
      ...rows.filter((row) => seqs.includes(Number(row.change_seq))),
      {
        withoutDelivery: seqs.filter((seq) => !rows.some((row) => Number(row.change_seq) === seq)),
      },
    ];
  } finally {
    await webhooks.close();
  }
}

/** The change log's sequence numbers (the test's own reading of transfer_changes). */
async function changeLog(databaseUrl: string): Promise<number[]> {
  const webhooks = await openWebhookDatabase(databaseUrl);
  try {
    const rows = await webhooks.sql.all<{ seq: unknown }>(
      "SELECT seq FROM transfer_changes ORDER BY seq",
    );
    return rows.map((row) => Number(row.seq));
  } finally {
    await webhooks.close();
  }
}
