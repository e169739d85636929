/**
 * An indexer config of one chain whose RPC refuses connections (port 1): `bridge-oracle index`
 * starts, logs a retry warning within seconds and keeps retrying, without any node. For CLI
 * tests of start-up, logging and stopping.
 */
import { writeFile } from "node:fs/promises";

function refusedChain(rpcUrl = "http://127.0.0.1:1") {
  return {
    name: "alpha",
    chainId: 71001,
    rpcUrl,
    bridges: { "0": "0x1111111111111111111111111111111111111111" },
    bridgeChainIds: { "0": "71001" },
  };
}

/** Writes the one-chain config to `path` and returns `path`. */
export async function writeRefusedChainConfig(path: string, rpcUrl?: string): Promise<string> {
  await writeFile(path, JSON.stringify({ chains: [refusedChain(rpcUrl)] }));
  return path;
}
