import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ApiError } from "../../errors.js";
import { classifyAddressOrTxHash } from "../../store/transfer-match.js";
import { SORT_FIELDS } from "../../store/types.js";
import { MAX_PAGE_NO, parseListTransfersQuery, SORT_NAMES } from "./list-transfers-query.js";

const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const HASH = `0x${"Ab".repeat(32)}`;

function base(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { addressOrTxHash: ADDRESS, pageNo: "1", pageSize: "10", ...extra };
}

/** Asserts a 400 40001 whose message starts with the parameter name and matches `pattern`. */
function rejects(raw: Record<string, unknown>, parameter: string, pattern?: RegExp): void {
  assert.throws(
    () => parseListTransfersQuery(raw),
    (error: unknown) => {
      assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
      assert.equal(error.code, 40001);
      assert.equal(error.status, 400);
      assert.ok(error.message.startsWith(`${parameter} `), error.message);
      if (pattern !== undefined) assert.match(error.message, pattern);
      return true;
    },
  );
}

const hexChar = fc.constantFrom(..."0123456789abcdefABCDEF");
const hex = (length: number) =>
  fc.array(hexChar, { minLength: length, maxLength: length }).map((cs) => `0x${cs.join("")}`);
const whitespace = fc.constantFrom("", " ", "  ", "\t", "\n", " \t ");
const otherChar = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_-",
);

