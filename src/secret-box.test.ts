import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import {
  CLEAR_SECRET_BOX,
  createSecretBox,
  isSealed,
  parseSecretsKey,
  SecretKeyMissingError,
} from "./secret-box.js";

describe("secret box", () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);
  const url = "https://user:hunter2@hooks.example/h?token=t0k3n";

  it("default: a value sealed with a key reads back, and shows nothing of itself", () => {
    const sealed = box.seal("url", url);
    assert.ok(isSealed(sealed), sealed);
    for (const part of ["hunter2", "t0k3n", "hooks.example"]) {
      assert.equal(sealed.includes(part), false, part);
    }
    assert.equal(box.open("url", sealed), url);
    assert.notEqual(box.seal("url", url), sealed, "a fresh nonce each time");
  });

  it("behavior: without a key values are stored as they are; values in clear read with a key too", () => {
    assert.equal(CLEAR_SECRET_BOX.seal("secret", "whsec_x"), "whsec_x");
    assert.equal(CLEAR_SECRET_BOX.encrypts, false);
    assert.equal(box.open("secret", "whsec_x"), "whsec_x");
  });

  it("error: a sealed value without the key, with another key, or as another field is refused", () => {
    const sealed = box.seal("secret", "whsec_abc");
    assert.throws(() => CLEAR_SECRET_BOX.open("secret", sealed), SecretKeyMissingError);
    assert.throws(() => createSecretBox(randomBytes(32)).open("secret", sealed), /another key/);
    assert.throws(() => box.open("url", sealed), /does not decrypt/);
    assert.throws(() => createSecretBox(randomBytes(16)), /32 bytes/);
  });

  it("default: a key file holds 64 hex digits", () => {
    const hex = key.toString("hex");
    assert.deepEqual(parseSecretsKey(`  ${hex}\n`), key);
    assert.equal(parseSecretsKey(hex.slice(2)), undefined);
    assert.equal(parseSecretsKey(key.toString("base64")), undefined);
  });
});
