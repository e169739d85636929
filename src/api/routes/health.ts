/**
 * Probes. `/healthz`: the process is alive (touches nothing). `/readyz`: the database answers
 * and every extra readiness check passes; each check's result becomes a key of `data`, so the
 * indexer can add `chains: [{ chain, indexedBlock, head, lag }]` without changing this file.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.js";
import type { Store } from "../../store/types.js";
import type {} from "../plugins/rate-limit.js"; // FastifyContextConfig.rateLimitExempt
import { healthzRouteSchema, readyzRouteSchema } from "../schemas/health.js";

export interface ReadinessCheck {
  /** Key of the result in /readyz's data; also named in the 503 message when it fails. */
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
        await deps.store.ping();
      } catch (cause) {
        // A read replica that cannot serve is named as such (why goes to the log with the
        // cause); any other failure stays generic.
        const replica = (cause as { readReplica?: boolean } | null)?.readReplica === true;
        throw new ApiError(
          "chainStateUnavailable",
          replica
            ? "not ready: the read replica (DATABASE_READ_URL) is unreachable or not migrated"
            : "not ready: the database is unreachable",
          { cause },
        );
      }
      return "ok";
    },
  };
  const checks = [database, ...(deps.readinessChecks ?? [])];

  // Probes are polled every few seconds: kept out of rate limits and info-level request logs.
  const probe = { logLevel: "warn", config: { rateLimitExempt: true } } as const;

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
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError(
            "chainStateUnavailable",
            check.name === "database"
              ? `not ready: the database is unreachable (no answer within ${timeoutMs} ms)`
              : `not ready: ${check.name} check gave no answer within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([check.check(), timeout]);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("chainStateUnavailable", `not ready: ${check.name} is not ready`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}
