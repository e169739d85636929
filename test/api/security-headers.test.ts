/**
 * One security-header policy for every response (issue #41): nosniff, Referrer-Policy,
 * X-Frame-Options beside CSP frame-ancestors, on the explorer's page and assets, /docs, API
 * answers and refusals, and the answers written straight to a socket.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { type RunningServer, startServer } from "../../src/api/server.js";
import { loadConfig } from "../../src/config/env.js";
import { createFakeStore } from "./fake-store.js";

function assertPolicy(headers: IncomingHttpHeaders | Headers, what: string): void {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined);
  assert.equal(get("x-content-type-options"), "nosniff", what);
  assert.equal(get("referrer-policy"), "no-referrer", what);
  assert.equal(get("x-frame-options"), "DENY", what);
  assert.match(get("content-security-policy") ?? "", /frame-ancestors 'none'/, what);
}

describe("security headers (#41)", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({
      config: loadConfig({ LOG_LEVEL: "silent", HOST: "127.0.0.1" }),
      store: createFakeStore(),
      port: 0,
    });
  });
  after(() => server.close());

  it("default: the explorer's page and assets, /docs, the OpenAPI document and API answers", async () => {
    const address = "0x52908400098527886e0f7030069857d2e4169ee7";
    for (const [path, status] of [
      ["/", 200],
      [`/transfer/${"0x".padEnd(66, "a")}`, 200],
      ["/app.js", 200],
      ["/styles.css", 200],
      ["/docs", 200],
      ["/docs/", 200],
      ["/openapi.json", 200],
      [`/api/oracle/bridge-transactions?addressOrTxHash=${address}&pageNo=1&pageSize=5`, 200],
      ["/api/oracle/bridge-transactions", 400],
      ["/healthz", 200],
      ["/no-such-page", 404],
      ["/transfer/%zz", 400], // refused before routing (frameworkErrors)
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      assert.equal(response.status, status, path);
      assertPolicy(response.headers, path);
    }
  });

  it("behavior: the explorer page keeps its own fuller CSP", async () => {
    const response = await fetch(`${server.url}/`);
    await response.text();
    assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'self'/);
  });

  it("behavior: the event stream (a hijacked reply) carries the policy", async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/oracle/bridge-transactions/stream`, {
      signal: controller.signal,
    });
    assertPolicy(response.headers, "stream");
    controller.abort();
    await response.body?.cancel().catch(() => undefined);
  });

  it("error: answers written straight to the socket carry it too (Expect, malformed HTTP)", async () => {
    const { port } = new URL(server.url);
    const expectation = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/healthz",
      headers: { expect: "something-else" },
    });
    expectation.end();
    const [answer] = (await once(expectation, "response")) as [
      { statusCode: number; headers: IncomingHttpHeaders; resume(): void },
    ];
    answer.resume();
    assert.equal(answer.statusCode, 417);
    assertPolicy(answer.headers, "417");

    const socket = connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    socket.end("NOT HTTP AT ALL\r\n\r\n");
    let raw = "";
    socket.on("data", (chunk) => {
      raw += String(chunk);
    });
    await once(socket, "close");
    const head = raw.split("\r\n\r\n", 1)[0] ?? "";
    assert.match(head, /^HTTP\/1\.1 400/, raw);
    const headers: IncomingHttpHeaders = {};
    for (const line of head.split("\r\n").slice(1)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    assertPolicy(headers, "raw 400");
  });
});
