import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  API_KEY_DISPLAY_PREFIX_LENGTH,
  apiKeyFromAuthorization,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "./api-key.js";

describe("generateApiKey", () => {
  it("default: bo_ + 43 base64url characters (32 random bytes), hash and prefix of that key", () => {
    const { key, hash, prefix } = generateApiKey();
    assert.match(key, /^bo_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice(3), "base64url").length, 32);
    assert.equal(hash, hashApiKey(key));
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(prefix, key.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH));
    assert.equal(prefix.length, 11);
    assert.ok(isWellFormedApiKey(key), "isWellFormedApiKey(key)");
  });

  it("behavior: only bo_ + exactly 43 base64url characters is well formed", () => {
    const { key } = generateApiKey();
    assert.ok(isWellFormedApiKey(key), "isWellFormedApiKey(key)");
    for (const bad of [
      key.slice(0, -1),
      `${key}A`,
      `${key.slice(0, -1)}=`,
      `${key.slice(0, -1)}+`,
      `BO_${key.slice(3)}`,
      ` ${key}`,
    ]) {
      assert.equal(isWellFormedApiKey(bad), false, bad);
    }
  });

  it("behavior: keys do not repeat and their bits look uniformly random", () => {
    const count = 2000;
    const keys = new Set<string>();
    const ones = new Array<number>(256).fill(0);
    for (let i = 0; i < count; i++) {
      const { key } = generateApiKey();
      keys.add(key);
      const bytes = Buffer.from(key.slice(3), "base64url");
      for (let bit = 0; bit < 256; bit++) {
        if (((bytes[bit >> 3] ?? 0) >> (bit & 7)) & 1) ones[bit] = (ones[bit] ?? 0) + 1;
      }
    }
    assert.equal(keys.size, count);
    // Each of the 256 bit positions is set in about half of the keys: a stuck or biased bit
    // (a truncated or constant random source) would sit far outside 50 % +- 6 sigma.
    const sigma = Math.sqrt(count) / 2;
    for (const [bit, n] of ones.entries()) {
      assert.ok(Math.abs(n - count / 2) < 6 * sigma, `bit ${bit} set in ${n} of ${count} keys`);
    }
  });

  it("behavior: the hash is SHA-256 of the whole key text", () => {
    assert.equal(
      hashApiKey("abc"),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    assert.equal(displayPrefix("bo_ABCDEFGHIJKL"), "bo_ABCDEFGH");
  });
});

describe("apiKeyFromAuthorization", () => {
  it("default: the bare key", () => {
    assert.equal(apiKeyFromAuthorization("bo_abc"), "bo_abc");
  });
  it("behavior: Bearer scheme, any case, extra spaces", () => {
    assert.equal(apiKeyFromAuthorization("Bearer bo_abc"), "bo_abc");
    assert.equal(apiKeyFromAuthorization("bearer   bo_abc  "), "bo_abc");
    assert.equal(apiKeyFromAuthorization("  BEARER bo_abc"), "bo_abc");
  });
  it("behavior: absent, blank or a scheme without a key is no key", () => {
    assert.equal(apiKeyFromAuthorization(undefined), undefined);
    assert.equal(apiKeyFromAuthorization(""), undefined);
    assert.equal(apiKeyFromAuthorization("   "), undefined);
    assert.equal(apiKeyFromAuthorization("Bearer "), undefined);
  });
  it("behavior: the first of repeated headers", () => {
    assert.equal(apiKeyFromAuthorization(["bo_a", "bo_b"]), "bo_a");
  });
});
