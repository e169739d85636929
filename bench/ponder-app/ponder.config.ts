/**
 * The Ponder baseline's config (bench/index-ponder.ts writes this app into a temporary folder
 * with `bench-app.json` beside it): the devnet's chains and our reference bridges, the four
 * events, from each chain's deploy block; the database the benchmark chose (PGlite or
 * PostgreSQL). Ponder's own defaults otherwise (omnichain ordering), except its request rate:
 * the default 50 requests/s is a courtesy to public providers, and against a local anvil node it
 * would time Ponder's politeness rather than its indexing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createConfig } from "ponder";
import { http, parseAbi } from "viem";

interface BenchApp {
  chains: { chainId: number; name: string; rpcUrl: string; startBlock: number }[];
  bridges: { chainId: number; address: `0x${string}` }[];
  database: { kind: "pglite"; directory: string } | { kind: "postgres"; connectionString: string };
}

const app = JSON.parse(readFileSync(join(process.cwd(), "bench-app.json"), "utf8")) as BenchApp;

export const BRIDGE_ABI = parseAbi([
  "event TransferSent(bytes32 indexed messageId, address indexed sender, address indexed recipient, uint256 destChainId, address sourceToken, uint256 sendAmount, address sourceBridgeToken, uint256 bridgeAmount, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 minReceiveAmount, uint256 bridgeFee, uint256 xprotoFee, uint256 subsidy)",
  "event TransferDelivered(bytes32 indexed messageId, address indexed recipient, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 receiveAmount)",
  "event TransferFailed(bytes32 indexed messageId, address indexed recipient, string reason)",
  "event TransferRefunded(bytes32 indexed messageId, address indexed sender, address token, uint256 amount)",
]);

export default createConfig({
  database: app.database,
  networks: Object.fromEntries(
    app.chains.map((c) => [
      c.name,
      { chainId: c.chainId, transport: http(c.rpcUrl), maxRequestsPerSecond: 10_000 },
    ]),
  ),
  contracts: {
    Bridge: {
      abi: BRIDGE_ABI,
      network: Object.fromEntries(
        app.chains.map((c) => [
          c.name,
          {
            address: app.bridges.filter((b) => b.chainId === c.chainId).map((b) => b.address),
            startBlock: c.startBlock,
          },
        ]),
      ),
    },
  },
});
