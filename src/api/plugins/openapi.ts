/**
 * The OpenAPI 3 document at `GET /openapi.json` and interactive docs at `/docs`, GENERATED from
 * the route schemas by @fastify/swagger: a route registered after this plugin appears in the
 * document without anything written here.
 *
 * What the generator adds to each route's own schema (the route schema itself is never mutated:
 * Fastify serialises responses with it):
 * - the error responses the route can really produce, one per HTTP status, each the
 *   ErrorEnvelope with its codes (docs/http-api.md, "Errors") in the description. They are
 *   derived from the route: 400 40001 when it takes parameters; 400 40002, 413 and 415 when it
 *   takes a body; 401 when API-key auth is installed (40101 too when the route needs a key);
 *   429 unless the route is rate-limit exempt; 500 and 503 always (503 also while the server
 *   shuts down).
 *   Statuses a route declares itself (the router's 422) are kept and described with their codes.
 *   What can meet a request on any path before its route runs, 400 40003 (not valid HTTP/1.1,
 *   or no Host), 408 40801 and 431 43101, joins the route's entry of its status when it has one
 *   (40003 with the 400s) and is the `default` response otherwise.
 *   The catch-all "4xx" / "5xx" entries of `standardErrorResponses` are replaced by these.
 * - the API key security scheme on routes that need a key (and as optional on the others when
 *   auth is installed);
 * - the x-request-id header on every response (required), the X-RateLimit-* headers on every
 *   response of a rate-limited route (errors too: the limit step runs before the request is
 *   judged further), and Retry-After on 429 and 503 (the list's database-unreachable 503).
 *   test/api/openapi-conformance.test.ts checks real answers against the document.
 *
 * Components are named after the shared schemas' `$id` (ErrorEnvelope, BridgeTransaction, ...).
 */
import { readFileSync } from "node:fs";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, RouteOptions } from "fastify";
import { ErrorCode, type ErrorKind } from "../../errors.js";
import { REQUEST_ID_HEADER } from "../request-id.js";
import { errorEnvelopeRef } from "../schemas/envelope.js";
import type {} from "./auth.js"; // FastifyContextConfig.apiKeyIgnored
import { DOCS_LOGO, DOCS_THEME } from "./docs-theme.js";
import type {} from "./rate-limit.js"; // FastifyContextConfig.rateLimitExempt

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = "/docs";
export const API_KEY_SCHEME = "apiKey";

