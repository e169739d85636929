import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAdaptiveRange } from "./adaptive-range.js";
import type { ChainClient, RawLog } from "./create-chain-client.js";
import { fetchLogs } from "./fetch-logs.js";

function fakeClient(maxSpan: number, spans: [number, number][]): ChainClient {
  return {
    chainId: 1,
    safeUrl: "http://x",
    getChainId: async () => 1,
    getBlockNumber: async () => 1000,
    getBlockHeader: async () => {
      throw new Error("unused");
    },
    getLogs: async ({ fromBlock, toBlock }) => {
      spans.push([fromBlock, toBlock]);
      if (toBlock - fromBlock + 1 > maxSpan) throw new Error("query exceeds max block range 10");
      return [{ blockNumber: fromBlock } as RawLog];
    },
    readTokenMetadata: async () => ({ symbol: "X", decimals: 1 }),
    getTransactionValue: async () => 0n,
  };
}

describe("fetchLogs", () => {
  it("default: one call when the span is accepted, then the range grows", async () => {
    const spans: [number, number][] = [];
    const range = createAdaptiveRange({ initial: 8, max: 100 });
    const out = await fetchLogs(fakeClient(100, spans), {
      addresses: [],
      topics: [],
      fromBlock: 10,
      toBlock: 500,
      range,
    });
    assert.equal(out.toBlock, 17);
    assert.deepEqual(spans, [[10, 17]]);
    assert.equal(range.size, 10);
  });
  it("behavior: halves on a range refusal and returns the covered part", async () => {
    const spans: [number, number][] = [];
    const range = createAdaptiveRange({ initial: 64, max: 1000 });
    const out = await fetchLogs(fakeClient(10, spans), {
      addresses: [],
      topics: [],
      fromBlock: 0,
      toBlock: 1000,
      range,
    });
    assert.deepEqual(spans, [
      [0, 63],
      [0, 31],
      [0, 15],
      [0, 7],
    ]);
    assert.equal(out.toBlock, 7);
    // Grows back but stays below the refused size for a while.
    for (let i = 0; i < 5; i++) range.grow();
    assert.ok(range.size <= 15, String(range.size));
  });
  it("error: a rate limit is thrown to be waited out, not answered by halving the span", async () => {
    const spans: [number, number][] = [];
    const range = createAdaptiveRange({ initial: 64, max: 1000 });
    const client = fakeClient(1000, spans);
    client.getLogs = async ({ fromBlock, toBlock }) => {
      spans.push([fromBlock, toBlock]);
      // What viem makes of a provider's -32005 "rate limit exceeded".
      throw Object.assign(new Error("Request exceeds defined limit."), {
        details: "rate limit exceeded",
        code: -32005,
      });
    };
    await assert.rejects(
      fetchLogs(client, { addresses: [], topics: [], fromBlock: 0, toBlock: 1000, range }),
      /exceeds defined limit/,
    );
    assert.deepEqual(spans, [[0, 63]]);
    assert.equal(range.size, 64);
  });

  it("behavior: never asks past toBlock", async () => {
    const spans: [number, number][] = [];
    const out = await fetchLogs(fakeClient(100, spans), {
      addresses: [],
      topics: [],
      fromBlock: 5,
      toBlock: 6,
      range: createAdaptiveRange({ initial: 50, max: 100 }),
    });
    assert.equal(out.toBlock, 6);
  });
  it("error: a single block that is refused throws", async () => {
    const spans: [number, number][] = [];
    await assert.rejects(
      fetchLogs(fakeClient(0, spans), {
        addresses: [],
        topics: [],
        fromBlock: 5,
        toBlock: 6,
        range: createAdaptiveRange({ initial: 2, max: 2 }),
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      }),
      /max block range/,
    );
  });
});
