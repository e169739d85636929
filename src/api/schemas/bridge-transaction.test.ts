import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TRANSFER_FIELDS } from "../../domain/bridge-transaction.js";
import { bridgeTransactionSchema } from "./bridge-transaction.js";

describe("bridgeTransactionSchema", () => {
  it('default: requires exactly the fields of docs/http-api.md ("The record"), in order', () => {
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

  it("behavior: receive_amount says what a client shows before delivery and after a failure", () => {
    // A Failed record has receive_amount "0", not "" (docs/indexer.md): a client generated from
    // /openapi.json must learn that from the schema, not from "" while unknown.
    const { description } = bridgeTransactionSchema.properties.receive_amount;
    assert.match(description, /"" while Processing/);
    assert.match(description, /"0" when Failed/);
  });
});
