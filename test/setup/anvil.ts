/**
 * Shared test setup: anvil chains with the whole devnet deployed. One devnet per test file
 * (`before` / `after`), so suites stay fast on two cores.
 */
import { type AnvilInstance, startAnvil } from "../../src/devnet/anvil.js";
import { type DevnetChainSpec, deployDevnet } from "../../src/devnet/deploy.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";

export interface TestDevnet {
  manifest: DevnetManifest;
  nodes: AnvilInstance[];
  cleanup(): Promise<void>;
}

export interface SetupDevnetParameters {
  /** Chain names; default alpha, beta, gamma with EVM ids 71001.. in order. */
  names?: string[];
  /** Seconds per block; default automine. */
  blockTime?: number;
}

export async function setupDevnet(parameters: SetupDevnetParameters = {}): Promise<TestDevnet> {
  const names = parameters.names ?? ["alpha", "beta", "gamma"];
  const nodes = await Promise.all(
    names.map((_, i) =>
      startAnvil({
        chainId: 71001 + i,
        ...(parameters.blockTime === undefined ? {} : { blockTime: parameters.blockTime }),
      }),
    ),
  );
  const cleanup = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    const chains: DevnetChainSpec[] = names.map((name, i) => ({
      name,
      chainId: nodes[i]!.chainId,
      rpcUrl: nodes[i]!.rpcUrl,
    }));
    const manifest = await deployDevnet({ chains });
    return { manifest, nodes, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
