import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type BridgeTransaction, TRANSFER_FIELDS } from "../domain/bridge-transaction.js";
import { createTransferGenerator } from "./generate.js";
import { isValidTime, parseTransferRecord } from "./validate.js";

/** A few hundred generated records of every status and chain kind, built once. */
const SAMPLE = [...createTransferGenerator({ count: 600, seed: 7 }).records()];
const byStatus = (status: string) => SAMPLE.find((r) => r.status === status) as BridgeTransaction;
const SUCCESS = byStatus("Success");
const FAILED = byStatus("Failed");
const PROCESSING = byStatus("Processing");

function expectError(value: unknown, field: string, rulePattern?: RegExp): void {
  const result = parseTransferRecord(value);
  assert.equal(result.ok, false, `expected ${field} to be rejected`);
  if (result.ok) return;
  assert.equal(result.field, field, result.message);
  assert.ok(result.message.startsWith(`${field}: `), result.message);
  if (rulePattern !== undefined) assert.match(result.rule, rulePattern);
}

function parsed(value: unknown): BridgeTransaction {
  const result = parseTransferRecord(value);
  assert.ok(result.ok, result.ok ? "" : result.message);
  return result.record;
}

describe("parseTransferRecord", () => {
  it("default: accepts a record of each status unchanged", () => {
    for (const record of [SUCCESS, FAILED, PROCESSING]) assert.deepEqual(parsed(record), record);
  });

  it("behavior: normalises addresses to EIP-55, hashes to lowercase, amounts to canonical form", () => {
    const record = parsed({
      ...SUCCESS,
      from_address: SUCCESS.from_address.toLowerCase(),
      to_address: `0x${SUCCESS.to_address.slice(2).toUpperCase()}`,
      message_id: SUCCESS.message_id.toUpperCase().replace("0X", "0x"),
      send_amount: `00${SUCCESS.send_amount}${SUCCESS.send_amount.includes(".") ? "00" : ".000"}`,
      bridge_fee: "0.000",
    });
    assert.equal(record.from_address, SUCCESS.from_address);
    assert.equal(record.to_address, SUCCESS.to_address);
    assert.equal(record.message_id, SUCCESS.message_id);
    assert.equal(record.send_amount, SUCCESS.send_amount);
    assert.equal(record.bridge_fee, "0");
  });

  it("behavior: output fields are in API order whatever the input order", () => {
    const reversed = Object.fromEntries(Object.entries(SUCCESS).reverse());
    assert.deepEqual(Object.keys(parsed(reversed)), [...TRANSFER_FIELDS]);
  });

  it("behavior: accepts non-EVM ids (base58) in address and hash fields as they are", () => {
    const base58 = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
    const record = parsed({ ...SUCCESS, from_address: base58, source_tx_hash: `${base58}abc` });
    assert.equal(record.from_address, base58);
    assert.equal(record.source_tx_hash, `${base58}abc`);
  });

  it("behavior: a failed refund may have no dest_tx_hash and receives zero", () => {
    assert.ok(
      parseTransferRecord({ ...FAILED, dest_tx_hash: "", receive_amount: "0" }).ok,
      'parseTransferRecord({ ...FAILED, dest_tx_hash: "", receive_amount: "0" }).ok',
    );
  });

  it("behavior: Processing may leave dest_bridge_token_amount unknown", () => {
    assert.ok(
      parseTransferRecord({ ...PROCESSING, dest_bridge_token_amount: "" }).ok,
      'parseTransferRecord({ ...PROCESSING, dest_bridge_token_amount: "" }).ok',
    );
  });

  it("behavior: fees and subsidy may be zero", () => {
    assert.ok(
      parseTransferRecord({ ...SUCCESS, xproto_fee: "0", bridge_fee: "0", subsidy_amount: "0" }).ok,
      'parseTransferRecord({ ...SUCCESS, xproto_fee: "0", bridge_fee: "0", subsidy_amount: "0" }).ok',
    );
  });

  it("error: not an object", () => {
    for (const value of [null, [], "x", 1]) expectError(value, "record", /JSON object/);
  });

  it("error: a missing field is named", () => {
    const { fee_symbol: _, ...rest } = SUCCESS;
    expectError(rest, "fee_symbol", /missing/);
  });

  it("behavior: a record without the four added fields is the reference protocol's, its messaging fee in the fee token", () => {
    const {
      protocol: _p,
      xproto_fee_address: _a,
      xproto_fee_decimals: _d,
      xproto_fee_symbol: _s,
      ...specified
    } = SUCCESS;
    assert.deepEqual(parsed(specified), {
      ...SUCCESS,
      protocol: "reference",
      xproto_fee_address: SUCCESS.fee_address,
      xproto_fee_decimals: SUCCESS.fee_decimals,
      xproto_fee_symbol: SUCCESS.fee_symbol,
    });
    const { xproto_fee_symbol: _only, ...partial } = SUCCESS;
    expectError(partial, "xproto_fee_symbol", /missing/);
    expectError({ ...SUCCESS, protocol: "Layer Zero" }, "protocol", /protocol name/);
  });

  it("error: an unknown field is named", () => {
    expectError({ ...SUCCESS, memo: "x" }, "memo", /not a field/);
  });

  it("error: wrong JSON types", () => {
    expectError({ ...SUCCESS, fee_decimals: "6" }, "fee_decimals", /JSON number/);
    expectError({ ...SUCCESS, send_amount: 1.5 }, "send_amount", /JSON string/);
    expectError({ ...SUCCESS, to_address: null }, "to_address", /JSON string/);
  });

  it("error: status outside the three states", () => {
    expectError({ ...SUCCESS, status: "success" }, "status", /Success, Failed/);
  });

  it("error: decimals outside integers 0..36", () => {
    for (const bad of [-1, 37, 6.5, Number.NaN]) {
      expectError({ ...SUCCESS, dest_token_decimals: bad }, "dest_token_decimals", /0 to 36/);
    }
  });

  it("error: more fractional digits than the token's decimals, per amount field", () => {
    const r = {
      ...SUCCESS,
      source_token_decimals: 2,
      fee_decimals: 2,
      dest_token_decimals: 2,
      xproto_fee_decimals: 2,
    };
    r.dest_bridge_token_decimals = 2;
    const cases: [keyof BridgeTransaction, string][] = [
      ["send_amount", "source_token_decimals"],
      ["min_receive_amount", "dest_token_decimals"],
      ["receive_amount", "dest_token_decimals"],
      ["dest_bridge_token_amount", "dest_bridge_token_decimals"],
      ["xproto_fee", "xproto_fee_decimals"],
      ["bridge_fee", "fee_decimals"],
      ["subsidy_amount", "dest_bridge_token_decimals"],
    ];
    const base = {
      ...r,
      send_amount: "1",
      min_receive_amount: "1",
      receive_amount: "1",
      dest_bridge_token_amount: "1",
      xproto_fee: "0",
      bridge_fee: "0",
      subsidy_amount: "0",
    };
    assert.ok(parseTransferRecord(base).ok, "parseTransferRecord(base).ok");
    for (const [field, decimalsField] of cases) {
      expectError(
        { ...base, [field]: "1.123" },
        field,
        new RegExp(`3 fractional.*${decimalsField}`),
      );
      assert.ok(parseTransferRecord({ ...base, [field]: "1.120" }).ok, `${field} 1.120`);
    }
  });

  it("error: malformed amounts", () => {
    for (const bad of ["-1", "1e6", "1.", ".5", " 1", "1,5", "0x10", "", "١"]) {
      expectError({ ...SUCCESS, send_amount: bad }, "send_amount");
    }
  });

  it("error: amounts above uint256 in base units", () => {
    expectError({ ...SUCCESS, send_amount: "1".padEnd(80, "0") }, "send_amount", /uint256/);
  });

  it("error: zero where a transfer needs value", () => {
    expectError({ ...SUCCESS, send_amount: "0.0" }, "send_amount", /greater than zero/);
    expectError({ ...SUCCESS, min_receive_amount: "0" }, "min_receive_amount", /greater/);
    expectError({ ...SUCCESS, receive_amount: "0" }, "receive_amount", /when status is Success/);
    expectError({ ...SUCCESS, dest_bridge_token_amount: "0" }, "dest_bridge_token_amount");
  });

  it("error: status-dependent unknowns", () => {
    expectError({ ...PROCESSING, end_time: SUCCESS.end_time }, "end_time", /Processing/);
    expectError({ ...PROCESSING, receive_amount: "1" }, "receive_amount", /Processing/);
    expectError({ ...PROCESSING, dest_tx_hash: SUCCESS.dest_tx_hash }, "dest_tx_hash");
    expectError({ ...SUCCESS, end_time: "" }, "end_time", /set when status is Success/);
    expectError({ ...FAILED, end_time: "" }, "end_time", /Failed/);
    expectError({ ...SUCCESS, dest_tx_hash: "" }, "dest_tx_hash", /Success/);
    expectError({ ...SUCCESS, receive_amount: "" }, "receive_amount", /Success/);
    expectError({ ...FAILED, receive_amount: "" }, "receive_amount", /Failed/);
  });

  it("error: malformed addresses and hashes", () => {
    expectError({ ...SUCCESS, from_address: "0x1234" }, "from_address", /0x \+ 40/);
    expectError({ ...SUCCESS, fee_address: `${SUCCESS.fee_address}00` }, "fee_address");
    expectError({ ...SUCCESS, dest_contract: "has space" }, "dest_contract", /non-EVM/);
    expectError({ ...SUCCESS, to_address: "" }, "to_address");
    expectError({ ...SUCCESS, message_id: `0x${"g".repeat(64)}` }, "message_id", /0x \+ 64/);
    expectError({ ...SUCCESS, source_tx_hash: "a".repeat(129) }, "source_tx_hash");
    expectError({ ...SUCCESS, message_id: "" }, "message_id");
  });

  it("error: names and symbols", () => {
    expectError({ ...SUCCESS, source_chain_name: "" }, "source_chain_name", /1-64/);
    expectError({ ...SUCCESS, fee_symbol: " USDC" }, "fee_symbol", /spaces/);
    expectError({ ...SUCCESS, dest_token_symbol: "x".repeat(65) }, "dest_token_symbol");
    expectError({ ...SUCCESS, dest_chain_name: "a\u0000b" }, "dest_chain_name", /control/);
  });

  it("error: times that are not real UTC times in the format", () => {
    for (const bad of [
      "2025-02-29 00:00:00",
      "2025-13-01 00:00:00",
      "2025-01-01T00:00:00",
      "2025-01-01 24:00:00",
      "2025-01-01 00:00:00Z",
      "2025-1-01 00:00:00",
    ]) {
      expectError({ ...SUCCESS, created_at: bad }, "created_at", /YYYY-MM-DD HH:MM:SS/);
    }
  });
});

