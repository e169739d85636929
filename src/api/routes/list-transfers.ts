/**
 * `GET /api/oracle/bridge-transactions` (docs/http-api.md, API rule 3). No API key.
 * Rate limiting (registerRateLimit) applies to it; a valid API key (optional here) raises the
 * limit.
 *
 * With a response cache (response-cache.ts) and a store that has a change counter (SQLite, and
 * PostgreSQL without a read replica), an answer is served from the cache while the data it was
 * read from is unchanged; the cached text is the very text the route would serialise, so a
 * client cannot tell the two apart.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.js";
import { isStoreUnavailable, ReadReplicaError } from "../../store/store-unavailable.js";
import type { ListTransfersResult, Store } from "../../store/types.js";
import type { ResponseCache } from "../response-cache.js";
import { listTransfersRouteSchema } from "../schemas/list-transfers.js";
import { parseListTransfersQuery } from "../schemas/list-transfers-query.js";

export const LIST_TRANSFERS_PATH = "/api/oracle/bridge-transactions";

const JSON_UTF8 = "application/json; charset=utf-8";

export interface ListTransfersRouteDeps {
  store: Store;
  /** Caches answers by URL when the store has a change counter; none by default. */
  cache?: ResponseCache;
}

export function registerListTransfersRoute(
  app: FastifyInstance,
  deps: ListTransfersRouteDeps,
): void {
  const { store, cache } = deps;
  const changeCounter = cache === undefined ? undefined : store.changeCounter;

  app.get(LIST_TRANSFERS_PATH, {
    schema: listTransfersRouteSchema,
    // The querystring schema documents; parseListTransfersQuery validates, with better messages
    // and rules Ajv cannot say (repeated parameters, trim-then-classify).
    validatorCompiler: () => (value) => ({ value }),
    handler:
      cache === undefined || changeCounter === undefined
        ? (request) => listBridgeTransactions(store, request.query as Record<string, unknown>)
        : (request, reply) => cachedList(request, reply, store, cache, changeCounter),
  });
}

function cachedList(
  request: FastifyRequest,
  reply: FastifyReply,
  store: Store,
  cache: ResponseCache,
  changeCounter: () => number | undefined,
): FastifyReply | Promise<FastifyReply> {
  // The counter BEFORE the read: a commit landing during the read leaves this answer tagged
  // with the older counter, which no later lookup matches.
  const version = changeCounter();
  if (version === undefined) {
    return listBridgeTransactions(store, request.query as Record<string, unknown>).then((body) =>
      reply.send(body),
    );
  }
  const key = request.url;
  const hit = cache.get(key, version);
  if (hit !== undefined) return reply.type(JSON_UTF8).send(hit);
  return listBridgeTransactions(store, request.query as Record<string, unknown>).then((body) => {
    const text = reply.serialize(body) as string;
    cache.set(key, version, text);
    return reply.type(JSON_UTF8).send(text);
  });
}

/**
 * The handler: parse (throws 400 40001), query, wrap in the envelope. A database that cannot be
 * reached (or gives no answer within the store's timeouts) is 503 50301 with Retry-After, not a
 * 500: the client should retry, not report a bug. The read replica is named when it is the one
 * at fault, including when it lacks the schema (it has not replayed a migration yet).
 */
export async function listBridgeTransactions(store: Store, rawQuery: Record<string, unknown>) {
  const { query, page } = parseListTransfersQuery(rawQuery);
  const result: ListTransfersResult = await readStore(() => store.transfers.listTransfers(query));
  return { code: 0, msg: "success", data: { data: result.items, total: result.total, page } };
}

/** Runs a store read; a database that cannot be reached becomes 503 50301 with Retry-After. */
export async function readStore<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw storeFailure(error);
  }
}

/**
 * What to throw for a store call's failure: 503 50301 with Retry-After when the database (or
 * the read replica) cannot answer now, the error itself otherwise (a 500).
 */
export function storeFailure(error: unknown): unknown {
  if (!isStoreUnavailable(error)) return error;
  return new ApiError("serviceUnavailable", unavailableMessage(error), {
    headers: { "retry-after": "1" },
    cause: error,
  });
}

function unavailableMessage(error: unknown): string {
  if (!(error instanceof ReadReplicaError)) return "the database is unreachable; retry shortly";
  return error.problem === "not migrated"
    ? "the read replica (DATABASE_READ_URL) is not migrated yet; retry shortly"
    : "the read replica (DATABASE_READ_URL) is unreachable; retry shortly";
}