/** When each error code is answered (docs/http-api.md, "Errors"), for response descriptions. */
const ERROR_WHEN: Record<ErrorKind, string> = {
  invalidParameter: "a parameter is missing or invalid (msg names it and the rule)",
  invalidBody: "the body is not valid JSON, not a JSON object, or gives a member twice",
  malformedRequest: "the request is not valid HTTP/1.1 (request line, headers, body framing, Host)",
  missingApiKey: "no API key",
  unknownApiKey:
    "unknown or revoked API key, or an Authorization value that is not a key of this service",
  notFound:
    "no such path (under /api/oracle/webhooks: no such subscription or delivery of this API key)",
  methodNotAllowed: "method not allowed on this path (see the Allow header)",
  requestTimeout: "the request did not arrive in time",
  preconditionFailed: "a /docs static file's If-Match / If-Unmodified-Since does not hold",
  bodyTooLarge: "the body is larger than 16 KiB",
  unsupportedMediaType: "the body is not sent as application/json",
  rangeNotSatisfiable: "a /docs static file's Range asks for bytes it does not have",
  expectationFailed: "an Expect header other than 100-continue",
  headersTooLarge: "the request headers are larger than 16 KiB",
  noRoute: "chain, token or pair not supported: no route",
  amountOutOfRange: "amount outside the route's limits (msg gives the minimum and maximum)",
  rateLimited: "rate limited (see Retry-After)",
  internal: "internal error (msg carries the request id to quote)",
  serviceUnavailable:
    "the database or its read replica is unreachable, not answering in time or (the replica) not migrated, not ready, chain state unavailable or too stale, or shutting down",
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * Refusals that can meet a request on any path before its route runs (the HTTP parser's, and a
 * missing Host): documented once per operation as its `default` response.
 */
export const BEFORE_ROUTE_KINDS: readonly ErrorKind[] = [
  "malformedRequest",
  "requestTimeout",
  "expectationFailed",
  "headersTooLarge",
];

function readPackageVersion(): string {
  // src/api/plugins and dist/api/plugins are both three levels below the package root.
  const url = new URL("../../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** The error table (docs/http-api.md, "Errors"), for the document's description. */
function errorTable(): string {
  const rows = (Object.keys(ErrorCode) as ErrorKind[]).map(
    (kind) => `| ${ErrorCode[kind].status} | ${ErrorCode[kind].code} | ${ERROR_WHEN[kind]} |`,
  );
  return ["| HTTP | code | when |", "|---|---|---|", ...rows].join("\n");
}

const API_DESCRIPTION = `Cross-chain bridge query and routing service.

Every response, errors included, is the envelope \`{code, msg, data}\`: \`code\` 0 and \`msg\`
"success" on success; on an error \`data\` is null and \`msg\` says what to change (which
parameter, rule or limit). Amounts are human-unit decimal strings; times are UTC
\`YYYY-MM-DD HH:MM:SS\`.

Every response carries an \`x-request-id\` header (a caller's own sane \`x-request-id\` is kept);
quote it when reporting a problem.

Authentication: the router needs an API key in \`Authorization: <key>\` or
\`Authorization: Bearer <key>\`; elsewhere a key is optional and raises the rate limit. A key
that is sent but unknown or revoked is refused (401 40102) on every route.

Errors:

${errorTable()}

Operations: Prometheus metrics at \`/metrics\`; this document at \`/openapi.json\`; interactive
docs at \`/docs\`.`;

/** A route as @fastify/swagger's transform sees it. */
type TransformInput = {
  schema: Record<string, unknown> | undefined;
  url: string;
  route: RouteOptions;
};

/** The error kinds `route` can answer with, derived from what it takes and how it is guarded. */
export function errorKindsOf(
  route: Pick<RouteOptions, "method" | "config">,
  schema: Record<string, unknown>,
  authInstalled: boolean,
): ErrorKind[] {
  const kinds = new Set<ErrorKind>();
  const methods = typeof route.method === "string" ? [route.method] : route.method;
  const takesBody = methods.some((m) => BODY_METHODS.has(m.toUpperCase()));
  if (["querystring", "params", "headers", "body"].some((part) => schema[part] !== undefined)) {
    kinds.add("invalidParameter");
  }
  if (takesBody) {
    for (const kind of ["invalidParameter", "invalidBody", "bodyTooLarge", "unsupportedMediaType"])
      kinds.add(kind as ErrorKind);
  }
  const config = (route.config ?? {}) as {
    apiKey?: string;
    apiKeyIgnored?: boolean;
    rateLimitExempt?: boolean;
  };
  if (authInstalled && config.apiKeyIgnored !== true) {
    if (config.apiKey === "required") kinds.add("missingApiKey");
    kinds.add("unknownApiKey");
  }
  if (config.rateLimitExempt !== true) kinds.add("rateLimited");
  kinds.add("internal");
  kinds.add("serviceUnavailable");
  // Statuses the route declares itself (422 on the router, ...) bring all their codes.
  const response = (schema.response ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(response)) {
    const status = Number(key);
    if (!Number.isInteger(status) || status < 400) continue;
    for (const kind of Object.keys(ErrorCode) as ErrorKind[]) {
      if (ErrorCode[kind].status === status) kinds.add(kind);
    }
  }
  return [...kinds];
}

const REQUEST_ID_HEADER_DOC = {
  "x-request-id": {
    type: "string",
    description: "This request's id, as on every log line of it (on every response)",
  },
} as const;

const RATE_LIMIT_HEADERS_DOC = {
  "x-ratelimit-limit": { type: "integer", description: "Requests allowed per window" },
  "x-ratelimit-remaining": { type: "integer", description: "Requests left in this window" },
  "x-ratelimit-reset": { type: "integer", description: "Seconds until the window resets" },
} as const;

const RETRY_AFTER_DOC = {
  429: { type: "integer", description: "Seconds to wait before retrying" },
  503: {
    type: "integer",
    description:
      "Seconds to wait before retrying, when a retry soon is expected to succeed (the list while the database is unreachable)",
  },
} as const;

/** The documented copy of a route schema: derived errors, security and headers added. */
function documentedSchema(
  input: TransformInput,
  authInstalled: boolean,
): Record<string, unknown> | undefined {
  const { schema, route } = input;
  if (schema === undefined || schema.hide === true) return schema;
  const config = (route.config ?? {}) as { apiKey?: string; rateLimitExempt?: boolean };
  const rateLimited = config.rateLimitExempt !== true;
  const ownResponses = (schema.response ?? {}) as Record<string, Record<string, unknown>>;
  // Every answer carries the request id; on a rate-limited route every answer that got past the
  // limit step (errors included) carries the rate-limit headers.
  const headers = (status: number) => ({
    ...REQUEST_ID_HEADER_DOC,
    ...(rateLimited ? RATE_LIMIT_HEADERS_DOC : {}),
    ...(status === 429 || status === 503 ? { "retry-after": RETRY_AFTER_DOC[status] } : {}),
  });

  const response: Record<string, unknown> = {};
  for (const [status, responseSchema] of Object.entries(ownResponses)) {
    if (/^[45]/.test(status)) continue; // replaced below, one entry per status
    response[status] = responseSchema.content
      ? { ...responseSchema, headers: headers(Number(status)) } // content-type keyed (text/plain)
      : {
          "x-response-description": "Success",
          ...responseSchema,
          headers: headers(Number(status)),
        };
  }
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of errorKindsOf(route, schema, authInstalled)) {
    const { status } = ErrorCode[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  // A refusal before the route runs joins the route's own entry of its status; 40003 makes a
  // 400 entry where the route has none (so every operation lists a 4xx, as Redocly's
  // recommended rules ask); the others are the `default` below.
  const beforeRoute = BEFORE_ROUTE_KINDS.filter((kind) => {
    const { status } = ErrorCode[kind];
    const kinds = byStatus.get(status);
    if (kinds !== undefined) kinds.push(kind);
    else if (status === 400) byStatus.set(status, [kind]);
    else return true;
    return false;
  });
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const kinds = (byStatus.get(status) ?? []).sort(
      (a, b) => ErrorCode[a].code - ErrorCode[b].code,
    );
    response[String(status)] = {
      ...errorEnvelopeRef,
      description: kinds.map((k) => `${ErrorCode[k].code}: ${ERROR_WHEN[k]}`).join("; "),
      headers: headers(status),
    };
  }
  // Any other status: what can meet a request before any route runs. No HTTP client a document
  // reader uses sends these on purpose, but a client must still be able to read the envelope.
  response["default"] = {
    ...errorEnvelopeRef,
    description: `Refused before the route runs (any path): ${beforeRoute
      .map((k) => `${ErrorCode[k].code} (HTTP ${ErrorCode[k].status}): ${ERROR_WHEN[k]}`)
      .join("; ")}`,
    headers: REQUEST_ID_HEADER_DOC,
  };

  // A required key is the scheme; elsewhere a key is optional ({} = none) where it raises the
  // rate limit, and none (`[]`, said outright) on exempt routes (probes, metrics) where it
  // changes nothing.
  let security: Record<string, string[]>[] = [];
  if (authInstalled && config.apiKey === "required") security = [{ [API_KEY_SCHEME]: [] }];
  else if (authInstalled && rateLimited) security = [{}, { [API_KEY_SCHEME]: [] }];
  return { ...schema, response, security };
}

type OpenApiPaths = {
  paths?: Record<
    string,
    Record<string, { responses?: Record<string, { headers?: Record<string, object> }> }>
  >;
};

/** The document with `required: true` on every response's x-request-id (every answer has it). */
function markRequestIdRequired<T extends OpenApiPaths>(document: T): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const headers = response.headers;
        const header = headers?.[REQUEST_ID_HEADER];
        if (headers !== undefined && header !== undefined) {
          headers[REQUEST_ID_HEADER] = { ...header, required: true };
        }
      }
    }
  }
  return document;
}