describe("parseListTransfersQuery", () => {
  it("default: sorts by created_at desc; offset from pageNo and pageSize", () => {
    assert.deepEqual(parseListTransfersQuery(base({ pageNo: "3", pageSize: "20" })), {
      query: {
        match: { kind: "evmAddress", value: ADDRESS.toLowerCase() },
        offset: 40,
        limit: 20,
        sortField: "created_at",
        sortOrder: "desc",
      },
      page: { page: 3, pageSize: 20 },
    });
  });

  it("behavior: classifies addresses, hashes and other ids after trimming", () => {
    assert.deepEqual(classifyAddressOrTxHash(ADDRESS), {
      kind: "evmAddress",
      value: ADDRESS.toLowerCase(),
    });
    assert.deepEqual(classifyAddressOrTxHash(HASH), { kind: "evmHash", value: HASH.toLowerCase() });
    assert.deepEqual(classifyAddressOrTxHash("cosmos1abc:x_y-z"), {
      kind: "other",
      value: "cosmos1abc:x_y-z",
    });
    // Hex of another length is not an EVM value: matched exactly as an "other" id.
    assert.deepEqual(classifyAddressOrTxHash("0xabc"), { kind: "other", value: "0xabc" });
    const parsed = parseListTransfersQuery(base({ addressOrTxHash: `  ${HASH}\t` }));
    assert.deepEqual(parsed.query.match, { kind: "evmHash", value: HASH.toLowerCase() });
  });

  it("behavior: every sortName spelling, snake and camel, maps to its field", () => {
    assert.equal(SORT_NAMES.length, 12);
    for (const field of SORT_FIELDS) {
      const camel = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      assert.equal(parseListTransfersQuery(base({ sortName: field })).query.sortField, field);
      assert.equal(parseListTransfersQuery(base({ sortName: camel })).query.sortField, field);
    }
  });

  it("behavior: sortOrder is case-insensitive", () => {
    for (const [value, order] of [
      ["asc", "asc"],
      ["ASC", "asc"],
      ["Desc", "desc"],
      ["DESC", "desc"],
    ] as const) {
      assert.equal(parseListTransfersQuery(base({ sortOrder: value })).query.sortOrder, order);
    }
  });

  it("behavior: empty sortName and sortOrder mean the defaults", () => {
    const { query } = parseListTransfersQuery(base({ sortName: "", sortOrder: "" }));
    assert.equal(query.sortField, "created_at");
    assert.equal(query.sortOrder, "desc");
  });

  it("behavior: unknown parameters are ignored", () => {
    assert.equal(parseListTransfersQuery(base({ _: "123", page: "x" })).page.page, 1);
  });

  it("behavior: the largest pageNo and pageSize give an exact offset", () => {
    const { query } = parseListTransfersQuery(
      base({ pageNo: String(MAX_PAGE_NO), pageSize: "100" }),
    );
    assert.equal(query.offset, (MAX_PAGE_NO - 1) * 100);
    assert.ok(Number.isSafeInteger(query.offset), "Number.isSafeInteger(query.offset)");
  });

  it("error: addressOrTxHash missing, empty, blank, too long or with bad characters", () => {
    rejects({ pageNo: "1", pageSize: "1" }, "addressOrTxHash", /is required/);
    rejects(base({ addressOrTxHash: "" }), "addressOrTxHash", /is required/);
    rejects(base({ addressOrTxHash: "   " }), "addressOrTxHash", /is required/);
    rejects(base({ addressOrTxHash: "a".repeat(129) }), "addressOrTxHash", /1-128 characters/);
    rejects(base({ addressOrTxHash: "abc def" }), "addressOrTxHash", /got 'abc def'/);
    rejects(base({ addressOrTxHash: "a'b" }), "addressOrTxHash");
    rejects(base({ addressOrTxHash: "ünï" }), "addressOrTxHash");
  });

  it("error: pageNo missing, zero, negative, fractional, not a number or too large", () => {
    rejects({ addressOrTxHash: ADDRESS, pageSize: "1" }, "pageNo", /is required/);
    for (const value of ["", "0", "-1", "1.5", "abc", "1e3", " 1", "+1", "0x10", "1000000001"]) {
      rejects(base({ pageNo: value }), "pageNo", /must be an integer from 1 to 1000000000/);
    }
    rejects(base({ pageNo: "9".repeat(400) }), "pageNo", /\.\.\.'$/);
  });

  it("error: pageSize missing, 0 or over 100", () => {
    rejects({ addressOrTxHash: ADDRESS, pageNo: "1" }, "pageSize", /is required/);
    for (const value of ["0", "101", "-5", "10.0", "ten"]) {
      rejects(base({ pageSize: value }), "pageSize", /must be an integer from 1 to 100, got/);
    }
  });

  it("error: bad sortName lists the allowed values", () => {
    rejects(
      base({ sortName: "amount" }),
      "sortName",
      /^sortName must be one of created_at, createdAt, updated_at, updatedAt, start_time, startTime, end_time, endTime, send_amount, sendAmount, receive_amount, receiveAmount, got 'amount'$/,
    );
    rejects(base({ sortName: "CREATED_AT" }), "sortName");
    rejects(base({ sortName: "__proto__" }), "sortName");
    rejects(base({ sortName: "toString" }), "sortName");
  });

  it("error: bad sortOrder lists the allowed values", () => {
    rejects(base({ sortOrder: "up" }), "sortOrder", /must be asc or desc/);
  });

  it("error: a repeated parameter is refused", () => {
    for (const name of ["addressOrTxHash", "pageNo", "pageSize", "sortName", "sortOrder"]) {
      rejects(base({ [name]: ["1", "2"] }), name, /must be given once, got 2 values/);
    }
  });
});

describe("parseListTransfersQuery properties", () => {
  it("behavior: any EVM address in any case, padded with whitespace, matches lowercase", () => {
    fc.assert(
      fc.property(hex(40), whitespace, whitespace, (address, before, after) => {
        const { query } = parseListTransfersQuery(
          base({ addressOrTxHash: `${before}${address}${after}` }),
        );
        assert.deepEqual(query.match, { kind: "evmAddress", value: address.toLowerCase() });
      }),
    );
  });

  it("behavior: any 32-byte hex matches as a lowercase hash", () => {
    fc.assert(
      fc.property(hex(64), (hash) => {
        const { query } = parseListTransfersQuery(base({ addressOrTxHash: hash }));
        assert.deepEqual(query.match, { kind: "evmHash", value: hash.toLowerCase() });
      }),
    );
  });

  it("behavior: other ids of 1-128 allowed characters match exactly", () => {
    fc.assert(
      fc.property(fc.array(otherChar, { minLength: 1, maxLength: 128 }), (chars) => {
        const id = chars.join("");
        fc.pre(!/^0x[0-9a-fA-F]{40}$/.test(id) && !/^0x[0-9a-fA-F]{64}$/.test(id));
        const { query } = parseListTransfersQuery(base({ addressOrTxHash: id }));
        assert.deepEqual(query.match, { kind: "other", value: id });
      }),
    );
  });

  it("error: any value with a character outside the allowed set is refused", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(" ", "/", "'", '"', "%", ".", "é", "\u0000", "<", ";"),
        fc.string({ maxLength: 40 }),
        (before, bad, after) => {
          const value = `${before}x${bad}y${after}`;
          fc.pre(/[^A-Za-z0-9:_-]/.test(value.trim()));
          rejects(base({ addressOrTxHash: value }), "addressOrTxHash");
        },
      ),
    );
  });

  it("behavior: any pageNo and pageSize in range give offset (pageNo - 1) * pageSize", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_PAGE_NO }),
        fc.integer({ min: 1, max: 100 }),
        (pageNo, pageSize) => {
          const parsed = parseListTransfersQuery(
            base({ pageNo: String(pageNo), pageSize: String(pageSize) }),
          );
          assert.equal(parsed.query.offset, (pageNo - 1) * pageSize);
          assert.equal(parsed.query.limit, pageSize);
          assert.deepEqual(parsed.page, { page: pageNo, pageSize });
        },
      ),
    );
  });

  it("error: any integer outside the ranges is refused", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ max: 0n }), fc.bigInt({ min: BigInt(MAX_PAGE_NO) + 1n })),
        (n) => rejects(base({ pageNo: n.toString() }), "pageNo"),
      ),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 })), (n) =>
        rejects(base({ pageSize: String(n) }), "pageSize"),
      ),
    );
  });

  it("behavior: sortOrder in any letter case is accepted", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("asc", "desc"),
        fc.array(fc.boolean(), { minLength: 4 }),
        (o, ups) => {
          const mixed = [...o].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join("");
          assert.equal(parseListTransfersQuery(base({ sortOrder: mixed })).query.sortOrder, o);
        },
      ),
    );
  });

  it("error: arbitrary query objects either parse or fail with 40001, never otherwise", () => {
    const value = fc.oneof(
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(
        fc.record({
          addressOrTxHash: value,
          pageNo: fc.oneof(value, fc.nat().map(String)),
          pageSize: fc.oneof(value, fc.integer({ min: 0, max: 120 }).map(String)),
          sortName: fc.oneof(value, fc.constantFrom(...SORT_NAMES)),
          sortOrder: fc.oneof(value, fc.constantFrom("asc", "DESC")),
        }),
        (raw) => {
          try {
            const { query } = parseListTransfersQuery(raw);
            assert.ok(
              query.limit >= 1 && query.limit <= 100,
              "query.limit >= 1 && query.limit <= 100",
            );
            assert.ok(
              Number.isSafeInteger(query.offset) && query.offset >= 0,
              "Number.isSafeInteger(query.offset) && query.offset >= 0",
            );
          } catch (error) {
            assert.ok(error instanceof ApiError && error.code === 40001, String(error));
          }
        },
      ),
    );
  });
});