describe("isValidTime", () => {
  it("default: accepts leap days of leap years only", () => {
    assert.equal(isValidTime("2024-02-29 23:59:59"), true);
    assert.equal(isValidTime("2000-02-29 00:00:00"), true);
    assert.equal(isValidTime("1900-02-29 00:00:00"), false);
    assert.equal(isValidTime("2025-04-31 00:00:00"), false);
  });
});

/** Ways to break one field so that the field alone is invalid, whatever the rest holds. */
function corruptionsFor(field: string): unknown[] {
  if (field.endsWith("_decimals")) return [-1, 37, 2.5, "6", null];
  if (field === "status") return ["success", "Done", "", 0];
  if (field.endsWith("_time") || field.endsWith("_at")) {
    return ["2025-02-30 00:00:00", "2025-01-01", "yesterday", 1700000000, null];
  }
  if (field === "protocol") return ["", "Reference", "layer zero", "-x", 7, null];
  if (/amount|fee$|_fee/.test(field) && !/^(xproto_)?fee_/.test(field)) {
    return ["-1", "1e3", "abc", "1.", "1".padEnd(90, "0"), 1, null];
  }
  if (field.endsWith("_name") || field.endsWith("_symbol")) return ["", " x", 7, null];
  // addresses and hashes
  return ["0x12", `0x${"z".repeat(40)}`, "white space", "a".repeat(129), 42, null];
}

