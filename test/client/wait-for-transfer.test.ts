/**
 * waitForTransfer and the client's error handling against a scripted server (a fetch function):
 * the event stream with a list read when it opens, a dropped stream resumed with Last-Event-ID,
 * an event that is not a transfer making it read the list, polling where the server has no
 * stream, the timeout and the abort, and answers that are not our envelope. The devnet suites
 * (client-devnet.test.ts) run the same code against the real service.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRetryAfter } from "../../packages/client/src/errors.js";
import { BridgeOracleError, createClient } from "../../packages/client/src/index.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { eventually } from "../setup/eventually.js";
import { hexHash, makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

const HASH = hexHash("client-source");
const processing = makeProcessingTransfer({
  source_tx_hash: HASH,
  updated_at: "2026-01-01 00:00:01",
});
const success = makeTransfer({
  source_tx_hash: HASH,
  status: "Success",
  updated_at: "2026-01-01 00:00:09",
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
const list = (records: BridgeTransaction[]) =>
  json(200, {
    code: 0,
    msg: "success",
    data: { data: records, total: records.length, page: { page: 1, pageSize: 100 } },
  });
const notFound = () => json(404, { code: 40401, msg: "no such path", data: null });

/** An event stream sending `chunks`, then ending (or, with `hold`, staying open until aborted). */
function eventStream(chunks: string[], signal: AbortSignal | null | undefined, hold = false) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (!hold) controller.close();
      else signal?.addEventListener("abort", () => controller.error(signal.reason));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

const transferEvent = (id: number, record: BridgeTransaction) =>
  `id: ${id}\nevent: transfer\ndata: ${JSON.stringify(record)}\n\n`;

interface Seen {
  path: string;
  headers: Record<string, string>;
}

/** A client whose fetch is `serve`, recording each request's path and headers. */
function scripted(serve: (path: string, init: RequestInit, n: number) => Response) {
  const seen: Seen[] = [];
  const client = createClient({
    baseUrl: "http://oracle.test/",
    apiKey: "bo_key",
    fetch: async (input, init = {}) => {
      const path = new URL(input).pathname;
      seen.push({ path, headers: init.headers as Record<string, string> });
      return serve(path, init, seen.filter((s) => s.path === path).length);
    },
  });
  return { client, seen };
}

describe("client: waitForTransfer and errors", () => {
  it("default: the stream delivers the change to Success after the list showed Processing", async () => {
    const { client, seen } = scripted((path, init) =>
      path.endsWith("/stream")
        ? eventStream([": heartbeat\n\n", transferEvent(7, success)], init.signal, true)
        : list([processing]),
    );
    const updates: string[] = [];
    const result = await client.waitForTransfer(HASH, { onUpdate: (t) => updates.push(t.status) });
    assert.equal(result.status, "Success");
    assert.deepEqual(updates, ["Processing", "Success"]);
    assert.equal(seen[0]!.path, "/api/oracle/bridge-transactions/stream");
    assert.equal(seen[0]!.headers.authorization, "bo_key");
    assert.equal(seen[0]!.headers["last-event-id"], undefined);
  });

  it("behavior: a dropped stream is opened again with Last-Event-ID", async () => {
    const { client, seen } = scripted((path, init, n) => {
      if (!path.endsWith("/stream")) return list(n === 1 ? [] : [processing]);
      return n === 1
        ? eventStream([transferEvent(5, processing)], init.signal)
        : eventStream([transferEvent(6, success)], init.signal, true);
    });
    const result = await client.waitForTransfer(HASH, { pollIntervalMs: 5 });
    assert.equal(result.status, "Success");
    const streams = seen.filter((s) => s.path.endsWith("/stream"));
    assert.equal(streams.length, 2);
    assert.equal(streams[1]!.headers["last-event-id"], "5");
  });

  it("behavior: an event that is not a transfer makes it read the list", async () => {
    const { client } = scripted((path, init, n) => {
      if (!path.endsWith("/stream")) return list(n === 1 ? [processing] : [success]);
      return eventStream(["event: reset\ndata: {}\n\n"], init.signal, true);
    });
    assert.equal((await client.waitForTransfer(HASH)).status, "Success");
  });

  it("behavior: without a stream (404) it polls the list until the transfer is final", async () => {
    const { client, seen } = scripted((path, _init, n) => {
      if (path.endsWith("/stream")) return notFound();
      return list(n < 3 ? [] : n < 5 ? [processing] : [success]);
    });
    const updates: string[] = [];
    const result = await client.waitForTransfer(HASH, {
      pollIntervalMs: 5,
      onUpdate: (t) => updates.push(t.status),
    });
    assert.equal(result.status, "Success");
    assert.deepEqual(updates, ["Processing", "Success"]);
    assert.equal(seen.filter((s) => s.path.endsWith("/stream")).length, 1, "asked for it once");
  });

  it("behavior: a list 429 waits its Retry-After", async () => {
    const times: number[] = [];
    const { client } = scripted((path, _init, n) => {
      if (path.endsWith("/stream")) return notFound();
      times.push(Date.now());
      return n === 1
        ? json(429, { code: 42901, msg: "rate limited", data: null }, { "retry-after": "1" })
        : list([success]);
    });
    assert.equal((await client.waitForTransfer(HASH, { pollIntervalMs: 5 })).status, "Success");
    assert.ok(times[1]! - times[0]! >= 990, `asked again after ${times[1]! - times[0]!} ms`);
  });

  it("error: out of time it rejects with a BridgeOracleError naming the last status", async () => {
    const { client } = scripted((path) =>
      path.endsWith("/stream") ? notFound() : list([processing]),
    );
    await assert.rejects(
      client.waitForTransfer(HASH, { timeoutMs: 100, pollIntervalMs: 10 }),
      (error) => {
        assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
        assert.equal(error.status, 0);
        assert.equal(error.code, -1);
        assert.match(error.msg, /within 100 ms \(last seen: Processing\)/);
        return true;
      },
    );
  });

  it("error: an address instead of the source transaction hash rejects at once, saying so", async () => {
    let asked = 0;
    const { client } = scripted(() => {
      asked++;
      return notFound();
    });
    await assert.rejects(
      client.waitForTransfer("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
      /^TypeError: waitForTransfer takes the source transaction hash .*not an address/,
    );
    assert.equal(asked, 0);
  });

  it("error: an aborted signal rejects with its reason, the stream closed", async () => {
    let streamSignal: AbortSignal | null | undefined;
    const { client } = scripted((path, init) => {
      if (!path.endsWith("/stream")) return list([processing]);
      streamSignal = init.signal;
      return eventStream([], init.signal, true);
    });
    const controller = new AbortController();
    const waiting = client.waitForTransfer(HASH, { signal: controller.signal });
    // The user leaves once the client waits on the stream.
    await eventually(5000, () => assert.ok(streamSignal !== undefined, "no stream opened"));
    controller.abort(new Error("user left"));
    await assert.rejects(waiting, /user left/);
    assert.equal(streamSignal?.aborted, true);
  });

  it("error: an answer that is not our envelope (a proxy's page) has code -1 and the status", async () => {
    const { client } = scripted(() => new Response("<html>bad gateway</html>", { status: 502 }));
    await assert.rejects(client.listTransfers({ addressOrTxHash: HASH }), (error) => {
      assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
      assert.equal(error.status, 502);
      assert.equal(error.code, -1);
      assert.match(error.message, /not an answer of bridge-oracle/);
      return true;
    });
  });

  it("behavior: Retry-After as seconds or as an HTTP date", () => {
    assert.equal(parseRetryAfter("7"), 7);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter("soon"), undefined);
  });
});
