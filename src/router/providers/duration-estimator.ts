/**
 * A quote's `estimatedDuration` (docs/router.md, "estimatedDuration"): how long recent `Success`
 * transfers of the same bridge contract between the same two chains took, send to delivery
 * (end_time - start_time of the records). Computed in the background from the store every
 * `refreshIntervalMs` and kept in memory, so a quote only looks a route up in a Map: no database
 * query on the request path.
 *
 * Window: the `Success` records among the latest SETTLEMENT_SCAN_LIMIT stored whose start_time
 * is within the last DURATION_WINDOW_SECONDS; fewer than MIN_DURATION_SAMPLES of a route give
 * null. Percentiles by nearest rank: the p-th is the ceil(p/100 × n)-th smallest duration.
 */
import type { Settlement } from "../../domain/settlement.js";
import { errorMessage } from "../../errors.js";
import type { DurationLookup, EstimatedDuration } from "../quote-extensions.js";
import type { CandidateRoute } from "../routes.js";
import type { ProviderLogger } from "./chain-state-provider.js";

export const DURATION_WINDOW_SECONDS = 24 * 60 * 60;
export const SETTLEMENT_SCAN_LIMIT = 10_000;
export const MIN_DURATION_SAMPLES = 5;
export const DURATION_REFRESH_INTERVAL_MS = 30_000;

export type { Settlement };

export interface SettlementSource {
  recentSettlements?(limit: number): Promise<Settlement[]>;
}

export interface DurationEstimatorOptions {
  source: SettlementSource;
  refreshIntervalMs?: number;
  windowSeconds?: number;
  minSamples?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
  logger?: ProviderLogger;
}

export interface DurationEstimator {
  /** The current estimate of a route's bridge contract and chains (null: too few samples). */
  readonly lookup: DurationLookup;
  /** Reads the store and replaces the estimates (rejects when the read fails). */
  refresh(): Promise<void>;
  /** Refreshes now and then every refreshIntervalMs; a failed read keeps the last estimates. */
  start(): void;
  stop(): void;
}

const routeKey = (bridge: string, sourceChainName: string, destChainName: string) =>
  `${bridge.toLowerCase()}|${sourceChainName}|${destChainName}`;

/** Seconds since the epoch of a UTC `YYYY-MM-DD HH:MM:SS`; NaN for "" or anything else. */
function parseUtc(text: string): number {
  return Date.parse(`${text.replace(" ", "T")}Z`) / 1000;
}

/** The p-th percentile (nearest rank) of ascending `sorted` (non-empty). */
export function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Estimates by route key from settled transfers (pure; exported for tests). */
export function estimateDurations(
  settlements: readonly Settlement[],
  options: { nowSeconds: number; windowSeconds: number; minSamples: number },
): Map<string, EstimatedDuration> {
  const since = options.nowSeconds - options.windowSeconds;
  const byRoute = new Map<string, number[]>();
  for (const s of settlements) {
    const start = parseUtc(s.startTime);
    const end = parseUtc(s.endTime);
    if (!(start >= since) || Number.isNaN(end)) continue;
    const key = routeKey(s.sourceContract, s.sourceChainName, s.destChainName);
    let list = byRoute.get(key);
    if (list === undefined) {
      list = [];
      byRoute.set(key, list);
    }
    // Two chains' clocks: a delivery stamped before its send counts as immediate.
    list.push(Math.max(0, end - start));
  }
  const estimates = new Map<string, EstimatedDuration>();
  for (const [key, durations] of byRoute) {
    if (durations.length < options.minSamples) continue;
    durations.sort((a, b) => a - b);
    estimates.set(
      key,
      Object.freeze({
        p50Seconds: nearestRank(durations, 50),
        p90Seconds: nearestRank(durations, 90),
        samples: durations.length,
      }),
    );
  }
  return estimates;
}

export function createDurationEstimator(options: DurationEstimatorOptions): DurationEstimator {
  const interval = options.refreshIntervalMs ?? DURATION_REFRESH_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let estimates = new Map<string, EstimatedDuration>();
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  async function refresh(): Promise<void> {
    const read = options.source.recentSettlements;
    if (read === undefined) return;
    const settlements = await read.call(options.source, SETTLEMENT_SCAN_LIMIT);
    estimates = estimateDurations(settlements, {
      nowSeconds: now() / 1000,
      windowSeconds: options.windowSeconds ?? DURATION_WINDOW_SECONDS,
      minSamples: options.minSamples ?? MIN_DURATION_SAMPLES,
    });
  }

  function tick(): void {
    refresh().then(
      () => {
        failures = 0;
      },
      (error: unknown) => {
        // The last estimates stay in use; warn on the first failure and every tenth.
        if (failures++ % 10 === 0) {
          options.logger?.warn(
            { err: errorMessage(error), failures },
            "router: cannot read settled transfers for duration estimates; keeping the last ones",
          );
        }
      },
    );
  }

  // A route's key, written once per route (the lookup runs on every quote).
  const keys = new WeakMap<CandidateRoute, string>();
  const keyOf = (route: CandidateRoute): string => {
    let key = keys.get(route);
    if (key === undefined) {
      key = routeKey(route.bridge, route.sourceChain.name, route.destChain.name);
      keys.set(route, key);
    }
    return key;
  };

  return {
    lookup: (route: CandidateRoute) => estimates.get(keyOf(route)) ?? null,
    refresh,
    start() {
      if (timer !== undefined) return;
      tick();
      timer = setInterval(tick, interval);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
