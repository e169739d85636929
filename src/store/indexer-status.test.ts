import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IndexerChainStatus } from "./indexer-repository.js";
import { summariseIndexerStatus } from "./indexer-status.js";

const NOW = () => new Date("2026-11-21T12:00:30Z");
const row = (over: Partial<IndexerChainStatus> = {}): IndexerChainStatus => ({
  chainId: 71001,
  name: "alpha",
  startBlock: 1,
  cursorBlock: 100,
  cursorHash: "0xab",
  headBlock: 102,
  targetBlock: 102,
  state: "following",
  error: "",
  updatedAt: "2026-11-21 12:00:20",
  lag: 2,
  ...over,
});

describe("summariseIndexerStatus", () => {
  it("default: a chain close to its head and recently updated is ready", () => {
    const s = summariseIndexerStatus([row()], { now: NOW });
    assert.deepEqual(s, {
      ready: true,
      reason: "",
      chains: [
        {
          chain: "alpha",
          chainId: 71001,
          state: "following",
          indexedBlock: 100,
          head: 102,
          lag: 2,
          updatedAt: "2026-11-21 12:00:20",
          error: "",
        },
      ],
    });
  });
  it("error: lagging, silent, stopped or never started chains are named", () => {
    assert.match(
      summariseIndexerStatus([row({ lag: 500 })], { now: NOW }).reason,
      /alpha is 500 blocks behind/,
    );
    assert.match(
      summariseIndexerStatus([row({ updatedAt: "2026-11-21 11:00:00" })], { now: NOW }).reason,
      /not been updated for 3630 s/,
    );
    assert.match(
      summariseIndexerStatus([row({ state: "stopped", error: "reorg deeper" })], { now: NOW })
        .reason,
      /alpha stopped: reorg deeper/,
    );
    assert.equal(summariseIndexerStatus([], { now: NOW }).ready, false);
  });
});
