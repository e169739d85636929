import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeTransfer } from "../../test/setup/transfer-fixtures.js";
import { filterMatches, parseSubscriptionFilter } from "./subscription-filter.js";

describe("webhook subscription filters", () => {
  const record = makeTransfer();

  it("default: an empty filter matches every transfer", () => {
    assert.equal(filterMatches(parseSubscriptionFilter({}), record), true);
  });

  it("behavior: addresses match sender or recipient, case-insensitively", () => {
    const from = parseSubscriptionFilter({ addresses: [record.from_address.toLowerCase()] });
    const to = parseSubscriptionFilter({
      addresses: [record.to_address.toUpperCase().replace("0X", "0x")],
    });
    assert.equal(filterMatches(from, record), true);
    assert.equal(filterMatches(to, record), true);
    assert.equal(filterMatches(from, makeTransfer()), false);
  });

  it("behavior: hashes match either transaction hash or the message id", () => {
    for (const value of [record.source_tx_hash, record.dest_tx_hash, record.message_id]) {
      assert.equal(filterMatches(parseSubscriptionFilter({ txHashes: [value] }), record), true);
    }
    assert.equal(
      filterMatches(parseSubscriptionFilter({ txHashes: [makeTransfer().message_id] }), record),
      false,
    );
  });

  it("behavior: other chains' values match exactly", () => {
    const other = makeTransfer({ from_address: "So1anaAddre55" });
    assert.equal(
      filterMatches(parseSubscriptionFilter({ addresses: ["So1anaAddre55"] }), other),
      true,
    );
    assert.equal(
      filterMatches(parseSubscriptionFilter({ addresses: ["so1anaaddre55"] }), other),
      false,
    );
  });

  it("error: a hash given as an address (and the reverse) or a bad value is refused", () => {
    assert.throws(
      () => parseSubscriptionFilter({ addresses: [record.message_id] }),
      /not an address/,
    );
    assert.throws(
      () => parseSubscriptionFilter({ txHashes: [record.from_address] }),
      /not a transaction hash/,
    );
    assert.throws(() => parseSubscriptionFilter({ addresses: ["a b"] }), /addresses/);
    assert.throws(
      () => parseSubscriptionFilter({ addresses: Array.from({ length: 101 }, (_, i) => `a${i}`) }),
      /at most 100/,
    );
  });
});
