/**
 * What `serve` runs for the router: resolve the registry (ROUTER_CONFIG, else the devnet
 * manifest at $DEVNET_DIR/manifest.json when it exists, else none), build the router, start the
 * chain state provider, and hand the HTTP route its dependencies and /readyz its check.
 *
 * Without a registry the route still exists and answers 503 50301 "no chains configured for
 * routing", so a server run only for the list endpoint needs no chain configuration.
 *
 * It lives beside serve, not in router/: it wires the router to the HTTP route and the
 * readiness check, and router/ does not depend on api/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ReadinessCheck } from "../api/routes/health.js";
import type { RouterRouteDeps } from "../api/routes/router-quote.js";
import { routerReadinessCheck } from "../api/routes/router-quote.js";
import type { Config } from "../config/env.js";
import { devnetDir, MANIFEST_FILE } from "../devnet/write-manifest.js";
import { loadRegistry, type Registry } from "../domain/registry.js";
import { createRouter } from "../router/create-router.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
  type ProviderLogger,
} from "../router/providers/chain-state-provider.js";
import {
  createDurationEstimator,
  type SettlementSource,
} from "../router/providers/duration-estimator.js";

export interface RouterService {
  /** For buildApp's `router` option. */
  route: RouterRouteDeps;
  /** For buildApp's `readinessChecks`; undefined without a registry. */
  readiness: ReadinessCheck | undefined;
  /** Where the registry came from; undefined without one. */
  registryPath: string | undefined;
  registry: Registry | undefined;
  provider: ChainStateProvider | undefined;
  stop(): Promise<void>;
}

/** ROUTER_CONFIG when set, else $DEVNET_DIR/manifest.json if that file exists, else undefined. */
export function resolveRegistryPath(
  config: Pick<Config, "routerConfig">,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (config.routerConfig !== undefined) return config.routerConfig;
  const manifest = join(devnetDir(env as NodeJS.ProcessEnv), MANIFEST_FILE);
  return existsSync(manifest) ? manifest : undefined;
}

/** The registry file `serve` quotes from, loaded and validated; undefined when there is none. */
export async function loadRouterRegistry(
  config: Pick<Config, "routerConfig">,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ path: string; registry: Registry } | undefined> {
  const path = resolveRegistryPath(config, env);
  return path === undefined ? undefined : { path, registry: await loadRegistry(path) };
}

/**
 * Starts the provider over the registry loadRouterRegistry loaded (one read attempt per chain;
 * unreachable chains keep being retried in the background). Throws RangeError for a chain
 * without an rpcUrl: a start-up error for the operator.
 */
export async function startRouterService(options: {
  config: Config;
  logger: ProviderLogger;
  /** Where quotes' duration estimates are read from, in the background (the API's store). */
  settlements?: SettlementSource;
  /** loadRouterRegistry's answer: the caller checks the registry before anything else. */
  loaded: { path: string; registry: Registry } | undefined;
}): Promise<RouterService> {
  const { config, logger, loaded } = options;
  const empty = { current: () => ({ chains: new Map() }) };
  if (loaded === undefined) {
    logger.info(
      {},
      "router: no registry (ROUTER_CONFIG unset and no devnet manifest): quotes answer 503",
    );
    return {
      route: { router: undefined, state: empty, maxStateAgeMs: config.routerMaxStateAgeMs },
      readiness: undefined,
      registryPath: undefined,
      registry: undefined,
      provider: undefined,
      stop: async () => {},
    };
  }
  const { path: registryPath, registry } = loaded;
  const durations =
    options.settlements === undefined
      ? undefined
      : createDurationEstimator({ source: options.settlements, logger });
  const router = createRouter({
    registry,
    slippageBps: config.routerSlippageBps,
    extensions: {
      ttlSeconds: config.quoteTtlSeconds,
      ...(durations !== undefined ? { estimatedDuration: durations.lookup } : {}),
    },
  });
  const provider = createChainStateProvider({
    registry,
    maxStateAgeMs: config.routerMaxStateAgeMs,
    logger,
  });
  await provider.start();
  durations?.start();
  logger.info(
    {
      registry: registryPath,
      chains: registry.chains.map((c) => c.name),
      links: registry.links.length,
      slippageBps: config.routerSlippageBps,
      maxStateAgeMs: config.routerMaxStateAgeMs,
    },
    `router: ${registry.chains.length} chains, ${registry.links.length} bridge links`,
  );
  return {
    route: { router, state: provider, maxStateAgeMs: config.routerMaxStateAgeMs },
    readiness: routerReadinessCheck(provider),
    registryPath,
    registry,
    provider,
    stop: async () => {
      durations?.stop();
      await provider.stop();
    },
  };
}
