/**
 * Route schema of `GET /api/oracle/bridge-transactions/stream` (docs/push.md), for OpenAPI. The
 * rules run in the route (routes/transfer-stream.ts); `addressOrTxHash` is the list endpoint's.
 */
import { standardErrorResponses } from "./envelope.js";
import { listTransfersQuerystringSchema } from "./list-transfers.js";

export const transferStreamQuerystringSchema = {
  title: "BridgeTransactionStreamQuery",
  type: "object",
  required: ["addressOrTxHash"],
  properties: {
    addressOrTxHash: listTransfersQuerystringSchema.properties.addressOrTxHash,
    since: {
      type: "string",
      pattern: "^[0-9]+$",
      description:
        "Resume after this change sequence number (an event id), as the Last-Event-ID header " +
        "does; the header wins when both are sent (a browser's EventSource sends it when it " +
        "reconnects to the same URL).",
      examples: ["1042"],
    },
  },
} as const;

const EVENTS_DESCRIPTION = [
  "A `text/event-stream` (server-sent events) that stays open. Events:",
  "",
  "- `transfer`: a matching record was created or changed (a send seen, a delivery, a failure, a",
  "  refund, or a reorg's reversal). `data` is the whole record (the list endpoint's item), `id`",
  "  the change's sequence number.",
  "- `removed`: a reorg dropped the send, so the record is gone; `data` is the record as it was.",
  "- `ready`: everything before `id` has been sent (after a resume, the missed changes); live",
  '  changes follow. `data` is `{"seq": <id>}`.',
  "- `reset`: the changes after Last-Event-ID are no longer retained (or that id is unknown to",
  "  this database): reload with the list endpoint, then follow on from `id`. `data` is",
  '  `{"reason", "lastEventId", "seq"}`.',
  "",
  "A comment line (`: heartbeat`) every 15 s (STREAM_HEARTBEAT_SECONDS), sometimes with a bare",
  "`id:` line that moves the client's Last-Event-ID past changes that did not match.",
].join("\n");

export const transferStreamRouteSchema = {
  summary: "Stream bridge transaction changes",
  operationId: "streamTransfers",
  description:
    "Every change of the bridge transactions that `addressOrTxHash` matches (the list " +
    "endpoint's rule), as it happens, as server-sent events. Send `Last-Event-ID` (or " +
    "`since`) to resume: the changes missed while retained (7 days by default) come first, " +
    "each once, in order. No API key needed; a valid key raises the rate limit and counts " +
    "concurrent streams per key instead of per client address (over the limit: 429 42901 " +
    "before the stream starts).",
  tags: ["bridge transactions"],
  querystring: transferStreamQuerystringSchema,
  headers: {
    type: "object",
    properties: {
      "last-event-id": {
        type: "string",
        pattern: "^[0-9]+$",
        description: "The id of the last event received: resume after it.",
      },
    },
  },
  response: {
    200: {
      description: EVENTS_DESCRIPTION,
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
    ...standardErrorResponses,
  },
} as const;

/** `GET /api/oracle/bridge-transactions/latest/stream`: the same events for every transfer. */
export const latestStreamRouteSchema = {
  summary: "Stream every bridge transaction's changes",
  operationId: "streamLatestTransfers",
  description:
    "The changes of every bridge transaction of the service, as server-sent events: what the " +
    "explorer's live feed of the latest transfers follows instead of polling. The events, " +
    "resuming (`Last-Event-ID` or `since`), limits and rate limiting are those of " +
    "`/api/oracle/bridge-transactions/stream`.",
  tags: ["bridge transactions"],
  querystring: {
    title: "LatestBridgeTransactionStreamQuery",
    type: "object",
    properties: { since: transferStreamQuerystringSchema.properties.since },
  },
  headers: transferStreamRouteSchema.headers,
  response: transferStreamRouteSchema.response,
} as const;
