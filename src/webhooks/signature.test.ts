import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  generateWebhookSecret,
  SECRET_PREFIX,
  signatureHeader,
  signPayload,
  verifySignature,
} from "./signature.js";

describe("webhook signatures", () => {
  const secret = "whsec_test";
  const body = '{"id":"evt_1","type":"transfer.created"}';

  it("default: t=...,v1=<hex HMAC-SHA256 of t.body> verifies", () => {
    const header = signatureHeader(secret, 1_700_000_000, body);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    assert.equal(header.split("v1=")[1], signPayload(secret, 1_700_000_000, body));
    assert.equal(verifySignature(secret, header, body, 1_700_000_100), true);
  });

  it("error: a tampered body, another secret or an old timestamp fails", () => {
    const header = signatureHeader(secret, 1_700_000_000, body);
    assert.equal(verifySignature(secret, header, `${body} `, 1_700_000_000), false);
    assert.equal(verifySignature("whsec_other", header, body, 1_700_000_000), false);
    assert.equal(verifySignature(secret, header, body, 1_700_000_301), false);
    assert.equal(verifySignature(secret, "v1=00", body, 1_700_000_000), false);
  });

  it("behavior: secrets are 256-bit and distinct", () => {
    const a = generateWebhookSecret();
    assert.ok(a.startsWith(SECRET_PREFIX), "a.startsWith(SECRET_PREFIX)");
    assert.equal(Buffer.from(a.slice(SECRET_PREFIX.length), "base64url").length, 32);
    assert.notEqual(a, generateWebhookSecret());
  });
});
