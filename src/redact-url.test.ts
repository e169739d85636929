import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redactRpcUrl, redactText } from "./redact-url.js";

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
