/**
 * `GET /api/oracle/bridge-transactions/stream` over real stores (docs/push.md): live changes,
 * resuming with Last-Event-ID or `since`, reset when the changes are no longer retained, the
 * list endpoint's 400s, the concurrency limit, heartbeats and shutdown.
 *
 * Every wait is bounded and says what it waited for. Every assert.ok has a message: without one,
 * a failing assert.ok makes node:assert re-read this file at the position of the compiled code
 * (all on one line), which can take minutes of CPU, so a failure looked like a hang.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { LATEST_STREAM_PATH, TRANSFER_STREAM_PATH } from "../../src/api/routes/transfer-stream.js";
import { loadConfig } from "../../src/config/env.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { eventually, within } from "../setup/eventually.js";
import { listenOnLoopback } from "../setup/listen.js";
import { openSse, SSE_WAIT_MS, type SseConnection, type SseEvent } from "../setup/sse-client.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

const delivered = (sent: BridgeTransaction): BridgeTransaction => ({
  ...makeTransfer({ message_id: sent.message_id }),
  from_address: sent.from_address,
  to_address: sent.to_address,
  source_tx_hash: sent.source_tx_hash,
  created_at: sent.created_at,
});

const isReady = (e: SseEvent) => e.event === "ready";
const statuses = (stream: SseConnection) =>
  stream.events.filter((e) => e.event === "transfer").map((e) => JSON.parse(e.data).status);

/** Writes `records`, failing (instead of hanging) when the store does not answer in time. */
const write = (store: Store, records: BridgeTransaction[]) =>
  within(
    SSE_WAIT_MS,
    `upsertTransfers of ${records.length} record(s)`,
    store.transfers.upsertTransfers(records),
  );

/**
 * `store` with its change notifications (Store.subscribeChanges) held back on demand: an app on
 * it has a change feed that lags behind the log, as a busy machine's can by chance.
 */
function withHeldNotifications(store: Store) {
  const subscribe = store.subscribeChanges;
  assert.ok(subscribe !== undefined, "the store tells of changes");
  let held = false;
  const missed = new Set<() => void>();
  return {
    store: {
      ...store,
      subscribeChanges: (listener: () => void) =>
        subscribe(() => (held ? missed.add(listener) : listener())),
    } satisfies Store,
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const listener of missed) listener();
      missed.clear();
    },
  };
}

async function startApp(store: Store, env: Record<string, string> = {}) {
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: "silent", ...env }),
    store,
    stream: { heartbeatMs: 50 },
  });
  return { app, base: (await listenOnLoopback(app)).baseUrl };
}

const latestSeq = (store: Store) =>
  within(SSE_WAIT_MS, "the change log's latest seq", store.transferChanges.latestSeq());

