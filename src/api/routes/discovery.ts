/**
 * The discovery endpoints (docs/router.md, "Discovery"): `GET /api/oracle/chains`, `/tokens`
 * and `/connections`, what the router can quote, from the registry and the current state
 * snapshot. No key needed; rate limited like every route. Without a registry they answer empty
 * lists (and /tokens, /connections refuse any chain id: there is none).
 */
import type { FastifyInstance } from "fastify";
import type { Registry, RegistryChain } from "../../domain/registry.js";
import { ApiError } from "../../errors.js";
import { type ConnectionFilter, createConnectionCatalog } from "../../router/connections.js";
import type { StateSource } from "../../router/providers/chain-state-provider.js";
import {
  chainsRouteSchema,
  connectionsRouteSchema,
  tokensRouteSchema,
} from "../schemas/discovery.js";

export const DISCOVERY_PATHS = {
  chains: "/api/oracle/chains",
  tokens: "/api/oracle/tokens",
  connections: "/api/oracle/connections",
} as const;

/** One chain's indexing progress, as the indexer's status rows give it. */
export interface IndexedChainProgress {
  chainId: number;
  /** Last block whose events are stored. */
  cursorBlock: number;
  /** Blocks behind the confirmed head. */
  lag: number;
}

export interface DiscoveryRouteDeps {
  registry: Registry | undefined;
  state: StateSource;
  slippageBps: number;
  /**
   * Reads the indexer's progress per chain from the database (serve passes the indexer status
   * reader); absent, or failing, every chain's `indexer` is null.
   */
  indexerStatus?: () => Promise<readonly IndexedChainProgress[]>;
}

/** How long /chains waits for the indexer status before answering without it. */
const INDEXER_STATUS_TIMEOUT_MS = 1000;

export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryRouteDeps): void {
  const { registry } = deps;
  const catalog =
    registry === undefined ? undefined : createConnectionCatalog(registry, deps.slippageBps);
  const chains = registry?.chains ?? [];
  const noValidation = { validatorCompiler: () => (value: unknown) => ({ value }) };

  app.get(DISCOVERY_PATHS.chains, {
    schema: chainsRouteSchema,
    handler: async () => {
      const progress = await readProgress(deps.indexerStatus);
      return {
        code: 0,
        msg: "success",
        data: {
          chains: chains.map((chain) => {
            const indexed = progress.get(chain.chainId);
            return {
              chainId: chain.chainId,
              name: chain.name,
              displayName: chain.displayName,
              nativeCurrency: {
                name: chain.nativeName,
                symbol: chain.nativeToken.symbol,
                decimals: chain.nativeToken.decimals,
              },
              rpcUrls: chain.publicRpcUrl === undefined ? [] : [chain.publicRpcUrl],
              blockExplorerUrls:
                chain.blockExplorerUrl === undefined ? [] : [chain.blockExplorerUrl],
              bridgeChainIds: chain.bridgeChainIds,
              // A contract a protocol quotes (an OFT of a mesh) is not index-only.
              indexOnly: chain.indexOnly
                .filter((b) => catalog?.isRouted(chain.chainId, b.address) !== true)
                .map((b) => ({
                  protocol: b.protocol,
                  bridgeType: b.kind,
                  contract: b.address,
                })),
              indexer:
                indexed === undefined
                  ? null
                  : { indexedBlock: indexed.cursorBlock, lagBlocks: indexed.lag },
            };
          }),
        },
      };
    },
  });

  app.get(DISCOVERY_PATHS.tokens, {
    schema: tokensRouteSchema,
    ...noValidation,
    handler: (request) => {
      const query = request.query as Record<string, unknown>;
      const only = optionalChain(query, "chainId", registry);
      const tokens = (only === undefined ? chains : [only]).flatMap((chain) =>
        chain.tokens.map((token) => ({
          chainId: token.chainId,
          address: token.address,
          symbol: token.symbol,
          decimals: token.decimals,
          isBridgeToken: catalog?.isBridgeToken(token) ?? false,
        })),
      );
      return Promise.resolve({ code: 0, msg: "success", data: { tokens } });
    },
  });

  app.get(DISCOVERY_PATHS.connections, {
    schema: connectionsRouteSchema,
    ...noValidation,
    handler: (request) => {
      const query = request.query as Record<string, unknown>;
      const filter: ConnectionFilter = {};
      const source = optionalChain(query, "sourceChain", registry);
      const dest = optionalChain(query, "destChain", registry);
      if (source !== undefined) filter.sourceChain = source.chainId;
      if (dest !== undefined) filter.destChain = dest.chainId;
      const connections = catalog?.connections(deps.state.current(), filter) ?? [];
      return Promise.resolve({ code: 0, msg: "success", data: { connections } });
    },
  });
}

/**
 * The registry chain a query parameter names, undefined when the parameter is absent; 40001
 * naming it when it is repeated, not a numeric string, or not a chain of the registry.
 */
function optionalChain(
  query: Record<string, unknown>,
  name: string,
  registry: Registry | undefined,
): RegistryChain | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw new ApiError("invalidParameter", `${name} must be given once`);
  }
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  // Up to 20 digits, leading zeros allowed: what the router takes (validate-request.ts).
  const chain = /^[0-9]{1,20}$/.test(value) ? registry?.chain(Number(value)) : undefined;
  if (chain === undefined) {
    const known = (registry?.chains ?? []).map((c) => c.chainId).join(", ") || "none configured";
    throw new ApiError(
      "invalidParameter",
      `${name} must be the EVM chain id of a chain this service routes (${known}), as a numeric string; got ${JSON.stringify(shown)}`,
    );
  }
  return chain;
}

async function readProgress(
  read: DiscoveryRouteDeps["indexerStatus"],
): Promise<Map<number, IndexedChainProgress>> {
  if (read === undefined) return new Map();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), INDEXER_STATUS_TIMEOUT_MS);
  });
  try {
    const rows = await Promise.race([read(), timeout]);
    return new Map(rows.map((row) => [row.chainId, row]));
  } catch {
    // The chains are still worth answering; the indexer's progress is then unknown (null).
    return new Map();
  } finally {
    clearTimeout(timer);
  }
}
