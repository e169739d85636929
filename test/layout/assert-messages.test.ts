/**
 * scripts/check-assert-messages.ts finds node:assert's `ok` called with one argument, whatever
 * it is imported as, and nothing else.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bareAssertions } from "../../scripts/check-assert-messages.js";

const found = (text: string) => bareAssertions("x.ts", text).map((f) => f.expression);

describe("layout: every assert.ok carries a message", () => {
  it("finds assert(x), assert.ok(x) and a named ok(x) of node:assert", () => {
    const text = [
      'import assert from "node:assert/strict";',
      'import { ok as truthy } from "node:assert";',
      "assert(a);",
      "assert.ok(b > 1);",
      "truthy(c);",
      'assert.ok(d, "has a message");',
      "assert.equal(e, 1);",
      "other.ok(f);",
    ].join("\n");
    assert.deepEqual(found(text), ["a", "b > 1", "c"]);
  });

  it("ignores a module's own assert-like functions", () => {
    assert.deepEqual(found('import { assert } from "./mine.js";\nassert(x);'), []);
  });
});
