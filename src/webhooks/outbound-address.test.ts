import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkWebhookUrl,
  isPrivateAddress,
  parseWebhookUrl,
  redactWebhookUrl,
  WebhookUrlError,
} from "./outbound-address.js";

describe("webhook outbound addresses", () => {
  it("behavior: private, loopback, link-local and reserved addresses are refused", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "not-an-address",
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
  });

  it("default: public addresses pass", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  it("error: only absolute http(s) URLs", () => {
    assert.throws(() => parseWebhookUrl("ftp://example.com/"), /http or https/);
    assert.throws(() => parseWebhookUrl("example.com/hook"), /absolute/);
    assert.throws(() => parseWebhookUrl("file:///etc/passwd"), WebhookUrlError);
    assert.equal(parseWebhookUrl("https://example.com/h").hostname, "example.com");
  });

  it("behavior: names are resolved and checked at creation unless private addresses are allowed", async () => {
    const resolve = async (host: string) =>
      host === "inside.example" ? ["10.0.0.5"] : ["8.8.8.8"];
    await assert.rejects(
      checkWebhookUrl("https://inside.example/h", { allowPrivateAddresses: false, resolve }),
      /resolves to\) 10\.0\.0\.5/,
    );
    await assert.rejects(
      checkWebhookUrl("http://127.0.0.1:9/h", { allowPrivateAddresses: false, resolve }),
      /127\.0\.0\.1/,
    );
    await checkWebhookUrl("https://outside.example/h", { allowPrivateAddresses: false, resolve });
    await checkWebhookUrl("https://inside.example/h", { allowPrivateAddresses: true, resolve });
    await assert.rejects(
      checkWebhookUrl("https://nowhere.example/h", {
        allowPrivateAddresses: false,
        resolve: async () => {
          throw new Error("ENOTFOUND");
        },
      }),
      /does not resolve/,
    );
  });

  it("behavior: credentials in a URL are never shown", () => {
    const shown = redactWebhookUrl("https://user:hunter2@example.com/h?x=1");
    assert.equal(shown.includes("hunter2"), false);
    assert.equal(shown.includes("user"), false);
    assert.equal(redactWebhookUrl("https://example.com/h"), "https://example.com/h");
  });
});
