/**
 * Requests on the edge of HTTP/1.1, sent as raw bytes to a listening app: pipelined requests
 * answered in order when a later one is malformed, an unknown `Expect` (417 41701) and a
 * `CONNECT` (405 40501) answered in the envelope, and a refused small POST keeping its
 * connection (docs/http-api.md, "Errors").
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { listenOnLoopback } from "../setup/listen.js";
import { type RawResponse, rawConnection, rawRequest } from "../setup/raw-request.js";
import { createFakeStore } from "./fake-store.js";
import { buildTestApp } from "./setup.js";

// The list endpoint answers after an await on the store: its answer is not ready in the tick the
// parser reaches the next request on the connection.
const LIST =
  "/api/oracle/bridge-transactions?addressOrTxHash=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC&pageNo=1&pageSize=10";
const GET_LIST = `GET ${LIST} HTTP/1.1\r\nHost: x\r\n\r\n`;
const REQUEST_ID = /^[0-9a-f]{16}-[0-9a-z]+$/;

function envelope(response: RawResponse, status: number, code: number): { msg: string } {
  assert.equal(response.status, status, response.raw);
  assert.match(response.headers["content-type"] ?? "", /^application\/json/);
  assert.match(response.headers["x-request-id"] ?? "", REQUEST_ID);
  const body = JSON.parse(response.body) as { code: number; msg: string; data: unknown };
  assert.equal(body.code, code, response.body);
  assert.equal(body.data, null);
  return body;
}

/** The status lines in `raw`, in order. */
function statuses(raw: string): string[] {
  return raw.match(/HTTP\/1\.1 \d{3}/g) ?? [];
}

describe("HTTP edge cases", () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    ({ app } = await buildTestApp(createFakeStore(), { logLevel: "silent" }));
    port = (await listenOnLoopback(app)).port;
  });
  after(() => app.close());

  it("behavior: a valid request pipelined ahead of a malformed one gets its answer first, every time", async () => {
    // Regression: the 400 was written at once, ahead of the list's answer, which was lost.
    for (let i = 0; i < 200; i++) {
      const response = await rawRequest(port, `${GET_LIST}GARBAGE\r\n\r\n`);
      assert.deepEqual(statuses(response.raw), ["HTTP/1.1 200", "HTTP/1.1 400"], `try ${i}`);
      const refusal = response.raw.slice(response.raw.lastIndexOf("HTTP/1.1 400"));
      assert.match(refusal, /"code":40003/);
      assert.match(refusal, /\r\nConnection: close\r\n/);
    }
  });

  it("behavior: two valid requests ahead of a malformed one are both answered, in order", async () => {
    const response = await rawRequest(
      port,
      `${GET_LIST}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/9.9.9\r\n\r\n`,
    );
    assert.deepEqual(statuses(response.raw), ["HTTP/1.1 200", "HTTP/1.1 200", "HTTP/1.1 400"]);
    assert.ok(
      response.raw.indexOf('"transactions"') < response.raw.indexOf('"status":"ok"'),
      'response.raw.indexOf(\'"transactions"\') < response.raw.indexOf(\'"status":"ok"\')',
    );
  });

  it("error: an Expect other than 100-continue is 417 41701 in the envelope, and the connection stays usable", async () => {
    const connection = await rawConnection(port);
    try {
      const refused = await connection.exchange(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n",
      );
      const body = envelope(refused, 417, 41701);
      assert.match(body.msg, /^Expect: 200-ok is not supported; only 100-continue is$/);
      const next = await connection.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      assert.equal(next.status, 200);
    } finally {
      connection.end();
    }
  });

  it("default: Expect: 100-continue is still served", async () => {
    const response = await rawRequest(
      port,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
    );
    assert.deepEqual(statuses(response.raw), ["HTTP/1.1 100", "HTTP/1.1 200"]);
  });

  it("error: CONNECT is 405 40501 in the envelope with Allow, then the connection closes", async () => {
    const response = await rawRequest(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n", {
      halfClose: false,
    });
    const body = envelope(response, 405, 40501);
    assert.match(body.msg, /^CONNECT is not allowed: this server is not a proxy/);
    assert.equal(response.headers.allow, "GET, HEAD, POST");
    assert.equal(response.headers.connection, "close");
  });

  it("behavior: a CONNECT pipelined behind a valid request waits for its answer", async () => {
    const response = await rawRequest(
      port,
      `${GET_LIST}CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    assert.deepEqual(statuses(response.raw), ["HTTP/1.1 200", "HTTP/1.1 405"]);
  });
});

describe("HTTP edge cases: a refused POST's connection", () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    ({ app } = await buildTestApp(createFakeStore(), {
      logLevel: "silent",
      requestTimeoutMs: 600,
      plugins: [(root) => registerRateLimit(root, { anonymousPerMinute: 1 })],
      // The router route without a registry: it takes a JSON body like the real one.
      router: {
        router: undefined,
        state: { current: () => ({ chains: new Map() }) },
        maxStateAgeMs: 1000,
      },
    }));
    port = (await listenOnLoopback(app)).port;
  });
  after(() => app.close());

  const post = (body: string, extra = "") =>
    "POST /api/oracle/router HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
    `Content-Length: ${body.length}\r\n${extra}\r\n${body}`;

  it("behavior: throttled POSTs with small bodies keep the connection: their bodies are read and discarded", async () => {
    const connection = await rawConnection(port);
    try {
      await connection.exchange(post('{"a":1}')); // the address's one request of the minute
      for (const size of [10, 4000, 16 * 1024]) {
        const body = JSON.stringify({ pad: "x".repeat(size - 10) });
        const limited = await connection.exchange(post(body));
        envelope(limited, 429, 42901);
        assert.equal(limited.headers.connection, "keep-alive", `body of ${body.length} bytes`);
      }
      // The discarded bodies were not taken for requests: the next one parses as sent.
      envelope(await connection.exchange("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"), 404, 40401);
      assert.equal(connection.closed(), false);
    } finally {
      connection.end();
    }
  });

  it("behavior: a refused POST whose body is larger than 16 KiB or chunked closes the connection", async () => {
    const large = await rawConnection(port);
    const body = "x".repeat(16 * 1024 + 1);
    const refused = await large.exchange(post(body));
    assert.ok(refused.status === 429 || refused.status === 413, refused.raw);
    assert.equal(refused.headers.connection, "close");
    const chunked = await rawConnection(port);
    const refusedChunked = await chunked.exchange(
      "POST /api/oracle/router HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        'Transfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n',
    );
    envelope(refusedChunked, 429, 42901);
    assert.equal(refusedChunked.headers.connection, "close");
    large.end();
    chunked.end();
  });

  it("behavior: a refused small POST whose body stops arriving gets one answer, then the connection closes", async () => {
    // 5 of 100 announced bytes: refused at once, then the rest never comes (request timeout 600 ms).
    const response = await rawRequest(
      port,
      "POST /api/oracle/router HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        'Content-Length: 100\r\n\r\n{"a":',
      { halfClose: false },
    );
    assert.deepEqual(statuses(response.raw), ["HTTP/1.1 429"], response.raw);
  });
});