/** An operation's `callbacks` as a route schema writes them (name -> expression -> method). */
type Callbacks = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

const CALLBACK_FIELDS = ["summary", "operationId", "description", "security"] as const;

/** Puts the fields @fastify/swagger drops back on each callback operation of `document`. */
function restoreCallbackFields<T extends OpenApiPaths>(document: T, sources: Callbacks[]): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item) as { callbacks?: Callbacks }[]) {
      for (const [name, expressions] of Object.entries(operation.callbacks ?? {})) {
        for (const [expression, methods] of Object.entries(expressions)) {
          for (const [method, documented] of Object.entries(methods)) {
            const source = sources.find((s) => s[name]?.[expression]?.[method] !== undefined)?.[
              name
            ]?.[expression]?.[method];
            for (const field of CALLBACK_FIELDS) {
              if (source?.[field] !== undefined && documented[field] === undefined) {
                documented[field] = source[field];
              }
            }
          }
        }
      }
    }
  }
  return document;
}

/**
 * Registers @fastify/swagger (the generator), @fastify/swagger-ui at /docs and GET /openapi.json.
 * Call on the root instance before any route is registered: the generator learns routes from
 * the onRoute hook.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const callbacks: Callbacks[] = [];
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "bridge-oracle",
        version: readPackageVersion(),
        description: API_DESCRIPTION,
        license: { name: "MIT", url: "https://spdx.org/licenses/MIT.html" },
      },
      // Relative: every path is on the server that serves this document.
      servers: [{ url: "/", description: "The server that serves this document" }],
      components: {
        securitySchemes: {
          [API_KEY_SCHEME]: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description:
              "An API key from `bridge-oracle keys create`, sent as `Authorization: <key>` or " +
              "`Authorization: Bearer <key>`.",
          },
        },
      },
    },
    // Components named after the schemas' $id instead of def-0, def-1, ...
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === "string" ? json.$id : `def-${i}`,
    },
    // Read when the document is built (first request), after every plugin and route is in.
    transform: (input) => {
      const schema = input.schema as { callbacks?: Callbacks } | undefined;
      if (schema?.callbacks !== undefined) callbacks.push(schema.callbacks);
      return {
        schema: documentedSchema(
          input as unknown as TransformInput,
          app.hasRequestDecorator("apiKey"),
        ) as never,
        url: input.url,
      };
    },
    // The generator has no place for a header's `required`: set it on the request id here. Nor
    // does it keep a callback operation's summary, operationId, description and security:
    // they come back from the route schemas.
    transformObject: (document) =>
      "openapiObject" in document
        ? (restoreCallbackFields(
            markRequestIdRequired(document.openapiObject as OpenApiPaths),
            callbacks,
          ) as typeof document.openapiObject)
        : document.swaggerObject,
  });

  // The UI's assets ship in the @fastify/swagger-ui package: nothing is fetched from a CDN.
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    // validatorUrl null: the UI would otherwise send the document to validator.swagger.io.
    uiConfig: { deepLinking: true, validatorUrl: null },
    // Our name and a link back to the explorer instead of the Fastify branding (docs-theme.ts).
    theme: DOCS_THEME,
    logo: DOCS_LOGO,
    // The package's own policy (staticCSP: true) without `upgrade-insecure-requests`, which
    // would send the assets' requests to https:// on a server reached over plain http
    // (localhost, a LAN host), and with inline styles, which the UI sets. No framing at all,
    // as everywhere else (security-headers.ts).
    staticCSP:
      "default-src 'self'; base-uri 'self'; frame-ancestors 'none'; img-src 'self' data:; " +
      "object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
      "style-src 'self' 'unsafe-inline'; connect-src 'self'",
  });

  app.get(OPENAPI_PATH, {
    schema: { hide: true },
    logLevel: "warn",
    handler: async () => app.swagger(),
  });
}
