/**
 * `GET /api/oracle/bridge-transactions` (interface.md 4.1, decisions.md 3). No API key.
 * Rate limiting (registerRateLimit) applies to it; a valid API key (optional here) raises the limit.
 */
import type { FastifyInstance } from "fastify";
import type { Store } from "../../store/types.js";
import { listTransfersRouteSchema } from "../schemas/list-transfers.js";
import { parseListTransfersQuery } from "../schemas/list-transfers-query.js";

export const LIST_TRANSFERS_PATH = "/api/oracle/bridge-transactions";

export function registerListTransfersRoute(app: FastifyInstance, deps: { store: Store }): void {
  app.get(LIST_TRANSFERS_PATH, {
    schema: listTransfersRouteSchema,
    // The querystring schema documents; parseListTransfersQuery validates, with better messages
    // and rules Ajv cannot say (repeated parameters, trim-then-classify).
    validatorCompiler: () => (value) => ({ value }),
    handler: (request) =>
      listBridgeTransactions(deps.store, request.query as Record<string, unknown>),
  });
}

/** The handler: parse (throws 400 40001), query, wrap in the envelope. */
export async function listBridgeTransactions(store: Store, rawQuery: Record<string, unknown>) {
  const { query, page } = parseListTransfersQuery(rawQuery);
  const result = await store.transfers.listTransfers(query);
  return { code: 0, msg: "success", data: { data: result.items, total: result.total, page } };
}
