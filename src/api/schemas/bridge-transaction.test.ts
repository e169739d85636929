import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TRANSFER_FIELDS } from "../../store/types.js";
import { bridgeTransactionSchema } from "./bridge-transaction.js";

describe("bridgeTransactionSchema", () => {
  it("default: requires exactly the record fields of interface.md 2.2, in order", () => {
    assert.deepEqual(Object.keys(bridgeTransactionSchema.properties), [...TRANSFER_FIELDS]);
    assert.deepEqual(bridgeTransactionSchema.required, [...TRANSFER_FIELDS]);
    assert.equal(bridgeTransactionSchema.additionalProperties, false);
  });

  it("behavior: decimals are integers, status an enum, everything else a string", () => {
    for (const [name, schema] of Object.entries(bridgeTransactionSchema.properties)) {
      const expected = name.endsWith("_decimals") ? "integer" : "string";
      assert.equal(schema.type, expected, name);
    }
    assert.deepEqual(bridgeTransactionSchema.properties.status.enum, [
      "Processing",
      "Success",
      "Failed",
    ]);
  });
});
