/**
 * Route schemas of the explorer's extension endpoints (decisions.md 8): the latest transfers,
 * the 24-hour summary and one transfer's timeline. Each documents its parameters for OpenAPI
 * and fixes the answer's shape for the serialiser; the parameters' rules run in
 * routes/transfer-activity.ts (clear messages, decisions.md 6).
 */
import { TRANSFER_STATUSES } from "../../domain/bridge-transaction.js";
import { bridgeTransactionRef } from "./bridge-transaction.js";
import { errorEnvelopeRef, standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

export const MAX_LATEST_LIMIT = 100;
export const DEFAULT_LATEST_LIMIT = 20;

const TAGS = ["explorer"];
const nullableSeconds = (description: string) =>
  ({ type: "number", nullable: true, minimum: 0, description }) as const;
const utc = (description: string) =>
  ({ type: "string", description: `${description}; UTC, YYYY-MM-DD HH:MM:SS` }) as const;

export const latestTransfersRouteSchema = {
  summary: "Latest bridge transactions",
  operationId: "latestTransfers",
  description:
    "The newest bridge transactions across the whole service, by start_time (the send's block " +
    "time), newest first; ties by the order the service stored them. No API key needed.",
  tags: TAGS,
  querystring: {
    type: "object",
    properties: {
      limit: {
        type: "string",
        pattern: "^[0-9]+$",
        default: String(DEFAULT_LATEST_LIMIT),
        description: `How many, an integer from 1 to ${MAX_LATEST_LIMIT}.`,
      },
    },
  },
  response: {
    200: successEnvelopeSchema("LatestBridgeTransactionsResponse", {
      type: "object",
      required: ["data"],
      additionalProperties: false,
      properties: { data: { type: "array", items: bridgeTransactionRef } },
    }),
    304: {
      description:
        "Not modified: the answer is the one whose (weak) ETag was sent in If-None-Match. Every 200 carries an ETag and `Cache-Control: no-cache`, so a polling client revalidates instead of downloading the same records.",
      type: "null",
    },
    ...standardErrorResponses,
  },
} as const;

export const transferSummaryRouteSchema = {
  summary: "Summary of the last 24 hours",
  operationId: "transferSummary",
  description:
    "Bridge transactions whose start_time lies in the last 24 hours: counts by status, the " +
    "success rate (Success / (Success + Failed)), per route (source -> destination chain) the " +
    "median and 90th percentile delivery time of its Success transfers (destination block time " +
    "minus source block time, nearest rank), and the volume sent per source token symbol " +
    "(exact sums). Recomputed at most every few seconds.",
  tags: TAGS,
  response: {
    200: successEnvelopeSchema("TransferSummaryResponse", {
      type: "object",
      required: ["since", "until", "total", "byStatus", "successRate", "routes", "volumes"],
      additionalProperties: false,
      properties: {
        since: utc("Start of the window"),
        until: utc("End of the window (when the summary was computed)"),
        total: { type: "integer", minimum: 0 },
        byStatus: {
          type: "object",
          required: [...TRANSFER_STATUSES],
          additionalProperties: false,
          properties: Object.fromEntries(
            TRANSFER_STATUSES.map((s) => [s, { type: "integer", minimum: 0 }]),
          ),
        },
        successRate: {
          type: "number",
          nullable: true,
          minimum: 0,
          maximum: 1,
          description: "Success / (Success + Failed); null while none has finished",
        },
        routes: {
          type: "array",
          items: {
            type: "object",
            required: [
              "sourceChain",
              "destChain",
              "transfers",
              "delivered",
              "medianDeliverySeconds",
              "p90DeliverySeconds",
            ],
            additionalProperties: false,
            properties: {
              sourceChain: { type: "string" },
              destChain: { type: "string" },
              transfers: { type: "integer", minimum: 0 },
              delivered: { type: "integer", minimum: 0 },
              medianDeliverySeconds: nullableSeconds("null when none was delivered"),
              p90DeliverySeconds: nullableSeconds("null when none was delivered"),
            },
          },
        },
        volumes: {
          type: "array",
          items: {
            type: "object",
            required: ["symbol", "amount", "transfers"],
            additionalProperties: false,
            properties: {
              symbol: { type: "string" },
              amount: { type: "string", description: "Sum sent, human-unit decimal string" },
              transfers: { type: "integer", minimum: 0 },
            },
          },
        },
      },
    }),
    ...standardErrorResponses,
  },
} as const;

const timelineStepSchema = {
  type: "object",
  required: [
    "step",
    "chainName",
    "chainId",
    "blockNumber",
    "time",
    "secondsAfterSent",
    "txHash",
    "reason",
    "amount",
    "tokenAddress",
    "tokenSymbol",
  ],
  additionalProperties: false,
  properties: {
    step: { type: "string", enum: ["sent", "delivered", "failed", "refunded"] },
    chainName: { type: "string" },
    chainId: {
      type: "integer",
      nullable: true,
      description: "EVM chain id; null for an imported record (no stored events)",
    },
    blockNumber: { type: "integer", nullable: true, description: "null for an imported record" },
    time: utc("Block time"),
    secondsAfterSent: nullableSeconds("Seconds since the send; 0 for the send itself"),
    txHash: { type: "string" },
    reason: { type: "string", description: 'failed: the destination\'s reason; else ""' },
    amount: {
      type: "string",
      description: 'refunded: the amount repaid to the sender, human units; else ""',
    },
    tokenAddress: { type: "string", description: 'refunded: the repaid token; else ""' },
    tokenSymbol: { type: "string", description: 'refunded: its symbol; else ""' },
  },
} as const;

export const transferTimelineRouteSchema = {
  summary: "One bridge transaction's timeline",
  operationId: "transferTimeline",
  description:
    "The record and its steps: sent, then delivered or failed, then refunded, each with its " +
    "chain, block, block time, transaction and the seconds since the send; a failure's reason " +
    "and a refund's amount. `id` is the message id or the source or destination transaction " +
    "hash of exactly one transfer. A record imported rather than indexed has steps from the " +
    "record alone (no block numbers).",
  tags: TAGS,
  params: {
    type: "object",
    required: ["id"],
    properties: {
      id: { type: "string", description: "Message id, or a source / destination tx hash" },
    },
  },
  response: {
    200: successEnvelopeSchema("TransferTimelineResponse", {
      type: "object",
      required: ["transfer", "steps"],
      additionalProperties: false,
      properties: {
        transfer: bridgeTransactionRef,
        steps: { type: "array", items: timelineStepSchema },
      },
    }),
    404: errorEnvelopeRef,
    ...standardErrorResponses,
  },
} as const;