const closeApp = (app: FastifyInstance | undefined) =>
  app === undefined ? undefined : within(SSE_WAIT_MS, "app.close()", app.close());

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
      await closeApp(app);
      if (store !== undefined) await within(SSE_WAIT_MS, "store.close()", store.close());
      if (db !== undefined) await within(SSE_WAIT_MS, "dropping the schema", db.cleanup());
    });

    it("behavior: the latest stream carries every transfer's changes, uncompressed", async () => {
      const stream = await connect(`${base}${LATEST_STREAM_PATH}`, {
        "accept-encoding": "br, gzip",
      });
      assert.equal(stream.status, 200);
      assert.equal(stream.headers["content-encoding"], undefined, "events are never held back");
      await stream.waitFor((e) => e.event === "ready");
      const [one, two] = [makeTransfer(), makeProcessingTransfer()];
      await write(store, [one, two]);
      await stream.waitFor(
        (e) => e.event === "transfer" && JSON.parse(e.data).message_id === two.message_id,
      );
      assert.deepEqual(
        stream.events
          .filter((e) => e.event === "transfer")
          .map((e) => JSON.parse(e.data).message_id),
        [one.message_id, two.message_id],
      );
    });

    it("default: a wallet follows its transfer from send to Success", async () => {
      const sent = makeProcessingTransfer();
      const stream = await connect(streamUrl(base, sent.from_address));
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers["content-type"]), /^text\/event-stream/);
      assert.ok(stream.headers["x-request-id"], "the stream's response has a request id");
      const ready = await stream.waitFor((e) => e.event === "ready");
      await write(store, [makeTransfer(), sent]);
      await write(store, [delivered(sent)]);
      await stream.waitFor(
        (e) => e.event === "transfer" && JSON.parse(e.data).status === "Success",
      );
      const events = stream.events.filter((e) => e.event === "transfer");
      assert.deepEqual(
        events.map((e) => JSON.parse(e.data).status),
        ["Processing", "Success"],
      );
      assert.ok(Number(events[0]?.id) > Number(ready.id), "the first change comes after ready");
      assert.ok(Number(events[1]?.id) > Number(events[0]?.id), "the changes come in seq order");
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
      await write(store, [sent]);
      const created = await first.waitFor((e) => e.event === "transfer");
      first.close();
      const other = makeTransfer({ to_address: sent.to_address });
      await write(store, [delivered(sent)]);
      await write(store, [makeTransfer(), other]);
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
        assert.ok(
          Number(missed[1]?.id) <= Number(ready.id),
          `the missed changes come before ready; got ${JSON.stringify(again.events)}`,
        );
        again.close();
      }
    });

    it("behavior: ready follows every change committed before the stream opened, though the change feed has not read it", async () => {
      // The feed reads when a notification wakes it. Holding them back makes it lag the log
      // for certain, as it does by chance on a busy machine (the read after a commit is late).
      const notifications = withHeldNotifications(store);
      const lagging = await startApp(notifications.store);
      try {
        const sent = makeProcessingTransfer();
        const url = streamUrl(lagging.base, sent.to_address);
        const watcher = await connect(url); // starts the lagging app's feed
        await watcher.waitFor(isReady);
        const before = await latestSeq(store);
        notifications.hold();
        await write(store, [sent]);
        const head = String(await latestSeq(store));
        const resumed = await connect(url, { "last-event-id": String(before) });
        await resumed.waitFor(isReady);
        assert.deepEqual(
          resumed.events.map((e) => [e.event, e.id]),
          [
            ["transfer", head],
            ["ready", head],
          ],
        );
        const fresh = await connect(url);
        // It starts at the log's head, not where the feed has got to.
        assert.equal((await fresh.waitFor(isReady)).id, head);
        // The feed reads `sent`'s change now: the streams that have it do not get it again.
        notifications.release();
        await write(store, [delivered(sent)]);
        const success = (e: SseEvent) =>
          e.event === "transfer" && JSON.parse(e.data).status === "Success";
        for (const stream of [watcher, resumed, fresh]) await stream.waitFor(success);
        assert.deepEqual(statuses(watcher), ["Processing", "Success"]);
        assert.deepEqual(statuses(resumed), ["Processing", "Success"]);
        assert.deepEqual(statuses(fresh), ["Success"]);
      } finally {
        await closeApp(lagging.app);
      }
    });

    it("behavior: a resume from changes no longer retained gets reset, then live changes", async () => {
      const sent = makeProcessingTransfer();
      await write(store, [sent]);
      const before = await latestSeq(store);
      await write(store, [makeTransfer()]);
      await within(
        SSE_WAIT_MS,
        "pruning the change log",
        store.transferChanges.prune(new Date(Date.now() + 60_000)),
      );
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
      await write(store, [delivered(sent)]);
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
      await eventually(10_000, () =>
        assert.ok(stream.comments.includes("heartbeat"), "a heartbeat comment arrives"),
      );
      await write(store, [makeTransfer()]);
      const latest = await latestSeq(store);
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
    if (store !== undefined) await within(SSE_WAIT_MS, "store.close()", store.close());
    if (db !== undefined) await within(SSE_WAIT_MS, "removing the database", db.cleanup());
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
      await closeApp(app);
    }
  });

  it("behavior: HEAD answers a GET's status and headers at once and holds no stream", async () => {
    const { app, base } = await startApp(store, { STREAM_MAX_PER_CLIENT: "1" });
    const address = makeTransfer().from_address;
    try {
      for (let i = 0; i < 3; i++) {
        const head = await fetch(streamUrl(base, address), {
          method: "HEAD",
          signal: AbortSignal.timeout(SSE_WAIT_MS),
        });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get("content-type"), "text/event-stream; charset=utf-8");
        assert.equal(await head.text(), "");
      }
      const bad = await fetch(streamUrl(base, "not an id!"), { method: "HEAD" });
      assert.equal(bad.status, 400);
      // The HEADs took no slot: the one stream allowed still opens, and a HEAD beside it
      // answers as a GET would, 429.
      const stream = await openSse(streamUrl(base, address));
      assert.equal(stream.status, 200);
      const over = await fetch(streamUrl(base, address), { method: "HEAD" });
      assert.equal(over.status, 429);
      stream.close();
    } finally {
      await closeApp(app);
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
