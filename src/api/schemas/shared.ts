/**
 * Schemas shared by several routes, registered on the root instance with `app.addSchema` before
 * any route so `$ref`s resolve. Add new shared schemas (the router's quote, ...) to this list;
 * each needs a unique `$id`, which @fastify/swagger also uses as the OpenAPI component name.
 */
import type { FastifyInstance } from "fastify";
import { bridgeTransactionSchema } from "./bridge-transaction.js";
import { errorEnvelopeSchema } from "./envelope.js";
import { routeQuoteParamsSchema } from "./router-quote.js";
import { webhookEventSchema } from "./webhooks.js";

export const sharedSchemas = [
  errorEnvelopeSchema,
  bridgeTransactionSchema,
  routeQuoteParamsSchema,
  webhookEventSchema,
] as const;

export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of sharedSchemas) app.addSchema(schema);
}
