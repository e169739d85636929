import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RouteQuoteData } from "./api-types.js";
import { DEFAULT_STATE } from "./url-state.js";

// quote-form.ts and home-view.ts touch the DOM only when called with elements: their pure parts
// load in Node.
const { etaText, expiryText } = await import("./quote-form.js");
const { orderFeed } = await import("./home-view.js");
const { amountSortNote, direction } = await import("./transfers-table.js");

const quote = (extra: Partial<RouteQuoteData>) => ({ ...extra }) as RouteQuoteData;

describe("explorer quote and feed helpers", () => {
  it("default: the ETA reads the estimate's median, 90th percentile and sample size", () => {
    assert.equal(
      etaText(quote({ estimatedDuration: { p50Seconds: 45, p90Seconds: 125, samples: 12 } })),
      "About 45 s (9 in 10 within 2 min 5 s; from 12 transfers)",
    );
    assert.equal(
      etaText(quote({ estimatedDuration: null })),
      "No estimate yet: too few transfers on this route",
    );
    assert.equal(etaText(quote({})), "", "a server without the extensions: no row");
  });

  it("default: the expiry counts down, then asks for a new quote", () => {
    const at = Date.UTC(2026, 10, 29, 12, 0, 30);
    assert.equal(expiryText("2026-11-29 12:00:30", at - 27_000), "Valid for 27 s");
    assert.equal(expiryText("2026-11-29 12:00:30", at), "Expired: get a new quote");
    assert.equal(expiryText("soon", at), "");
  });

  it("behavior: the feed orders exactly by the chosen field; 'created' reads as send time", () => {
    const rows = [
      { send_amount: "10", start_time: "2026-01-01 00:00:02", end_time: "" },
      {
        send_amount: "9.99999999999999999999",
        start_time: "2026-01-01 00:00:03",
        end_time: "2026-01-01 00:00:09",
      },
      { send_amount: "100", start_time: "2026-01-01 00:00:01", end_time: "2026-01-01 00:00:05" },
    ] as never[];
    const amounts = (state: Partial<typeof DEFAULT_STATE>) =>
      orderFeed(rows, { ...DEFAULT_STATE, ...state }).map(
        (r: { send_amount: string }) => r.send_amount,
      );
    assert.deepEqual(amounts({ sort: "send_amount", order: "asc" }), [
      "9.99999999999999999999",
      "10",
      "100",
    ]);
    assert.deepEqual(amounts({}), ["9.99999999999999999999", "10", "100"]);
    // An empty end time (in flight) goes last either way.
    assert.deepEqual(amounts({ sort: "end_time", order: "desc" }), [
      "9.99999999999999999999",
      "100",
      "10",
    ]);
    assert.deepEqual(amounts({ sort: "end_time", order: "asc" }), [
      "100",
      "9.99999999999999999999",
      "10",
    ]);
  });

  it("default: amount sorting across tokens is explained; In / Out / Self for the searched address", () => {
    const row = (symbol: string) =>
      ({ source_token_symbol: symbol, dest_token_symbol: symbol }) as never;
    assert.equal(amountSortNote([row("USDC"), row("USDC")], "send_amount"), "");
    assert.match(amountSortNote([row("USDC"), row("DAI")], "send_amount"), /\(DAI, USDC\)/);
    assert.equal(amountSortNote([row("USDC"), row("DAI")], "start_time"), "");
    const t = { from_address: "0xAbC", to_address: "0xdef" } as never;
    assert.equal(direction(t, "0xabc"), "Out");
    assert.equal(direction(t, "0xDEF"), "In");
    assert.equal(direction({ from_address: "0xa", to_address: "0xa" } as never, "0xA"), "Self");
    assert.equal(direction(t, undefined), null);
  });
});
