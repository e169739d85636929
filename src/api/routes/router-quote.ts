/**
 * `POST /api/oracle/router` (docs/router.md; docs/http-api.md, API rules 4-6): the best route quote
 * for a transfer, from the state provider's current snapshot. Needs an API key (auth.ts reads the
 * route's `config.apiKey`); rate limited like every route.
 *
 * The request path is pure: body -> router.quote(body, state.current()) -> envelope. No RPC and
 * no database query happens here (the snapshot is refreshed per block by the provider, keys are
 * cached by auth.ts). Media type (415), JSON-object body (40002) and size (413) are the app's
 * body parser's; every field rule is the router core's (40001 / 42201 / 42202 / 50301).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { BridgeKind } from "../../domain/bridge-kind.js";
import { ApiError, type ErrorKind } from "../../errors.js";
import { quoteFailureToApiError, type Router } from "../../router/create-router.js";
import type { ChainReadStatus, StateSource } from "../../router/providers/chain-state-provider.js";
import type { QuoteExtensions } from "../../router/quote-extensions.js";
import type { RouteQuoteData } from "../../router/quote-response.js";
import type {} from "../plugins/auth.js"; // FastifyContextConfig.apiKey
import { quoteExtensionsJson } from "../quote-extensions-json.js";
import { routerQuoteRouteSchema, routerQuoteSpecOnlyRouteSchema } from "../schemas/router-quote.js";
import type { ReadinessCheck } from "./health.js";

export const ROUTER_QUOTE_PATH = "/api/oracle/router";

export const NO_CHAINS_MESSAGE =
  "no chains configured for routing: the server was started without a registry (set ROUTER_CONFIG, or run the devnet)";

/** One answered quote request, for metrics (see RouterRouteDeps.onQuote). */
export type QuoteEvent =
  | {
      ok: true;
      bridgeType: BridgeKind;
      sourceChainId: number;
      destChainId: number;
      sourceSwap: boolean;
      destSwap: boolean;
    }
  | { ok: false; kind: ErrorKind; code: number };

export interface RouterRouteDeps {
  /** Undefined when no registry is configured: every quote answers 503 50301. */
  router: Router | undefined;
  state: StateSource;
  /** A quote from state read longer ago than this answers 503 50301. */
  maxStateAgeMs: number;
  /**
   * Called once per quote request that reached the handler (after auth and rate limit), on
   * success with the chosen bridge kind, on failure with the error kind. Synchronous and must
   * not throw: a metrics plugin counts with it (e.g. a prom-client counter by bridgeType).
   * Without it, successes are counted by the app's metrics plugin (`app.metrics.recordQuote`).
   */
  onQuote?: (event: QuoteEvent) => void;
  now?: () => number;
}

export function registerRouterQuoteRoute(app: FastifyInstance, deps: RouterRouteDeps): void {
  const now = deps.now ?? Date.now;
  // Without an explicit listener, successes go to the metrics plugin's counter when it is
  // installed (plugins/metrics.ts decorates `app.metrics.recordQuote`).
  const metrics = (app as unknown as { metrics?: { recordQuote?(bridgeType: number): void } })
    .metrics;
  const fail = (error: ApiError): never => {
    deps.onQuote?.({ ok: false, kind: error.kind, code: error.code });
    throw error;
  };

  // The response text of each quote, kept as long as the quote object lives: the router answers
  // a repeated request within one snapshot with the same (frozen) object, so its envelope is
  // serialised once, not once per request.
  const serialized = new WeakMap<object, string>();

  app.post(ROUTER_QUOTE_PATH, {
    // A router built without the added fields answers the spec's four (the benchmark's
    // comparison); the document shows what this server answers.
    schema:
      deps.router?.extensions === false ? routerQuoteSpecOnlyRouteSchema : routerQuoteRouteSchema,
    config: { apiKey: "required" },
    // The body schema documents; the router core validates with messages that name the rule.
    validatorCompiler: () => (value) => ({ value }),
    // Synchronous: nothing here awaits, and a promise per request is measurable at this rate.
    handler: (request, reply) => {
      const router = deps.router;
      if (router === undefined) return fail(new ApiError("serviceUnavailable", NO_CHAINS_MESSAGE));
      const result = router.quote(request.body, deps.state.current(), {
        maxStateAgeMs: deps.maxStateAgeMs,
        nowMs: now(),
      });
      if (!result.ok) return fail(quoteFailureToApiError(result));
      if (deps.onQuote === undefined) {
        // The common case, without building an event per request.
        metrics?.recordQuote?.(result.data.signData.bridgeType);
      } else {
        // An explicit listener replaces the metrics plugin's counter (RouterRouteDeps.onQuote).
        const priced = result.priced;
        deps.onQuote({
          ok: true,
          bridgeType: result.data.signData.bridgeType,
          sourceChainId: result.request.sourceChain.chainId,
          destChainId: result.request.destChain.chainId,
          sourceSwap: priced.sourceSwap,
          destSwap: priced.destSwap,
        });
      }
      let body = serialized.get(result.data);
      if (body === undefined) {
        body = serializeQuote(reply, result.data);
        if (Object.isFrozen(result.data)) serialized.set(result.data, body);
      }
      return reply.type(JSON_UTF8).send(body);
    },
  });
}

const JSON_UTF8 = "application/json; charset=utf-8";

const specEnvelopeSchema = routerQuoteSpecOnlyRouteSchema.response[200];

/**
 * The response text of a quote: the spec's fields through the route's response serializer (its
 * schema 200 without the added fields, compiled once by Fastify), then the added fields written
 * directly (quote-extensions-json.ts), in the order the full schema documents them.
 */
function serializeQuote(reply: FastifyReply, data: RouteQuoteData): string {
  const serialize = reply.compileSerializationSchema(specEnvelopeSchema, "200");
  const spec = serialize({ code: 0, msg: "success", data });
  if (data.transactionRequest === undefined) return spec;
  // The envelope ends with `}}`: the data object's brace, then the envelope's.
  return `${spec.slice(0, -2)}${quoteExtensionsJson(data as RouteQuoteData & QuoteExtensions)}}}`;
}

/**
 * /readyz check "router": reports every chain's state (block, age). Fails (503 50301) only when
 * a registry is configured and NO chain has fresh state: one chain down still leaves quotes
 * between the others, and the list endpoint, working.
 */
export function routerReadinessCheck(source: {
  status(): ChainReadStatus[];
  readonly maxStateAgeMs: number;
}): ReadinessCheck {
  return {
    name: "router",
    async check() {
      const chains = source.status();
      if (chains.length > 0 && !chains.some((c) => c.fresh)) {
        const detail = chains
          .map((c) =>
            c.ageMs === null
              ? `${c.name} not read yet`
              : `${c.name} read ${Math.round(c.ageMs / 1000)} s ago`,
          )
          .join(", ");
        throw new ApiError(
          "serviceUnavailable",
          `not ready: no chain state fresher than ${source.maxStateAgeMs} ms for the router (${detail})`,
        );
      }
      return chains.map(({ chainId, name, blockNumber, ageMs, fresh }) => ({
        chainId,
        name,
        blockNumber,
        ageMs,
        fresh,
      }));
    },
  };
}