describe("parseTransferRecord properties", () => {
  const recordArb = fc.constantFrom(...SAMPLE);

  it("behavior: valid records round-trip through re-cased, re-padded inputs", () => {
    fc.assert(
      fc.property(recordArb, fc.boolean(), fc.nat(3), (record, upper, pad) => {
        const variant: Record<string, unknown> = { ...record };
        for (const field of TRANSFER_FIELDS) {
          const value = record[field];
          if (typeof value !== "string") continue;
          if (/^0x[0-9a-fA-F]{40}$/.test(value) || /^0x[0-9a-f]{64}$/.test(value)) {
            variant[field] =
              `0x${upper ? value.slice(2).toUpperCase() : value.slice(2).toLowerCase()}`;
          } else if (/^[0-9]+(\.[0-9]+)?$/.test(value) && pad > 0) {
            variant[field] = "0".repeat(pad) + value + (value.includes(".") ? "0".repeat(pad) : "");
          }
        }
        assert.deepEqual(parsed(variant), record);
      }),
      { numRuns: 300 },
    );
  });

  it("error: any single-field corruption is rejected naming that field", () => {
    const fieldArb = fc.constantFrom(...TRANSFER_FIELDS);
    fc.assert(
      fc.property(
        recordArb,
        fieldArb.chain((field) =>
          fc.tuple(fc.constant(field), fc.constantFrom("delete", ...corruptionsFor(field))),
        ),
        (record, [field, corruption]) => {
          const variant: Record<string, unknown> = { ...record };
          if (corruption === "delete") delete variant[field];
          else variant[field] = corruption;
          expectError(variant, field);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("error: any unknown extra field is rejected naming it", () => {
    fc.assert(
      fc.property(
        recordArb,
        fc
          .string({ minLength: 1 })
          .filter((k) => !(TRANSFER_FIELDS as readonly string[]).includes(k) && k !== "__proto__"),
        (record, key) => expectError({ ...record, [key]: "x" }, key),
      ),
      { numRuns: 200 },
    );
  });
});
