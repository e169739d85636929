/**
 * Turns every failure into the envelope `{ code, msg, data: null }` (docs/http-api.md, API rule 6)
 * and logs it exactly once, here where it is handled: 4xx at info, 5xx at error with the full
 * cause. Nothing but an ApiError's own message ever reaches a client; other errors become 50001
 * with the request id, so a stack trace or SQL text cannot leak.
 *
 * Covers: thrown errors (setErrorHandler), unknown paths (404 40401) and known paths with the
 * wrong method (405 40501 with an Allow header, found from the registered routes), malformed
 * URLs (frameworkErrors), bodies that are not JSON objects or repeat a member name (40002), 413
 * and 415.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.js";
import { repeatedMemberName } from "../../repeated-json-member.js";
import { requestGate } from "../request-gate.js";

export interface ErrorEnvelope {
  code: number;
  msg: string;
  data: null;
}

export function errorEnvelope(error: ApiError): ErrorEnvelope {
  return { code: error.code, msg: error.message, data: null };
}

type MaybeFastifyError = Partial<FastifyError> & {
  validation?: readonly ValidationIssue[];
  validationContext?: string;
};

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Maps any thrown value to the ApiError the client sees. Errors Fastify raises itself carry a
 * `code` (FST_ERR_...) or a `statusCode`; anything else is an internal error whose message is
 * replaced with one that carries the request id.
 */
export function toApiError(error: unknown, requestId: string, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as MaybeFastifyError;
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    return fromValidation(e.validation[0] as ValidationIssue, e.validationContext ?? "request");
  }
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("bodyTooLarge", `the request body is larger than ${bodyLimit} bytes`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(
        "unsupportedMediaType",
        "the request body must be sent with Content-Type: application/json",
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError("invalidBody", "the request body is empty; send a JSON object");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError("invalidBody", "Content-Length does not match the request body");
  }
  const status = e.statusCode;
  if (
    status === 400 &&
    (error instanceof SyntaxError || e.code === "FST_ERR_CTP_INVALID_JSON_BODY")
  ) {
    return new ApiError("invalidBody", "the request body is not valid JSON");
  }
  if (status === 429) {
    return new ApiError("rateLimited", e.message || "too many requests; retry later");
  }
  if (status === 413) {
    return new ApiError("bodyTooLarge", `the request body is larger than ${bodyLimit} bytes`);
  }
  if (status === 415) {
    return new ApiError(
      "unsupportedMediaType",
      "the request body must be sent with Content-Type: application/json",
    );
  }
  // Other client errors raised by Fastify or a plugin: their messages describe the request,
  // not internals, so they pass through under the nearest code.
  if (status === 400 && typeof e.message === "string" && e.message !== "") {
    return new ApiError("invalidParameter", e.message);
  }
  // A 403 comes from the static file server refusing a path (a `..` walk): no such resource.
  if (status === 404 || status === 403) return new ApiError("notFound", "no such resource");
  if (status === 412) {
    return new ApiError(
      "preconditionFailed",
      "the If-Match / If-Unmodified-Since condition does not hold",
    );
  }
  if (status === 416) {
    return new ApiError("rangeNotSatisfiable", "the requested byte range is not satisfiable");
  }
  // Any other client error a plugin raises is the request's fault, never a 500.
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError("invalidParameter", e.message || "the request cannot be served as sent");
  }
  return new ApiError("internal", `internal error; request id ${requestId}`, { cause: error });
}

