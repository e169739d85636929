/**
 * request-stats.ts: the per-request counter and histogram that prom-client reads on scrape must
 * expose exactly what prom-client's own Counter and Histogram would for the same observations.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Counter, Histogram, Registry } from "prom-client";
import { createRequestStats } from "../../src/api/plugins/request-stats.js";

const BUCKETS = [0.001, 0.01, 0.1, 1];

function ours(observations: readonly [string, string, number, number][]): Promise<string> {
  const registry = new Registry();
  const stats = createRequestStats({
    counterName: "req_total",
    counterHelp: "requests",
    histogramName: "req_seconds",
    histogramHelp: "latency",
    buckets: BUCKETS,
  });
  for (const metric of stats.metrics()) {
    registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
  }
  for (const [route, method, status, seconds] of observations) {
    stats.observe(route, method, status, seconds);
  }
  return registry.metrics();
}

function promClients(observations: readonly [string, string, number, number][]): Promise<string> {
  const registry = new Registry();
  const labelNames = ["route", "method", "status_code"];
  const counter = new Counter({
    name: "req_total",
    help: "requests",
    labelNames,
    registers: [registry],
  });
  const histogram = new Histogram({
    name: "req_seconds",
    help: "latency",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  for (const [route, method, status, seconds] of observations) {
    const labels = { route, method, status_code: String(status) };
    counter.inc(labels);
    histogram.observe(labels, seconds);
  }
  return registry.metrics();
}

/** The exposition lines, order-insensitive (series order may differ). */
const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .sort();

describe("request stats", () => {
  it("behavior: the exposition equals prom-client's Counter + Histogram for the same requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom("/a", "/b/:id", 'odd "route"\\', "unmatched"),
            fc.constantFrom("GET", "POST"),
            fc.constantFrom(200, 400, 404, 500),
            fc.oneof(fc.constantFrom(...BUCKETS, 0, 5), fc.double({ min: 0, max: 3, noNaN: true })),
          ),
          { maxLength: 40 },
        ),
        async (observations) => {
          assert.deepEqual(lines(await ours(observations)), lines(await promClients(observations)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("boundary: a value equal to a bucket's bound falls in that bucket (le is inclusive)", async () => {
    const text = await ours([["/a", "GET", 200, 0.01]]);
    assert.match(
      text,
      /req_seconds_bucket\{le="0.001",route="\/a",method="GET",status_code="200"\} 0/,
    );
    assert.match(
      text,
      /req_seconds_bucket\{le="0.01",route="\/a",method="GET",status_code="200"\} 1/,
    );
  });

  it("error: buckets that are not strictly ascending are refused", () => {
    assert.throws(
      () =>
        createRequestStats({
          counterName: "a",
          counterHelp: "a",
          histogramName: "b",
          histogramHelp: "b",
          buckets: [0.1, 0.1],
        }),
      /strictly ascending/,
    );
  });
});
