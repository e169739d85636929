/**
 * Probes. `/healthz`: the process is alive (touches nothing). `/readyz`: the database answers
 * and every extra readiness check passes; each check's result becomes a key of `data` (the
 * router's chains, the indexer's summary). Each key is declared in schemas/health.ts, which is
 * also the serialiser: a check with an undeclared name is refused here rather than dropped.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.js";
import { NoAnswerError } from "../../store/store-unavailable.js";
import type { Store } from "../../store/types.js";
import type {} from "../plugins/auth.js"; // FastifyContextConfig.apiKeyIgnored
import type {} from "../plugins/rate-limit.js"; // FastifyContextConfig.rateLimitExempt
import {
  healthzRouteSchema,
  READYZ_CHECK_NAMES,
  readyzRouterRouteSchema,
  readyzRouteSchema,
} from "../schemas/health.js";

export interface ReadinessCheck {
  /**
   * Key of the result in /readyz's data (one of READYZ_CHECK_NAMES, schemas/health.ts); also
   * named in the 503 message when it fails.
   */
  readonly name: string;
  /**
   * Resolves with what to report under `name` when ready. Rejects when not ready: an ApiError
   * (503 50301 with an actionable message) is sent as is; anything else becomes a generic
   * "<name> is not ready" so internals stay out of the response.
   */
  check(): Promise<unknown>;
}

export interface HealthRouteDeps {
  store: Store;
  readinessChecks?: readonly ReadinessCheck[];
  /** How long /readyz waits for any one check; a hung database must not hang the probe. */
  readinessTimeoutMs?: number;
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthRouteDeps): void {
  const timeoutMs = deps.readinessTimeoutMs ?? 2000;
  const database: ReadinessCheck = {
    name: "database",
    check: async () => {
      try {
        // The store keeps the deadline itself, so it can say whether the primary or the read
        // replica is the one not answering.
        await deps.store.ping({ timeoutMs });
      } catch (cause) {
        throw new ApiError("serviceUnavailable", databaseNotReady(cause, timeoutMs), { cause });
      }
      return "ok";
    },
  };
  const checks = [database, ...(deps.readinessChecks ?? [])];
  const seen = new Set<string>();
  for (const { name } of checks) {
    // fast-json-stringify writes only the keys the schema declares: an undeclared check would
    // pass or fail readiness while its report silently vanished from the answer.
    if (!READYZ_CHECK_NAMES.includes(name) || seen.has(name)) {
      throw new Error(
        `readiness check "${name}" ${seen.has(name) ? "is given twice" : "has no property in /readyz's schema"}: each check needs its own key, declared in src/api/schemas/health.ts (${READYZ_CHECK_NAMES.join(", ")})`,
      );
    }
    seen.add(name);
  }

  // Probes are polled every few seconds: kept out of rate limits and info-level request logs.
  // They never judge an Authorization header either: a stray or revoked key that a load
  // balancer forwards must not make an orchestrator restart a healthy process.
  const probe = {
    logLevel: "warn",
    config: { rateLimitExempt: true, apiKeyIgnored: true },
  } as const;

  app.get("/healthz", { ...probe, schema: healthzRouteSchema }, async () => ({
    code: 0,
    msg: "success",
    data: { status: "ok" },
  }));

  app.get("/readyz", { ...probe, schema: readyzRouteSchema }, async () => {
    const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
    const data: Record<string, unknown> = { status: "ok" };
    checks.forEach((c, i) => {
      data[c.name] = results[i];
    });
    return { code: 0, msg: "success", data };
  });

  // Quotes' own probe: the router check alone, and a 503 where no router is configured.
  const router = checks.find((c) => c.name === "router");
  app.get("/readyz/router", { ...probe, schema: readyzRouterRouteSchema }, async () => {
    if (router === undefined) {
      throw new ApiError(
        "serviceUnavailable",
        "not ready to quote: no chains configured for routing on this process (set ROUTER_CONFIG)",
      );
    }
    return {
      code: 0,
      msg: "success",
      data: { status: "ok", router: await runCheck(router, timeoutMs) },
    };
  });
}

/**
 * A read replica that cannot serve is named as such; a part that gave no answer in time says so.
 * Why goes to the log with the cause; the message stays generic otherwise.
 */
function databaseNotReady(cause: unknown, timeoutMs: number): string {
  if ((cause as { databaseFileGone?: boolean } | null)?.databaseFileGone === true) {
    // Not the path: /readyz needs no key.
    return "not ready: the SQLite database file (DATABASE_URL) was deleted or replaced after this process opened it; restart it";
  }
  const replica = (cause as { readReplica?: boolean } | null)?.readReplica === true;
  const silent =
    cause instanceof NoAnswerError || (cause as Error | null)?.cause instanceof NoAnswerError;
  const noAnswer = ` (no answer within ${timeoutMs} ms)`;
  if (replica) {
    return silent
      ? `not ready: the read replica (DATABASE_READ_URL) is unreachable${noAnswer}`
      : "not ready: the read replica (DATABASE_READ_URL) is unreachable or not migrated";
  }
  return `not ready: the database is unreachable${silent ? noAnswer : ""}`;
}

/**
 * The database check's own deadline (the store's) comes first; this one is a backstop for a
 * store that ignores it, a little later so the store's more precise message wins.
 */
const DATABASE_BACKSTOP_MS = 250;

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<unknown> {
  const backstopMs = check.name === "database" ? timeoutMs + DATABASE_BACKSTOP_MS : timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError(
            "serviceUnavailable",
            check.name === "database"
              ? `not ready: the database is unreachable (no answer within ${timeoutMs} ms)`
              : `not ready: ${check.name} check gave no answer within ${timeoutMs} ms`,
          ),
        ),
      backstopMs,
    );
  });
  try {
    return await Promise.race([check.check(), timeout]);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("serviceUnavailable", `not ready: ${check.name} is not ready`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}
