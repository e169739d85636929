import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  maskOurSecrets,
  redactRequestUrl,
  redactRpcUrl,
  redactText,
  redactUrl,
  redactWebhookUrl,
} from "./redact-url.js";

describe("redactRpcUrl", () => {
  it("default: keeps a plain local URL", () => {
    assert.equal(redactRpcUrl("http://127.0.0.1:8545"), "http://127.0.0.1:8545");
  });
  it("behavior: strips user info, query values and key-like path segments", () => {
    const url =
      "https://alice:s3cretpass@eth.example.com/v3/abcdef0123456789abcdef?apikey=XYZ123&x=1";
    const out = redactRpcUrl(url);
    assert.equal(out, "https://***@eth.example.com/v3/***?apikey=***&x=***");
    for (const secret of ["alice", "s3cretpass", "abcdef0123456789abcdef", "XYZ123"]) {
      assert.ok(!out.includes(secret), secret);
    }
  });
  it("error: an invalid URL is never echoed", () => {
    assert.equal(redactRpcUrl("not a url with key 123"), "<invalid rpc url>");
  });
  it("behavior: redactText removes the raw URL and its secrets from a message", () => {
    const url = "https://bob:hunter22@rpc.example.com/key/0123456789abcdefABCDEF";
    const text = `HTTP request failed. URL: ${url} Details: hunter22 0123456789abcdefABCDEF`;
    const out = redactText(text, url);
    assert.ok(!out.includes("hunter22"), '!out.includes("hunter22")');
    assert.ok(!out.includes("0123456789abcdefABCDEF"), '!out.includes("0123456789abcdefABCDEF")');
    assert.ok(out.includes("rpc.example.com"), 'out.includes("rpc.example.com")');
  });
  it("error: the Basic credential made of the user info is removed when an upstream echoes it", () => {
    const url = "https://rpcuser:s3cretpassw0rd@rpc.example.com/";
    const echoed = `Authorization: Basic ${Buffer.from("rpcuser:s3cretpassw0rd").toString("base64")}`;
    assert.equal(redactText(echoed, url), "Authorization: Basic ***");
  });
});

describe("redactUrl", () => {
  it("default: replaces the password", () => {
    assert.equal(redactUrl("postgres://u:pw@h:5432/d"), "postgres://u:***@h:5432/d");
  });
  it("error: a password in the query string is masked too", () => {
    // Regression: `?password=` reached the serve/start/index logs in clear.
    assert.equal(
      redactUrl("postgres://u@h:5432/d?password=hunter2&sslmode=require"),
      "postgres://u@h:5432/d?password=***&sslmode=require",
    );
    assert.equal(redactUrl("redis://h:6379/0?auth_token=t0k3n"), "redis://h:6379/0?auth_token=***");
  });
  it("behavior: leaves paths and password-free URLs alone", () => {
    assert.equal(redactUrl("./data/x.db"), "./data/x.db");
    assert.equal(redactUrl("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
  });

  it("behavior: a value URL cannot parse is masked too, since errors quote it", () => {
    for (const [value, shown] of [
      ["redis://:Sup3rS3cret@127.0.0.1:99999/9", "redis://:***@127.0.0.1:99999/9"],
      ["redis://u:p@ss@cache:6379x/2", "redis://u:***@cache:6379x/2"],
      ["redis://u:pw@ho st:6379/0?token=t0k&db=1", "redis://u:***@ho st:6379/0?token=***&db=1"],
      ["postgres://u@[::1:5432/d?password=x", "postgres://u@[::1:5432/d?password=***"],
    ] as const) {
      assert.throws(() => new URL(value), TypeError, value);
      assert.equal(redactUrl(value), shown);
    }
  });
});

describe("redactUrl: one rule for every kind of URL", () => {
  const key = `bo_${"A".repeat(43)}`;
  const secret = `whsec_${"b".repeat(43)}`;

  it("behavior: database URLs keep the user, lose the password and secret parameters", () => {
    const redacted = redactUrl(
      "postgres://app:s3cret@db:5432/x?sslpassword=abc&application_name=y",
    );
    assert.equal(redacted, "postgres://app:***@db:5432/x?sslpassword=***&application_name=y");
  });

  it("behavior: every secret-looking parameter name is masked, percent-encoded names too", () => {
    for (const name of [
      "apiKey",
      "api_key",
      "key",
      "token",
      "access_token",
      "secret",
      "client_secret",
      "signature",
      "sig",
      "password",
      "auth",
      "api%4Bey",
    ]) {
      assert.equal(redactRequestUrl(`/p?${name}=hunter2&x=1`), `/p?${name}=***&x=1`, name);
    }
    assert.equal(
      redactRequestUrl("/api/oracle/bridge-transactions?address=0xab&limit=5"),
      "/api/oracle/bridge-transactions?address=0xab&limit=5",
    );
  });

  it("behavior: our API keys and webhook secrets are masked wherever they stand", () => {
    assert.equal(redactRequestUrl(`/api/oracle/router?k=${key}`), "/api/oracle/router?k=bo_***");
    assert.equal(redactRequestUrl(`/x/${key}?q=%22${secret}%22`), "/x/bo_***?q=%22whsec_***%22");
    assert.equal(redactRequestUrl(`/x?${key}`), "/x?bo_***");
    assert.equal(
      redactUrl(`https://hooks.example/h?id=${secret}`),
      "https://hooks.example/h?id=whsec_***",
    );
    assert.equal(maskOurSecrets(`{"msg":"bad key ${key}."}`), '{"msg":"bad key bo_***."}');
    assert.equal(maskOurSecrets("robo_cop and bo_short"), "robo_cop and bo_short");
  });

  it("error: a webhook URL's ?token= and user info are never shown (one rule with the rest)", () => {
    const shown = redactWebhookUrl("https://user:hunter2@example.com/h?token=t0k3n&x=1");
    assert.equal(shown, "https://***@example.com/h?token=***&x=1");
    assert.equal(redactWebhookUrl("https://example.com/h"), "https://example.com/h");
    assert.equal(redactWebhookUrl("not a url"), "(not a URL)");
  });

  it("behavior: RPC URLs keep their stronger preset", () => {
    assert.equal(
      redactRpcUrl("https://rpc.example/?network=main&apikey=XYZ"),
      "https://rpc.example/?network=***&apikey=***",
    );
    assert.equal(redactRpcUrl("https://u:p@rpc.example/"), "https://***@rpc.example");
  });
});