function fromValidation(issue: ValidationIssue, context: string): ApiError {
  const path = (issue.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
  const missing = issue.params?.["missingProperty"];
  const extra = issue.params?.["additionalProperty"];
  if (issue.keyword === "required" && typeof missing === "string") {
    const name = path === "" ? missing : `${path}.${missing}`;
    return new ApiError("invalidParameter", `${name} is required`);
  }
  if (issue.keyword === "additionalProperties" && typeof extra === "string") {
    return new ApiError("invalidParameter", `${extra} is not an accepted ${context} field`);
  }
  if (path === "" && context === "body") {
    return new ApiError("invalidBody", "the request body must be a JSON object");
  }
  const rule = ruleOf(issue, context) ?? issue.message ?? "is invalid";
  return new ApiError("invalidParameter", `${path === "" ? context : path} ${rule}`);
}

/** Ajv's patterns in words, for the request schemas that use them. */
const PATTERN_RULES: Readonly<Record<string, string>> = {
  "^[0-9]+$": "must be a whole number written in digits",
  "^[1-9][0-9]{0,15}$": "must be a positive whole number of at most 16 digits",
};

/** A rule a person can act on, for the validation failures request schemas produce. */
function ruleOf(issue: ValidationIssue, context: string): string | undefined {
  const params = issue.params ?? {};
  switch (issue.keyword) {
    case "type": {
      const type = params["type"];
      if (typeof type !== "string") return undefined;
      // A query value is a string, or an array when the parameter was repeated.
      if (context === "querystring" && type === "string") return "must be given once";
      return `must be ${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
    }
    case "enum":
      return Array.isArray(params["allowedValues"])
        ? `must be one of ${params["allowedValues"].join(", ")}`
        : undefined;
    case "pattern":
      return typeof params["pattern"] === "string" ? PATTERN_RULES[params["pattern"]] : undefined;
    default:
      return undefined;
  }
}

const FORBIDDEN_KEYS_ERROR = () =>
  new ApiError(
    "invalidBody",
    "the request body must not use the keys __proto__ or constructor.prototype",
  );

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Sends an ApiError as the envelope, logging it once. */
export function sendApiError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  if (error.status === 500) {
    // The cause is the original failure: logged in full, never sent.
    request.log.error({ err: error.cause ?? error, code: error.code }, error.message);
  } else if (error.status >= 500) {
    // 503: a known condition, not a bug: one line without a stack (a load balancer probing
    // /readyz every few seconds must not fill the log with traces). An underlying failure (the
    // database refusing connections) is an error; a state (an indexer behind) a warning.
    const fields = { code: error.code, status: error.status } as Record<string, unknown>;
    if (error.cause !== undefined) {
      fields.cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      request.log.error(fields, error.message);
    } else request.log.warn(fields, error.message);
  } else {
    request.log.info({ code: error.code, status: error.status }, error.message);
  }
  // Refused before its body has fully arrived (by the request gate, or for its content type).
  // A body of known, small length is read and discarded after the answer (Node does that to an
  // unread body when the response ends), so a client at its rate limit keeps its connection; a
  // rest that stops arriving closes the connection without a second answer (client-error.ts). A
  // larger or chunked body is not worth reading: the connection closes after this answer.
  // (`complete` is also false for a request without a body answered in the tick its headers
  // arrived: a 404.)
  if (!request.raw.complete && !discardableBody(request)) reply.header("connection", "close");
  return reply.code(error.status).headers(error.headers).send(errorEnvelope(error));
}

/** The largest unread body a refusal reads and discards to keep its connection (16 KiB). */
export const DISCARDED_BODY_MAX_BYTES = 16 * 1024;

/** Whether the request has no body, or one of a known length small enough to discard. */
function discardableBody(request: FastifyRequest): boolean {
  if (request.headers["transfer-encoding"] !== undefined) return false;
  const length = request.headers["content-length"];
  return length === undefined || Number(length) <= DISCARDED_BODY_MAX_BYTES;
}

/** Records the method set of every route path so the not-found handler can tell 404 from 405. */
function createRouteMethodIndex() {
  const staticPaths = new Map<string, Set<string>>();
  const patterns: { regex: RegExp; methods: Set<string> }[] = [];

  function add(url: string, methods: string | readonly string[]): void {
    const list = typeof methods === "string" ? [methods] : methods;
    let set: Set<string> | undefined;
    if (/[:*]/.test(url)) {
      const source = url
        .split("/")
        .map((part) =>
          part.startsWith(":")
            ? "[^/]+"
            : part === "*"
              ? ".*"
              : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
        )
        .join("/");
      set = new Set();
      patterns.push({ regex: new RegExp(`^${source}$`), methods: set });
    } else {
      set = staticPaths.get(url) ?? new Set();
      staticPaths.set(url, set);
    }
    for (const method of list) set.add(method.toUpperCase());
  }

  /** Methods registered for `path`, sorted; empty when the path is unknown. */
  function methodsFor(rawPath: string): string[] {
    // Routes answer with or without a trailing slash (app.ts: ignoreTrailingSlash).
    const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
    const found = new Set(staticPaths.get(path));
    for (const { regex, methods } of patterns) {
      if (regex.test(path)) for (const m of methods) found.add(m);
    }
    return [...found].sort();
  }

  return { add, methodsFor };
}

export interface ErrorHandlingOptions {
  bodyLimit: number;
}

/**
 * Answers every thrown error with the envelope. Call first on the root instance, before any
 * plugin that adds a route: a route keeps the error handler of the moment it was added, so one
 * added earlier (such as @fastify/cors's `OPTIONS *`) would answer in Fastify's own format.
 */
export function setEnvelopeErrorHandler(app: FastifyInstance, options: ErrorHandlingOptions): void {
  app.setErrorHandler((error, request, reply) =>
    sendApiError(request, reply, toApiError(error, request.id, options.bodyLimit)),
  );
}

/**
 * Installs the not-found handler, the route index for 405 detection, and a JSON body parser
 * that accepts only objects. Call on the root instance before registering routes, after
 * setEnvelopeErrorHandler.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const routes = createRouteMethodIndex();
  app.addHook("onRoute", (route) => routes.add(route.url, route.method));

  // Fastify's JSON parser (with its prototype-poisoning guard), narrowed to objects: every JSON
  // body of this API is an object, and none may give a member twice (src/repeated-json-member.ts).
  // Other media types (text/plain included) answer 415.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    // The body is read as UTF-8 (RFC 8259: JSON exchanged between systems is UTF-8); a body
    // declared in another charset (utf-7, latin1, ...) would be read as something else than
    // the client meant, so it is refused rather than guessed at.
    const charset = declaredCharset(request.headers["content-type"]);
    if (charset !== undefined && !UTF8_NAMES.has(charset)) {
      return done(
        new ApiError(
          "unsupportedMediaType",
          `the request body must be UTF-8 JSON (Content-Type: application/json, with no charset or charset=utf-8), not charset=${charset.slice(0, 40)}`,
        ),
        undefined,
      );
    }
    const text = body.toString();
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error !== null) {
        // Fastify reports its prototype-poisoning guard as "not valid JSON"; when the text
        // parses, that guard is what refused it, and the client should hear which rule.
        return done(parsesAsJson(text) ? FORBIDDEN_KEYS_ERROR() : error, undefined);
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return done(
          new ApiError("invalidBody", "the request body must be a JSON object"),
          undefined,
        );
      }
      const repeated = repeatedMemberName(text);
      if (repeated !== undefined) {
        const shown = repeated.length > 40 ? `${repeated.slice(0, 40)}...` : repeated;
        return done(
          new ApiError(
            "invalidBody",
            `the request body gives the member ${JSON.stringify(shown)} more than once; give each member once`,
          ),
          undefined,
        );
      }
      done(null, value);
    });
  });

  function notFoundError(request: FastifyRequest): ApiError {
    const path = request.url.split("?", 1)[0] ?? "/";
    const shownPath = path.length > 200 ? `${path.slice(0, 200)}...` : path;
    const allowed = routes.methodsFor(path);
    // The path matches a route that takes this method (a wildcard such as /docs/static/*) but
    // the route found nothing there: not found, not "method not allowed".
    return allowed.length > 0 && !allowed.includes(request.method)
      ? new ApiError(
          "methodNotAllowed",
          `${request.method} is not allowed on ${shownPath}; allowed: ${allowed.join(", ")}`,
          { headers: { allow: allowed.join(", ") } },
        )
      : new ApiError("notFound", `no such path: ${request.method} ${shownPath}`);
  }

  // Answer 404 / 405 before the body is read and before auth and rate limits judge the request:
  // a POST with an odd body to a wrong path should hear "wrong path", not 415 or 413.
  requestGate(app).add("route", (request) => (request.is404 ? notFoundError(request) : undefined));
  app.setNotFoundHandler((request, reply) => sendApiError(request, reply, notFoundError(request)));
}

const UTF8_NAMES = new Set(["utf-8", "utf8"]);

/** The charset parameter of a Content-Type, lower-cased and unquoted; undefined when none. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? "");
  if (match === null) return undefined;
  return (match[1] ?? match[2] ?? "").toLowerCase();
}
