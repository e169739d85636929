import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_STATE, listQuery, parseState, serializeState, toggleSort } from "./url-state.js";

describe("explorer URL state", () => {
  it("default: an empty query is the default state and serializes to nothing", () => {
    assert.deepEqual(parseState(""), DEFAULT_STATE);
    assert.equal(serializeState(DEFAULT_STATE), "");
  });

  it("behavior: a state round-trips through the URL", () => {
    const state = { q: "0xabc", page: 3, size: 25, sort: "send_amount", order: "asc" } as const;
    const query = serializeState(state);
    assert.equal(query, "q=0xabc&page=3&size=25&sort=send_amount&order=asc");
    assert.deepEqual(parseState(`?${query}`), state);
  });

  it("behavior: invalid values fall back to their defaults instead of failing", () => {
    assert.deepEqual(parseState("?q=%20x%20&page=0&size=7&sort=drop_table&order=sideways"), {
      ...DEFAULT_STATE,
      q: "x",
    });
    assert.equal(parseState("?page=-2").page, 1);
    assert.equal(parseState("?page=2.5").page, 1);
    assert.equal(parseState("?page=99999999999").page, 1);
    assert.equal(parseState("?order=ASC").order, "asc");
  });

  it("behavior: the list endpoint gets every parameter as a string", () => {
    assert.deepEqual(listQuery({ ...DEFAULT_STATE, q: "0xabc", page: 2 }), {
      addressOrTxHash: "0xabc",
      pageNo: "2",
      pageSize: "10",
      sortName: "created_at",
      sortOrder: "desc",
    });
  });

  it("behavior: a header click flips its own column, starts another column descending, resets the page", () => {
    const start = { ...DEFAULT_STATE, q: "x", page: 4 };
    const first = toggleSort(start, "send_amount");
    assert.deepEqual([first.sort, first.order, first.page], ["send_amount", "desc", 1]);
    const second = toggleSort(first, "send_amount");
    assert.equal(second.order, "asc");
    assert.equal(toggleSort(second, "send_amount").order, "desc");
    assert.equal(toggleSort(second, "start_time").order, "desc");
  });
});
