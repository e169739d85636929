/**
 * Schemas of the probes. /readyz's data has one key per readiness check (routes/health.ts): the
 * database's always, `router` and `indexer` when `serve` configures them. It is closed
 * (additionalProperties: false), so the document says exactly what a 200 carries; because
 * fast-json-stringify would silently drop a key the schema does not declare, registerHealthRoutes
 * refuses a check whose name is not a property here (add its schema when adding a check).
 */
import { standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

export const healthzRouteSchema = {
  summary: "Liveness probe",
  operationId: "healthz",
  description: "Answers while the process is alive; touches nothing else.",
  tags: ["health"],
  response: {
    200: successEnvelopeSchema("HealthzResponse", {
      type: "object",
      required: ["status"],
      additionalProperties: false,
      properties: { status: { type: "string", enum: ["ok"] } },
    }),
    ...standardErrorResponses,
  },
} as const;

/** One chain of the `router` check (routerReadinessCheck in routes/router-quote.ts). */
const routerChainSchema = {
  type: "object",
  required: ["chainId", "name", "blockNumber", "ageMs", "fresh"],
  additionalProperties: false,
  properties: {
    chainId: { type: "integer", description: "EVM chain id", examples: [71001] },
    name: { type: "string", description: "Chain name in the router registry", examples: ["alpha"] },
    blockNumber: {
      type: ["string", "null"],
      pattern: "^[0-9]+$",
      description:
        "Block of the state the router quotes from, a decimal string; null before the first successful read",
      examples: ["1234"],
    },
    ageMs: {
      type: ["integer", "null"],
      minimum: 0,
      description:
        "Milliseconds since that state was read (or confirmed unchanged); null before the first successful read",
      examples: [180],
    },
    fresh: {
      type: "boolean",
      description:
        "Whether quotes may use it: ageMs within ROUTER_MAX_STATE_AGE_MS. /readyz answers 503 only when no chain is fresh",
    },
  },
} as const;

/** One chain of the `indexer` check (summariseIndexerStatus in api/indexer-readiness.ts). */
const indexerChainSchema = {
  type: "object",
  required: [
    "chain",
    "chainId",
    "state",
    "indexedBlock",
    "head",
    "lag",
    "updatedAt",
    "error",
    "leader",
  ],
  additionalProperties: false,
  properties: {
    chain: {
      type: "string",
      description: "Chain name in the indexer's config",
      examples: ["alpha"],
    },
    chainId: { type: "integer", description: "EVM chain id", examples: [71001] },
    state: {
      type: "string",
      enum: ["starting", "backfill", "following", "stopped"],
      description:
        "The chain's indexer state; a 200 shows only backfill or following (a starting or stopped chain is not ready)",
    },
    indexedBlock: {
      type: "integer",
      minimum: -1,
      description:
        "Last block whose events are fully stored (the start block less 1 before the first batch)",
      examples: [125],
    },
    head: {
      type: "integer",
      minimum: 0,
      description: "The chain's head block when last polled",
      examples: [125],
    },
    lag: {
      type: "integer",
      minimum: 0,
      description:
        "Blocks between indexedBlock and the confirmed head (head less the chain's confirmations); 0 when caught up. Above 50 the chain is not ready",
      examples: [0],
    },
    updatedAt: {
      type: "string",
      pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
      description:
        "When the indexer last wrote the chain's row; UTC, YYYY-MM-DD HH:MM:SS. Older than 60 s: not ready",
      examples: ["2026-11-21 12:22:50"],
    },
    error: {
      type: "string",
      description:
        'Why the chain stopped or its last step failed; "" in a 200 (such a chain is not ready)',
      examples: [""],
    },
    leader: {
      type: "string",
      description:
        'On PostgreSQL, host:pid of the `bridge-oracle index` process that leads (holds the indexer lock; others wait as standbys); "" when none does, and on SQLite (one indexer per file)',
      examples: ["indexer-1:4242"],
    },
  },
} as const;

/** `data` of a 200 from /readyz. */
export const readyzDataSchema = {
  type: "object",
  required: ["status", "database"],
  additionalProperties: false,
  properties: {
    status: { type: "string", enum: ["ok"] },
    database: {
      type: "string",
      enum: ["ok"],
      description:
        "The database answered a ping (and the read replica, with DATABASE_READ_URL, at the service's schema version)",
    },
    router: {
      type: "array",
      description:
        "Present when a router registry is configured: each chain's state as the router reads it. Not ready (503) when no chain is fresh; one stale chain leaves quotes between the others working",
      items: routerChainSchema,
    },
    indexer: {
      type: "object",
      description:
        "Present once an indexer has written chain rows to this database (the same summary as `bridge-oracle index --status`). Not ready (503, msg `not ready: indexer: ...` naming the chain) when a chain is stopped, starting, retrying a failed step, silent for 60 s or more than 50 blocks behind its confirmed head",
      required: ["ready", "reason", "chains"],
      additionalProperties: false,
      properties: {
        ready: { type: "boolean", enum: [true], description: "Always true in a 200" },
        reason: {
          type: "string",
          enum: [""],
          description: 'Why not ready; always "" in a 200 (the 503 msg carries it)',
        },
        chains: { type: "array", items: indexerChainSchema },
      },
    },
  },
} as const;

export const readyzRouteSchema = {
  summary: "Readiness probe",
  operationId: "readyz",
  description:
    "200 when the database answers and every other readiness check passes (the router's chain state, the indexer's chains, when configured); `data` has one key per check. Otherwise 503 with code 50301, `data` null and a msg naming what is not ready.",
  tags: ["health"],
  response: {
    200: successEnvelopeSchema("ReadyzResponse", readyzDataSchema),
    ...standardErrorResponses,
  },
} as const;

/**
 * /readyz/router: for a load balancer in front of quote traffic. /readyz stays 200 on an API
 * without a router registry (a list-only API is a deployment of its own), so quotes need a probe
 * that fails where they would: no registry (ROUTER_CONFIG), or no chain state fresh enough.
 */
export const readyzRouterRouteSchema = {
  summary: "Readiness probe for quotes",
  operationId: "readyzRouter",
  description:
    "200 when this process can quote: a router registry is configured (ROUTER_CONFIG) and at least one chain's state is fresher than ROUTER_MAX_STATE_AGE_MS; `data.router` lists each chain's state as /readyz does. Otherwise 503 with code 50301 and a msg saying why (no registry, or the chains' state ages). Point a load balancer that sends POST /api/oracle/router traffic here; /readyz, which does not require a router, stays the probe for everything else.",
  tags: ["health"],
  response: {
    200: successEnvelopeSchema("ReadyzRouterResponse", {
      type: "object",
      required: ["status", "router"],
      additionalProperties: false,
      properties: {
        status: { type: "string", enum: ["ok"] },
        router: {
          type: "array",
          description: "Each chain's state as the router reads it (at least one is fresh)",
          items: routerChainSchema,
        },
      },
    }),
    ...standardErrorResponses,
  },
} as const;

/** The keys a readiness check may report under (routes/health.ts refuses any other name). */
export const READYZ_CHECK_NAMES: readonly string[] = Object.keys(
  readyzDataSchema.properties,
).filter((name) => name !== "status");
