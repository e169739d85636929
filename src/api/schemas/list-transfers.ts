/**
 * Route schema of `GET /api/oracle/bridge-transactions`. The querystring part documents the
 * parameters for OpenAPI; the rules themselves run in list-transfers-query.ts (the route turns
 * Ajv off for it). The 200 response schema fixes the record shape for the serialiser.
 */
import { SORT_FIELDS } from "../../store/types.js";
import { bridgeTransactionRef } from "./bridge-transaction.js";
import { standardErrorResponses, successEnvelopeSchema } from "./envelope.js";
import {
  ADDRESS_OR_TX_HASH_RULE,
  MAX_PAGE_NO,
  MAX_PAGE_SIZE,
  SORT_NAMES,
} from "./list-transfers-query.js";

export const listTransfersQuerystringSchema = {
  title: "ListBridgeTransactionsQuery",
  type: "object",
  required: ["addressOrTxHash", "pageNo", "pageSize"],
  properties: {
    addressOrTxHash: {
      type: "string",
      description:
        `Trimmed, then: an EVM address matches from_address or to_address; a 32-byte hash matches ` +
        `source_tx_hash, dest_tx_hash or message_id (both case-insensitive); any other value ` +
        `matches those five fields exactly. It ${ADDRESS_OR_TX_HASH_RULE}.`,
      examples: ["0x52908400098527886E0F7030069857D2E4169EE7"],
    },
    pageNo: {
      type: "string",
      pattern: "^[0-9]+$",
      description: `Page number, an integer from 1 to ${MAX_PAGE_NO}. A page past the end is empty.`,
      examples: ["1"],
    },
    pageSize: {
      type: "string",
      pattern: "^[0-9]+$",
      description: `Items per page, an integer from 1 to ${MAX_PAGE_SIZE}.`,
      examples: ["20"],
    },
    sortName: {
      type: "string",
      enum: [...SORT_NAMES],
      default: "created_at",
      description: `Sort field (snake_case or camelCase): ${SORT_FIELDS.join(", ")}. Amounts sort numerically; ties are broken by a unique key.`,
    },
    sortOrder: {
      type: "string",
      default: "desc",
      description: "asc or desc, any letter case.",
      examples: ["desc"],
    },
  },
} as const;

export const listTransfersDataSchema = {
  title: "BridgeTransactionPage",
  type: "object",
  required: ["data", "total", "page"],
  additionalProperties: false,
  properties: {
    data: { type: "array", items: bridgeTransactionRef, description: "This page's transactions" },
    total: { type: "integer", minimum: 0, description: "Number of all matching transactions" },
    page: {
      type: "object",
      required: ["page", "pageSize"],
      additionalProperties: false,
      properties: {
        page: { type: "integer", minimum: 1, description: "Page number of this result" },
        pageSize: { type: "integer", minimum: 1, description: "Items per page of this result" },
      },
    },
  },
} as const;

export const listTransfersRouteSchema = {
  summary: "List bridge transactions",
  operationId: "listTransfers",
  description:
    "Bridge transactions whose sender or recipient address, transaction hash or message id " +
    "matches `addressOrTxHash`, page by page. No API key needed.",
  tags: ["bridge transactions"],
  querystring: listTransfersQuerystringSchema,
  response: {
    200: successEnvelopeSchema("ListBridgeTransactionsResponse", listTransfersDataSchema),
    ...standardErrorResponses,
  },
} as const;
