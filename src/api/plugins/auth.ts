/**
 * API key authentication (docs/http-api.md, API rule 5), applied per route through the route's
 * config:
 *
 *   config: { apiKey: "required" }   the router: no key -> 401 40101
 *   config: { apiKey: "optional" }   the default: no key is fine, a valid key raises the rate limit
 *
 * On every route a key that is sent but unknown or revoked is refused with 401 40102, so an
 * integrator with a bad key finds out at once instead of being silently limited as anonymous.
 *
 * Keys are checked against the in-memory ApiKeyCache: no database query on the request path.
 *
 * Two steps of the request gate (request-gate.ts), so that the rate limit (rate-limit.ts) sees
 * who is calling and counts refused requests too:
 * - "identify" sets `request.apiKey` when the key is valid (`request.apiKeyRefusal` when a sent
 *   key is not), never refuses;
 * - "refuse", which runs after the rate limit and before the body is read, refuses.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.js";
import {
  API_KEY_PREFIX,
  apiKeyFromAuthorization,
  displayPrefix,
  isWellFormedApiKey,
} from "../../keys/api-key.js";
import {
  type ApiKeyCache,
  type ApiKeyIdentity,
  createApiKeyCache,
} from "../../keys/api-key-cache.js";
import type { ApiKeyRepository } from "../../store/api-key-repository.js";
import { requestGate } from "../request-gate.js";

export type ApiKeyRequirement = "required" | "optional";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Whether the route needs an API key (auth.ts). Default "optional". */
    apiKey?: ApiKeyRequirement;
    /** The route never judges keys: even an unknown key passes (e.g. /metrics scrapes). */
    apiKeyIgnored?: boolean;
  }
  interface FastifyRequest {
    /** The caller's key when a valid one was sent, else undefined (auth.ts). */
    apiKey: ApiKeyIdentity | undefined;
    /**
     * The 401 40102 for a key that was sent but is unknown or revoked, on a route that judges
     * keys (auth.ts). The rate limit answers it instead of its 429: the key is what the client
     * must fix, and the 429's advice (use a valid key) would send it the wrong way.
     */
    apiKeyRefusal: ApiError | undefined;
  }
}

interface ApiKeyCacheTiming {
  /** Default 500 ms: a revoked key stops working within about this long. */
  readonly refreshIntervalMs?: number;
  /** Default 10 s. */
  readonly lastUsedFlushIntervalMs?: number;
}

export type ApiKeyAuthOptions =
  | (ApiKeyCacheTiming & {
      /**
       * The plugin builds, starts and (on app close) stops a key cache over this repository
       * (the Database's `apiKeys`; the caller closes the database after the app).
       */
      readonly repository: ApiKeyRepository;
      /** Key changes anywhere, at once (the Database's `changes.subscribeApiKeys`). */
      readonly subscribe?: ((onChange: () => void) => void) | undefined;
    })
  | {
      /** A cache the caller built, started and will close. */
      readonly cache: ApiKeyCache;
    };

export const MISSING_API_KEY_MESSAGE =
  "missing API key: send the header 'Authorization: <key>' (or 'Authorization: Bearer <key>')";

/** Adds the auth steps to `app` itself (call on the root instance, so they apply to every route). */
export async function registerApiKeyAuth(
  app: FastifyInstance,
  options: ApiKeyAuthOptions,
): Promise<void> {
  let cache: ApiKeyCache;
  if ("cache" in options) {
    cache = options.cache;
  } else {
    const { repository, subscribe } = options;
    cache = createApiKeyCache({
      repository,
      ...(subscribe !== undefined ? { subscribe } : {}),
      refreshIntervalMs: options.refreshIntervalMs,
      lastUsedFlushIntervalMs: options.lastUsedFlushIntervalMs,
      logger: app.log,
    });
    const started = cache;
    await started.start();
    app.log.info({ activeKeys: started.size }, "API keys loaded");
    // The cache flushes last-use times through the repository: it closes with the app, before
    // the caller closes the database.
    app.addHook("onClose", () => started.close());
  }

  app.decorateRequest("apiKey", undefined);
  app.decorateRequest("apiKeyRefusal", undefined);

  const gate = requestGate(app);
  gate.add("identify", (request) => {
    const key = apiKeyFromAuthorization(request.headers.authorization);
    if (key === undefined) return undefined;
    request.apiKey = cache.authenticate(key);
    if (request.apiKey === undefined) request.apiKeyRefusal = unknownKeyRefusal(request, key);
    return undefined;
  });
  gate.add("refuse", refusal);
}

/** The 401 40102 for a sent key that is not valid, unless the route does not judge keys. */
function unknownKeyRefusal(request: FastifyRequest, key: string): ApiError | undefined {
  if (request.is404 || request.routeOptions.config.apiKeyIgnored === true) return undefined;
  // Only a key of ours is quoted (its public prefix): anything else sent as Authorization
  // (a Basic credential, another service's token) is not echoed back or logged, even in part.
  return new ApiError(
    "unknownApiKey",
    isWellFormedApiKey(key)
      ? `unknown or revoked API key '${displayPrefix(key)}...': check the key, or ask the operator for a new one`
      : `the Authorization header does not hold an API key of this service (${API_KEY_PREFIX} followed by 43 characters); ask the operator for one`,
  );
}

/** Why the request is refused, or undefined when it may proceed. */
function refusal(request: FastifyRequest): ApiError | undefined {
  if (request.apiKey !== undefined || request.is404) return undefined;
  if (request.apiKeyRefusal !== undefined) return request.apiKeyRefusal;
  if (request.routeOptions.config.apiKeyIgnored === true) return undefined;
  if (
    request.routeOptions.config.apiKey === "required" &&
    apiKeyFromAuthorization(request.headers.authorization) === undefined
  ) {
    return new ApiError("missingApiKey", MISSING_API_KEY_MESSAGE);
  }
  return undefined;
}
