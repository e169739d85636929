/**
 * Requests the HTTP parser refuses, sent as raw bytes to a listening server: the answer is still
 * the envelope with an x-request-id (README "Errors": 40003, 43101), never Fastify's own shape.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { clientApiError } from "../../src/api/client-error.js";
import { listenOnLoopback } from "../setup/listen.js";
import { type RawResponse, rawRequest } from "../setup/raw-request.js";
import { createFakeStore } from "./fake-store.js";
import { buildTestApp } from "./setup.js";

/**
 * An app with a 600 ms request timeout, listening; its router route has no registry, so it
 * waits for its JSON body like the real one.
 */
async function startTimedApp(): Promise<{ port: number; close(): Promise<void> }> {
  const { app } = await buildTestApp(createFakeStore(), {
    logLevel: "silent",
    requestTimeoutMs: 600,
    router: {
      router: undefined,
      state: { current: () => ({ chains: new Map() }) },
      maxStateAgeMs: 1000,
    },
  });
  const { port } = await listenOnLoopback(app);
  return { port, close: () => app.close() };
}

describe("requests the HTTP parser refuses", () => {
  let app: FastifyInstance;
  let logs: Record<string, unknown>[];
  let port: number;
  before(async () => {
    ({ app, logs } = await buildTestApp(createFakeStore(), { logLevel: "info" }));
    ({ port } = await listenOnLoopback(app));
  });
  after(async () => {
    await app.close();
  });

  const expectEnvelope = (response: RawResponse, status: number, code: number, msg: RegExp) => {
    assert.equal(response.status, status, JSON.stringify(response));
    assert.match(response.headers["content-type"] ?? "", /^application\/json/);
    assert.match(response.headers["x-request-id"] ?? "", /^[0-9a-f]{16}-[0-9a-z]+$/);
    const body = JSON.parse(response.body) as { code: number; msg: string; data: unknown };
    assert.equal(body.code, code);
    assert.match(body.msg, msg);
    assert.equal(body.data, null);
  };

  it("error: a garbage request line is 400 40003", async () => {
    const response = await rawRequest(port, "GARBAGE\r\n\r\n");
    expectEnvelope(response, 400, 40003, /^the request is not valid HTTP\/1\.1/);
    assert.ok(
      logs.some((line) => line.code === 40003 && line.reqId === response.headers["x-request-id"]),
      "logged once with its request id",
    );
  });

  it("error: headers over the size limit are 431 43101", async () => {
    const request = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`;
    expectEnvelope(
      await rawRequest(port, request),
      431,
      43101,
      /headers are larger than \d+ bytes/,
    );
  });

  it("error: an HTTP/1.1 request without Host is 400 40003; HTTP/1.0 needs none", async () => {
    const response = await rawRequest(port, "GET /healthz HTTP/1.1\r\n\r\n");
    expectEnvelope(response, 400, 40003, /^an HTTP\/1\.1 request needs a Host header$/);
    assert.equal(response.headers.connection, "close");
    const old = await rawRequest(port, "GET /healthz HTTP/1.0\r\n\r\n");
    assert.equal(old.status, 200);
    assert.deepEqual(JSON.parse(old.body), { code: 0, msg: "success", data: { status: "ok" } });
  });

  it("behavior: an error to a request without a body keeps the connection open", async () => {
    for (const line of ["GET /nope HTTP/1.1", "DELETE /healthz HTTP/1.1"]) {
      const response = await rawRequest(port, `${line}\r\nHost: x\r\n\r\n`);
      assert.ok(response.status === 404 || response.status === 405, line);
      assert.equal(response.headers.connection, "keep-alive", line);
    }
  });

  it("default: a well-formed request on the same server is answered normally", async () => {
    const response = await rawRequest(
      port,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert.equal(response.status, 200);
  });

  it("behavior: a request that never finishes maps to 408 40801", () => {
    const timeout = Object.assign(new Error("timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
    assert.deepEqual(
      { code: clientApiError(timeout).code, status: clientApiError(timeout).status },
      { code: 40801, status: 408 },
    );
  });

  it("error: a body that stops arriving is answered 408 40801 and the connection closed", async () => {
    // Regression: Fastify's default (no request timeout) kept such a connection open for good;
    // only slow headers were cut, after about 90 s.
    const timed = await startTimedApp();
    try {
      const started = performance.now();
      // Headers and 5 of the 100 body bytes announced; the rest never comes (no half-close).
      const response = await rawRequest(
        timed.port,
        "POST /api/oracle/router HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          'Content-Length: 100\r\n\r\n{"a":',
        { halfClose: false },
      );
      const ms = performance.now() - started;
      expectEnvelope(response, 408, 40801, /the request did not arrive in time/);
      assert.ok(ms >= 500 && ms < 5000, `answered after ${Math.round(ms)} ms`);
    } finally {
      await timed.close();
    }
  });

  it("behavior: a refusal sent before a small body arrived: one answer, never a 408 after it; the connection closes when the rest does not come", async () => {
    const timed = await startTimedApp();
    try {
      // Refused for its content type before the body is read; the rest of the body never comes.
      // The answer keeps the connection (a small body is read and discarded); rawRequest returns
      // once the server closes it, at the request timeout, without writing a 408.
      const response = await rawRequest(
        timed.port,
        "POST /api/oracle/router HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n" +
          "Content-Length: 100\r\n\r\nabc",
        { halfClose: false },
      );
      expectEnvelope(response, 415, 41501, /./);
      assert.equal(response.raw.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, response.raw);
      assert.equal(response.headers.connection, "keep-alive");
    } finally {
      await timed.close();
    }
  });
});
