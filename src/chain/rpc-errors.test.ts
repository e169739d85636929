import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRangeError, isRateLimited, isTimeoutError } from "./rpc-errors.js";

/** What the chain client throws: its message names the (redacted) URL, the node's text is inside. */
function chainError(url: string, nodeText: string, status?: number) {
  return Object.assign(new Error(`chain 71001 (${url}): eth_getLogs(1..11) failed: ${nodeText}`), {
    cause: { message: `${nodeText}\n\nURL: ${url}`, ...(status !== undefined ? { status } : {}) },
  });
}

describe("classifying RPC failures", () => {
  it("default: a refused span, a rate limit and a timeout are told apart", () => {
    const refused = chainError("http://127.0.0.1:8545", "query exceeds max block range 5");
    assert.equal(isRangeError(refused), true);
    assert.equal(isRateLimited(refused), false);
    const limited = chainError("http://127.0.0.1:8545", "Too Many Requests", 429);
    assert.equal(isRateLimited(limited), true);
    assert.equal(isRangeError(limited), false);
    assert.equal(isRateLimited(chainError("http://rpc", "HTTP 429")), true);
    assert.equal(isRateLimited(chainError("http://rpc", "Status: 429")), true);
    assert.equal(isRateLimited(chainError("http://rpc", "rate limit exceeded")), true);
    assert.equal(
      isTimeoutError(chainError("http://rpc", "The request took too long to respond. timed out")),
      true,
    );
  });

  it("behavior: digits of the URL (a port or path with 429 in it) never make a failure a rate limit", () => {
    // Regression: /429/ matched the URL, so behind an RPC on port 34291 a refused span was taken
    // for a rate limit, never halved, and the chain never got past it (seen in CI).
    for (const url of [
      "http://127.0.0.1:34291",
      "http://127.0.0.1:4290",
      "http://127.0.0.1:429",
      "https://rpc.example/v3/***/429/",
    ]) {
      const refused = chainError(url, "query exceeds max block range 5");
      assert.equal(isRateLimited(refused), false, url);
      assert.equal(isRangeError(refused), true, url);
    }
    assert.equal(isRateLimited(new Error("connect ECONNREFUSED 127.0.0.1:429")), false);
    // Nor the request body viem quotes: its JSON-RPC id counts up through 429, 1429, 4290...
    for (const id of [429, 1429, 4291]) {
      const body = `Request body: {"method":"eth_getLogs","params":[{"fromBlock":"0x1"}],"id":${id}}`;
      const refused = chainError(
        "http://127.0.0.1:8545",
        `query exceeds max block range 5\n${body}`,
      );
      assert.equal(isRateLimited(refused), false, String(id));
      assert.equal(isRangeError(refused), true, String(id));
    }
  });
});
