import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseResumePoint } from "./transfer-stream.js";

describe("parseResumePoint", () => {
  it("default: Last-Event-ID wins over since; neither starts at the present", () => {
    assert.equal(parseResumePoint("12", { since: "7" }), 12);
    assert.equal(parseResumePoint(undefined, { since: "7" }), 7);
    assert.equal(parseResumePoint(" ", {}), undefined);
    assert.equal(parseResumePoint(undefined, {}), undefined);
    assert.equal(parseResumePoint("999999999999999", {}), 999_999_999_999_999);
  });

  it("error: not a non-negative integer", () => {
    for (const bad of ["-1", "abc", "1.5", "0x10"]) {
      assert.throws(
        () => parseResumePoint(bad, {}),
        /Last-Event-ID must be an event id of this stream \(a non-negative integer\)/,
      );
      assert.throws(() => parseResumePoint(undefined, { since: bad }), /^.*since must be/);
    }
  });

  it("error: more than 15 digits is too large", () => {
    assert.throws(
      () => parseResumePoint("12345678901234567890", {}),
      /Last-Event-ID is too large to be an event id of this stream \(at most 15 digits\)/,
    );
    assert.throws(
      () => parseResumePoint(undefined, { since: "1234567890123456" }),
      /since is too large/,
    );
  });
});
