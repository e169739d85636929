import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createRouterFixture } from "../fixtures.js";
import { createRouteIndex } from "../routes.js";
import {
  createDurationEstimator,
  estimateDurations,
  nearestRank,
  type Settlement,
} from "./duration-estimator.js";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const at = (secondsBefore: number) =>
  new Date(NOW - secondsBefore * 1000).toISOString().slice(0, 19).replace("T", " ");

describe("duration estimates", () => {
  const f = createRouterFixture();
  const route = createRouteIndex(f.registry).routes(
    f.token("alpha", "USDC"),
    f.token("beta", "USDC"),
  )[0]!;
  const settled = (startBefore: number, seconds: number, over: Partial<Settlement> = {}) => ({
    sourceContract: route.bridge.toLowerCase(),
    sourceChainName: "alpha",
    destChainName: "beta",
    startTime: at(startBefore),
    endTime: at(startBefore - seconds),
    ...over,
  });

  it("default: nearest-rank p50 and p90 of the route's transfers in the window, null below 5", async () => {
    const rows = [12, 3, 40, 7, 9, 100].map((s, i) => settled(600 + i, s));
    rows.push(settled(90_000, 1)); // started before the 24 h window
    rows.push(settled(60, 5, { destChainName: "gamma" })); // another route
    const other = Object.values(f.chain("alpha").bridges).find((b) => b !== route.bridge)!;
    rows.push(settled(60, 5, { sourceContract: other })); // another bridge
    let served = rows;
    const estimator = createDurationEstimator({
      source: { recentSettlements: async () => served },
      now: () => NOW,
    });
    assert.equal(estimator.lookup(route), null, "nothing read yet");
    await estimator.refresh();
    assert.deepEqual(estimator.lookup(route), { p50Seconds: 9, p90Seconds: 100, samples: 6 });
    served = rows.slice(2);
    await estimator.refresh();
    assert.equal(estimator.lookup(route), null, "4 samples in the window");
  });

  it("behavior: nearestRank is the ceil(p/100 n)-th smallest", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 100 }),
        (xs, p) => {
          const sorted = [...xs].sort((a, b) => a - b);
          const value = nearestRank(sorted, p);
          const atMost = sorted.filter((x) => x <= value).length;
          assert.ok(atMost >= (p / 100) * sorted.length, "atMost >= (p / 100) * sorted.length");
          assert.ok(
            sorted.filter((x) => x < value).length < (p / 100) * sorted.length,
            "sorted.filter((x) => x < value).length < (p / 100) * sorted.length",
          );
        },
      ),
    );
  });

  it("behavior: a delivery stamped before its send counts as 0 s; unfinished rows are skipped", () => {
    const rows = [
      settled(100, -5),
      settled(100, 0),
      settled(100, 2),
      settled(100, 2),
      settled(100, 2),
    ];
    rows.push({ ...settled(100, 1), endTime: "" });
    const estimates = estimateDurations(rows, {
      nowSeconds: NOW / 1000,
      windowSeconds: 86_400,
      minSamples: 5,
    });
    assert.deepEqual([...estimates.values()], [{ p50Seconds: 2, p90Seconds: 2, samples: 5 }]);
  });

  it("error: a failed read keeps the last estimates", async () => {
    let fail = false;
    const warnings: string[] = [];
    const estimator = createDurationEstimator({
      source: {
        recentSettlements: async () => {
          if (fail) throw new Error("database down");
          return [1, 2, 3, 4, 5].map((s) => settled(100, s));
        },
      },
      now: () => NOW,
      logger: { info() {}, warn: (_fields, msg) => warnings.push(msg) },
    });
    await estimator.refresh();
    fail = true;
    await assert.rejects(estimator.refresh(), /database down/);
    assert.deepEqual(estimator.lookup(route), { p50Seconds: 3, p90Seconds: 5, samples: 5 });
  });
});
