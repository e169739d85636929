import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IndexerChainStatus } from "../store/indexer-repository.js";
import { summariseIndexerStatus } from "./indexer-readiness.js";

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
  leader: "",
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
          leader: "",
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
  it("error: a chain still starting, or retrying a failed step, is not ready and says why", () => {
    // Regression: a chain whose RPC never answered kept its fresh "starting" row (head 0,
    // lag 0) and read as ready; one retrying an RPC outage showed its last healthy lag.
    const starting = summariseIndexerStatus([row({ state: "starting", headBlock: 0, lag: 0 })], {
      now: NOW,
    });
    assert.equal(starting.ready, false);
    assert.equal(starting.reason, "chain alpha is starting: it has not read its chain head yet");
    const unreachable = summariseIndexerStatus(
      [
        row({
          state: "starting",
          headBlock: 0,
          lag: 0,
          error: "chain 71001 (http://n/): eth_chainId failed: fetch failed",
        }),
      ],
      { now: NOW },
    );
    assert.match(unreachable.reason, /^chain alpha is starting: chain 71001 .*eth_chainId failed/);
    const retrying = summariseIndexerStatus(
      [row({ error: "chain 71002 (http://m/): readTokenMetadata failed: timeout" })],
      { now: NOW },
    );
    assert.equal(retrying.ready, false);
    assert.match(retrying.reason, /^chain alpha is retrying: chain 71002 .*readTokenMetadata/);
    // A dead indexer is named as such even when its row holds an older error.
    assert.match(
      summariseIndexerStatus([row({ error: "x", updatedAt: "2026-11-21 11:00:00" })], { now: NOW })
        .reason,
      /not been updated for 3630 s/,
    );
  });
});
