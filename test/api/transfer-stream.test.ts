/**
 * `GET /api/oracle/bridge-transactions/stream` over real stores (docs/push.md): live changes,
 * resuming with Last-Event-ID or `since`, reset when the changes are no longer retained, the
 * list endpoint's 400s, the concurrency limit, heartbeats and shutdown.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { TRANSFER_STREAM_PATH } from "../../src/api/routes/transfer-stream.js";
import { loadConfig } from "../../src/config/env.js";
import { createStore } from "../../src/store/index.js";
import type { BridgeTransaction, Store } from "../../src/store/types.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { eventually, within } from "../setup/eventually.js";
import { openSse, type SseConnection } from "../setup/sse-client.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

const delivered = (sent: BridgeTransaction): BridgeTransaction => ({
  ...makeTransfer({ message_id: sent.message_id }),
  from_address: sent.from_address,
  to_address: sent.to_address,
  source_tx_hash: sent.source_tx_hash,
  created_at: sent.created_at,
});

async function startApp(store: Store, env: Record<string, string> = {}) {
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: "silent", ...env }),
    store,
    stream: { heartbeatMs: 50 },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === "object");
  return { app, base: `http://127.0.0.1:${address.port}` };
}

const streamUrl = (base: string, addressOrTxHash: string, extra = "") =>
  `${base}${TRANSFER_STREAM_PATH}?addressOrTxHash=${encodeURIComponent(addressOrTxHash)}${extra}`;

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`transfer stream (${backend})`, () => {
    let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
    let store: Store;
    let app: FastifyInstance;
    let base: string;
    const open: SseConnection[] = [];
    const connect = async (url: string, headers?: Record<string, string>) => {
      const connection = await openSse(url, headers);
      open.push(connection);
      return connection;
    };

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      ({ app, base } = await startApp(store, { STREAM_MAX_PER_CLIENT: "50" }));
    });
    after(async () => {
      for (const connection of open) connection.close();
      await app?.close();
      await store?.close();
      await db?.cleanup();
    });

    it("default: a wallet follows its transfer from send to Success", async () => {
      const sent = makeProcessingTransfer();
      const stream = await connect(streamUrl(base, sent.from_address));
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers["content-type"]), /^text\/event-stream/);
      assert.ok(stream.headers["x-request-id"]);
      const ready = await stream.waitFor((e) => e.event === "ready");
      await store.transfers.upsertTransfers([makeTransfer(), sent]);
      await store.transfers.upsertTransfers([delivered(sent)]);
      await stream.waitFor(
        (e) => e.event === "transfer" && JSON.parse(e.data).status === "Success",
      );
      const events = stream.events.filter((e) => e.event === "transfer");
      assert.deepEqual(
        events.map((e) => JSON.parse(e.data).status),
        ["Processing", "Success"],
      );
      assert.ok(Number(events[0]?.id) > Number(ready.id));
      assert.ok(Number(events[1]?.id) > Number(events[0]?.id));
      // The data is the list endpoint's record, text for text.
      const listed = await app.inject({
        url: `/api/oracle/bridge-transactions?addressOrTxHash=${sent.message_id}&pageNo=1&pageSize=1`,
      });
      assert.equal(events[1]?.data, JSON.stringify(listed.json().data.data[0]));
    });

    it("behavior: Last-Event-ID and since resume with exactly the missed changes, in order", async () => {
      const sent = makeProcessingTransfer();
      const first = await connect(streamUrl(base, sent.to_address));
      await first.waitFor((e) => e.event === "ready");
      await store.transfers.upsertTransfers([sent]);
      const created = await first.waitFor((e) => e.event === "transfer");
      first.close();
      const other = makeTransfer({ to_address: sent.to_address });
      await store.transfers.upsertTransfers([delivered(sent)]);
      await store.transfers.upsertTransfers([makeTransfer(), other]);
      const resumes: { headers: Record<string, string>; extra: string }[] = [
        { headers: { "last-event-id": String(created.id) }, extra: "" },
        // The header wins over `since` (EventSource resends the URL it was opened with).
        { headers: { "last-event-id": String(created.id) }, extra: "&since=0" },
        { headers: {}, extra: `&since=${created.id}` },
      ];
      for (const resume of resumes) {
        const again = await connect(streamUrl(base, sent.to_address, resume.extra), resume.headers);
        const ready = await again.waitFor((e) => e.event === "ready");
        const missed = again.events.filter((e) => e.event === "transfer");
        assert.deepEqual(
          missed.map((e) => [JSON.parse(e.data).message_id, JSON.parse(e.data).status]),
          [
            [sent.message_id, "Success"],
            [other.message_id, "Success"],
          ],
        );
        assert.ok(Number(missed[1]?.id) <= Number(ready.id));
        again.close();
      }
    });

    it("behavior: a resume from changes no longer retained gets reset, then live changes", async () => {
      const sent = makeProcessingTransfer();
      await store.transfers.upsertTransfers([sent]);
      const before = await store.transferChanges.latestSeq();
      await store.transfers.upsertTransfers([makeTransfer()]);
      await store.transferChanges.prune(new Date(Date.now() + 60_000));
      const stream = await connect(streamUrl(base, sent.from_address), {
        "last-event-id": String(before - 1),
      });
      const reset = await stream.waitFor((e) => e.event === "reset");
      assert.deepEqual(JSON.parse(reset.data), {
        reason: "not retained",
        lastEventId: before - 1,
        seq: Number(reset.id),
      });
      await stream.waitFor((e) => e.event === "ready");
      await store.transfers.upsertTransfers([delivered(sent)]);
      await stream.waitFor((e) => e.event === "transfer");
      // An id this log never reached is not taken for a position either.
      const ahead = await connect(streamUrl(base, sent.from_address), {
        "last-event-id": String(before + 1_000_000),
      });
      const unknown = await ahead.waitFor((e) => e.event === "reset");
      assert.equal(JSON.parse(unknown.data).reason, "unknown position");
    });

    it("error: the list endpoint's 400s, and a bad Last-Event-ID", async () => {
      for (const query of [
        "",
        "?addressOrTxHash=",
        "?addressOrTxHash=not%20valid!",
        "?addressOrTxHash=a&addressOrTxHash=b",
      ]) {
        const stream = await connect(`${base}${TRANSFER_STREAM_PATH}${query}`);
        const list = await app.inject({
          url: `/api/oracle/bridge-transactions${query}${query === "" ? "?" : "&"}pageNo=1&pageSize=1`,
        });
        assert.equal(stream.status, 400, query);
        assert.deepEqual(JSON.parse(stream.body), list.json(), query);
      }
      const bad = await connect(streamUrl(base, makeTransfer().from_address), {
        "last-event-id": "abc",
      });
      assert.equal(bad.status, 400);
      assert.match(JSON.parse(bad.body).msg, /^Last-Event-ID must be an event id/);
    });

    it("behavior: heartbeats are comments; they carry the position past changes that did not match", async () => {
      const mine = makeTransfer();
      const stream = await connect(streamUrl(base, mine.from_address));
      await stream.waitFor((e) => e.event === "ready");
      await eventually(10_000, () => assert.ok(stream.comments.includes("heartbeat")));
      await store.transfers.upsertTransfers([makeTransfer()]);
      const latest = await store.transferChanges.latestSeq();
      await eventually(10_000, () => assert.equal(stream.lastEventId(), String(latest)));
      assert.equal(stream.events.filter((e) => e.event === "transfer").length, 0);
    });
  });
}

describe("transfer stream: limits and shutdown", () => {
  let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
  let store: Store;
  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    store = await createStore({ databaseUrl: db.databaseUrl });
  });
  after(async () => {
    await store?.close();
    await db?.cleanup();
  });

  it("error: past STREAM_MAX_PER_CLIENT concurrent streams, 429 42901 before the stream starts", async () => {
    const { app, base } = await startApp(store, { STREAM_MAX_PER_CLIENT: "2" });
    const address = makeTransfer().from_address;
    try {
      const a = await openSse(streamUrl(base, address));
      const b = await openSse(streamUrl(base, makeTransfer().to_address));
      const refused = await openSse(streamUrl(base, address));
      assert.equal(refused.status, 429);
      assert.equal(refused.headers["retry-after"], "5");
      const body = JSON.parse(refused.body);
      assert.equal(body.code, 42901);
      assert.equal(body.data, null);
      assert.match(body.msg, /at most 2 concurrent streams/);
      a.close();
      // The slot is free once the server sees the connection gone.
      await eventually(10_000, async () => {
        const c = await openSse(streamUrl(base, address));
        c.close();
        assert.equal(c.status, 200);
      });
      b.close();
    } finally {
      await app.close();
    }
  });

  it("behavior: closing the server ends open streams at once", async () => {
    const { app, base } = await startApp(store);
    const streams = await Promise.all(
      [1, 2, 3].map(() => openSse(streamUrl(base, makeTransfer().from_address))),
    );
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === "ready")));
    await within(3000, "app.close() with open streams", app.close());
    await within(1000, "the streams ending", Promise.all(streams.map((s) => s.ended)));
  });
});
