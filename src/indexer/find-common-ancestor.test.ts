import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BlockHeader, ChainClient } from "../chain/create-chain-client.js";
import type { IndexerRepository, StoredBlock } from "../store/indexer-repository.js";
import { findCommonAncestor, ReorgTooDeepError } from "./find-common-ancestor.js";

const h = (n: number, fork = "a") => `0x${fork}${String(n).padStart(63, "0")}`;

function setup(stored: StoredBlock[], canonical: (n: number) => string | undefined) {
  const client = {
    getBlockHeader: async (n: number) => {
      const hash = canonical(n);
      return hash === undefined
        ? undefined
        : ({ number: n, hash, parentHash: "0x", timestamp: 0 } as BlockHeader);
    },
  } as unknown as ChainClient;
  const repository = {
    blocksDescending: async (_c: number, from: number, limit: number) =>
      stored
        .filter((b) => b.number <= from)
        .sort((a, b) => b.number - a.number)
        .slice(0, limit),
  } as unknown as IndexerRepository;
  return { client, repository };
}

const blocks = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    number: from + i,
    hash: h(from + i),
    parentHash: "0x",
  }));

/** findCommonAncestor on chain 1 (alpha), cursor 100, start block 0, finalityDepth 64 unless `over` says otherwise. */
const findAncestor = (
  deps: ReturnType<typeof setup>,
  over: Partial<{ cursorBlock: number; startBlock: number; finalityDepth: number }> = {},
) =>
  findCommonAncestor({
    ...deps,
    chainId: 1,
    chainName: "alpha",
    cursorBlock: 100,
    startBlock: 0,
    finalityDepth: 64,
    ...over,
  });

describe("findCommonAncestor", () => {
  it("default: the highest stored block that is still canonical", async () => {
    const deps = setup(blocks(90, 100), (n) => (n <= 96 ? h(n) : h(n, "b")));
    const a = await findAncestor(deps);
    assert.deepEqual(a, { number: 96, hash: h(96) });
  });
  it("behavior: a chain that got shorter counts as a mismatch", async () => {
    const deps = setup(blocks(90, 100), (n) => (n <= 95 ? h(n) : undefined));
    const a = await findAncestor(deps);
    assert.equal(a.number, 95);
  });
  it("behavior: everything orphaned near the start goes back to before the start block", async () => {
    const deps = setup(blocks(5, 10), (n) => h(n, "b"));
    const a = await findAncestor(deps, { cursorBlock: 10, startBlock: 5 });
    assert.deepEqual(a, { number: 4, hash: "" });
  });
  it("behavior: the window is cursorBlock - finalityDepth .. cursorBlock, both ends included", async () => {
    // Sparse stored blocks (backfill batch ends): the list reaches below the window.
    const sparse = [100, 95, 90, 89].map((n) => ({ number: n, hash: h(n), parentHash: "0x" }));
    const at = (ancestor: number) =>
      findAncestor(
        setup(sparse, (n) => (n <= ancestor ? h(n) : h(n, "b"))),
        { finalityDepth: 10 },
      );
    assert.deepEqual(await at(90), { number: 90, hash: h(90) });
    await assert.rejects(at(89), ReorgTooDeepError, "block 89 is below the window: not guessed");
  });
  it("behavior: the block before the start block is an ancestor only inside the window", async () => {
    const at = (startBlock: number) =>
      findAncestor(
        setup(blocks(startBlock, 100), (n) => h(n, "b")),
        { startBlock, finalityDepth: 10 },
      );
    assert.deepEqual(await at(91), { number: 90, hash: "" });
    await assert.rejects(at(90), ReorgTooDeepError, "block 89 is below the window");
  });
  it("error: a fork with some blocks missing and some different is a reorg, not a reset", async () => {
    const deps = setup(blocks(80, 100), (n) => (n <= 95 ? h(n, "b") : undefined));
    await assert.rejects(
      findAncestor(deps, { finalityDepth: 10 }),
      (e: unknown) => e instanceof ReorgTooDeepError && e.kind === "reorg",
    );
  });
  it("error: no stored block to compare is a reorg error saying so, not a reset", async () => {
    await assert.rejects(
      findAncestor(
        setup([], () => undefined),
        { finalityDepth: 10 },
      ),
      (e: unknown) =>
        e instanceof ReorgTooDeepError &&
        e.kind === "reorg" &&
        /no stored block to compare/.test(e.message),
    );
  });
  it("error: no canonical block within finalityDepth stops loudly", async () => {
    const deps = setup(blocks(80, 100), (n) => (n < 85 ? h(n) : h(n, "b")));
    await assert.rejects(
      findAncestor(deps, { finalityDepth: 10 }),
      (e: unknown) =>
        e instanceof ReorgTooDeepError &&
        /chain alpha: reorg deeper than finalityDepth 10 below indexed block 100/.test(e.message),
    );
  });
  it("error: a reset node (a restarted devnet against an old database) is named as such", async () => {
    // Regression: a fresh devnet indexed into the previous run's database stopped with a bare
    // "reorg deeper than finalityDepth"; the node is simply shorter than the stored chain.
    const deps = setup(blocks(69, 133), (n) => (n <= 10 ? h(n, "c") : undefined));
    await assert.rejects(
      findAncestor(deps, { cursorBlock: 133 }),
      (e: unknown) =>
        e instanceof ReorgTooDeepError &&
        e.kind === "reset" &&
        !/reorg deeper/.test(e.message) &&
        /chain alpha: the node does not have the indexed chain up to block 133/.test(e.message) &&
        /the node has none of the stored blocks 69 to 133: it was reset/.test(e.message) &&
        /use a fresh database/.test(e.message),
    );
  });
});
