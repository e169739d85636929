import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorMessage } from "./logger.js";
import { settleWithin } from "./settle.js";

describe("settleWithin", () => {
  it("default: returns once everything settled, rejections included", async () => {
    const started = Date.now();
    await settleWithin([Promise.resolve(1), Promise.reject(new Error("x"))], 5_000);
    assert.ok(Date.now() - started < 1_000, "Date.now() - started < 1_000");
  });
  it("behavior: gives up on work that never settles after the grace period", async () => {
    const started = Date.now();
    await settleWithin([new Promise(() => {})], 50);
    assert.ok(Date.now() - started >= 25, "Date.now() - started >= 25"); // timers count from the loop's cached time
  });
});

describe("errorMessage", () => {
  it("default: the first line of an error, or viem's short message with its details", () => {
    assert.equal(errorMessage(new Error("first\nsecond")), "first");
    const viemLike = Object.assign(new Error("long\nmessage"), {
      shortMessage: "HTTP request failed.",
      details: "fetch failed",
    });
    assert.equal(errorMessage(viemLike), "HTTP request failed. (fetch failed)");
    assert.equal(errorMessage("plain"), "plain");
  });
});
