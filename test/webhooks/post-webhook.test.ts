/** One delivery attempt against a loopback receiver: outcome, redirects, limits, addresses. */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { postWebhook } from "../../src/webhooks/post-webhook.js";
import { verifySignature } from "../../src/webhooks/signature.js";
import { startWebhookReceiver } from "../setup/webhook-receiver.js";

const request = (url: string) => ({
  url,
  secret: "whsec_test",
  eventId: "evt_7",
  eventType: "transfer.updated",
  body: '{"id":"evt_7"}',
  timestamp: Math.floor(Date.now() / 1000),
});

describe("postWebhook", () => {
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers) await close();
  });

  async function server(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const s = createServer(handler);
    s.listen(0, "127.0.0.1");
    await once(s, "listening");
    closers.push(async () => {
      s.closeAllConnections();
      s.close();
    });
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  it("default: a 2xx delivers; headers carry the event id and a valid signature", async () => {
    const receiver = await startWebhookReceiver();
    closers.push(() => receiver.close());
    const outcome = await postWebhook(request(`${receiver.url}/hook`), {
      allowPrivateAddresses: true,
    });
    assert.equal(outcome.ok, true);
    assert.equal(outcome.status, 200);
    const [got] = receiver.requests;
    assert.equal(got?.method, "POST");
    assert.equal(got?.headers["bridge-oracle-event-id"], "evt_7");
    assert.equal(got?.headers["content-type"], "application/json");
    const signature = String(got?.headers["bridge-oracle-signature"]);
    assert.equal(
      verifySignature("whsec_test", signature, got?.body ?? "", Date.now() / 1000),
      true,
    );
  });

  it("behavior: a 500 fails with its status", async () => {
    const receiver = await startWebhookReceiver(() => "fail");
    closers.push(() => receiver.close());
    const outcome = await postWebhook(request(receiver.url), { allowPrivateAddresses: true });
    assert.deepEqual([outcome.ok, outcome.status, outcome.error], [false, 500, "HTTP 500"]);
  });

  it("behavior: a redirect is not followed", async () => {
    let followed = false;
    const target = await server((_req, res) => {
      followed = true;
      res.end();
    });
    const url = await server((_req, res) => {
      res.writeHead(307, { location: target }).end();
    });
    const outcome = await postWebhook(request(url), { allowPrivateAddresses: true });
    assert.equal(outcome.ok, false);
    assert.match(outcome.error ?? "", /redirects are not followed/);
    assert.equal(followed, false);
  });

  it("behavior: no complete answer within the time limit fails", async () => {
    const receiver = await startWebhookReceiver(() => "hang");
    closers.push(() => receiver.close());
    const outcome = await postWebhook(request(receiver.url), {
      allowPrivateAddresses: true,
      timeoutMs: 200,
    });
    assert.equal(outcome.ok, false);
    assert.match(outcome.error ?? "", /within 200 ms/);
    assert.ok(outcome.durationMs < 2000, "outcome.durationMs < 2000");
  });

  it("behavior: at most 1 KiB of a response body is read", async () => {
    let written = 0;
    const url = await server((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 97);
      // An endless body: the sender must stop reading, not wait for the end.
      const write = () => {
        while (res.write(chunk)) written += chunk.length;
      };
      res.on("drain", write);
      write();
    });
    const outcome = await postWebhook(request(url), {
      allowPrivateAddresses: true,
      timeoutMs: 2000,
    });
    assert.equal(outcome.ok, true);
    assert.equal(outcome.responseBody.length, 1024);
    assert.ok(written < 10 * 1024 * 1024, "written < 10 * 1024 * 1024");
  });

  it("error: loopback and private addresses are refused unless allowed", async () => {
    const receiver = await startWebhookReceiver();
    closers.push(() => receiver.close());
    const port = new URL(receiver.url).port;
    for (const url of [receiver.url, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const outcome = await postWebhook(request(url));
      assert.equal(outcome.ok, false, url);
      assert.match(outcome.error ?? "", /private|loopback|refused|connection/, url);
    }
    assert.equal(receiver.requests.length, 0);
  });

  it("error: IPv6 forms that embed a loopback or metadata address are refused before connecting (#41)", async () => {
    const receiver = await startWebhookReceiver();
    closers.push(() => receiver.close());
    const port = new URL(receiver.url).port;
    for (const host of [
      "[::127.0.0.1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:0:7f00:1]",
      "[64:ff9b::a9fe:a9fe]",
      "[2002:7f00:1::]",
      "[2001:0:a9fe:a9fe::]",
    ]) {
      const url = `http://${host}:${port}/`;
      const outcome = await postWebhook(request(url));
      assert.equal(outcome.ok, false, url);
      assert.match(outcome.error ?? "", /private, loopback or link-local address; refused/, url);
    }
    assert.equal(receiver.requests.length, 0);
  });

  it("behavior: URL credentials are sent as Basic auth but never appear in an error", async () => {
    const receiver = await startWebhookReceiver(() => "fail");
    closers.push(() => receiver.close());
    const url = receiver.url.replace("http://", "http://user:hunter2@");
    const outcome = await postWebhook(request(url), { allowPrivateAddresses: true });
    assert.equal(
      receiver.requests[0]?.headers.authorization,
      `Basic ${Buffer.from("user:hunter2").toString("base64")}`,
    );
    assert.equal(JSON.stringify(outcome).includes("hunter2"), false);
  });
});
