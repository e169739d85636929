/**
 * A node whose eth_getLogs answer lacks a log's keys (transactionHash, logIndex, blockHash,
 * topics): the call fails as a malformed answer (retried, then reported in the chain's row)
 * instead of handing the indexer a log keyed "0x" / NaN, or one whose missing blockHash reads
 * as a reorganisation in progress and is retried silently for good.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { ChainRpcError, createChainClient } from "../../src/chain/create-chain-client.js";

const LOG = {
  address: "0x1111111111111111111111111111111111111111",
  topics: [`0x${"ab".repeat(32)}`],
  data: "0x",
  blockNumber: "0x5",
  blockHash: `0x${"01".repeat(32)}`,
  transactionHash: `0x${"02".repeat(32)}`,
  transactionIndex: "0x0",
  logIndex: "0x0",
  removed: false,
};

async function startStub(log: Record<string, unknown>) {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const { id } = JSON.parse(body) as { id: number };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: [log] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

async function getLogs(log: Record<string, unknown>) {
  const stub = await startStub(log);
  try {
    const client = createChainClient({
      rpcUrl: stub.url,
      chainId: 71001,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    return await client.getLogs({ addresses: [], topics: [], fromBlock: 1, toBlock: 10 });
  } finally {
    await stub.close();
  }
}

describe("chain client: malformed eth_getLogs answers", () => {
  it("behavior: a complete log is returned", async () => {
    const [log] = await getLogs(LOG);
    assert.equal(log?.transactionHash, LOG.transactionHash);
    assert.equal(log?.logIndex, 0);
  });

  for (const field of ["transactionHash", "logIndex", "blockHash", "topics", "data"]) {
    it(`error: a log without ${field} fails the call as a malformed answer`, async () => {
      const { [field]: _dropped, ...rest } = LOG as Record<string, unknown>;
      await assert.rejects(getLogs(rest), (error: unknown) => {
        assert.ok(error instanceof ChainRpcError, String(error));
        assert.match(error.message, new RegExp(`missing or malformed ${field}`));
        assert.match(error.summary, /eth_getLogs\(1\.\.10\) failed \(a malformed answer;/);
        return true;
      });
    });
  }
});
