/**
 * Route schemas of `/api/oracle/webhooks` (docs/webhooks.md) and the webhook event payload
 * (`WebhookEvent`, a shared component, also the request body of the create operation's
 * `callbacks` entry: what the service POSTs to the subscription's URL).
 */
import { MAX_FILTER_VALUES } from "../../webhooks/subscription-filter.js";
import { bridgeTransactionRef } from "./bridge-transaction.js";
import { standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

const utc = (description: string) =>
  ({ type: "string", description: `${description}; UTC, YYYY-MM-DD HH:MM:SS` }) as const;
const nullable = <T extends object>(schema: T) => ({ ...schema, nullable: true }) as const;

/** What the service POSTs to a subscription's URL. */
export const webhookEventSchema = {
  $id: "WebhookEvent",
  title: "WebhookEvent",
  description:
    "The body of each webhook delivery (POST to the subscription's URL). Headers: " +
    "`bridge-oracle-event-id` (the `id`), `bridge-oracle-event-type` (the `type`) and " +
    '`bridge-oracle-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of t + "." + raw body, keyed ' +
    "with the subscription's secret>` (docs/webhooks.md has a verification snippet). A retry or " +
    "redelivery sends the same id and body; deliveries are not ordered: keep the highest `seq` per " +
    "`data.message_id`.",
  type: "object",
  required: ["id", "type", "createdAt", "seq", "data"],
  additionalProperties: false,
  properties: {
    id: {
      type: "string",
      description: "Event id, the same on every retry (deduplicate by it)",
      examples: ["evt_1042"],
    },
    type: {
      type: "string",
      enum: ["transfer.created", "transfer.updated", "transfer.removed"],
      description:
        "transfer.created: first seen; transfer.updated: any field changed (status, amounts, ...); " +
        "transfer.removed: a chain reorganisation removed its send (data is the last state)",
    },
    createdAt: {
      type: "string",
      description: "When the change was stored; UTC, YYYY-MM-DD HH:MM:SS.mmm",
      examples: ["2026-11-26 10:15:02.311"],
    },
    seq: {
      type: "integer",
      description:
        "The change's sequence number: a record's later state has a higher seq than its earlier ones",
      examples: [1042],
    },
    data: bridgeTransactionRef,
  },
} as const;

const filterSchema = {
  type: "object",
  required: ["addresses", "txHashes"],
  additionalProperties: false,
  properties: {
    addresses: { type: "array", items: { type: "string" } },
    txHashes: { type: "array", items: { type: "string" } },
  },
} as const;

const subscriptionProperties = {
  id: { type: "integer", description: "Subscription id", examples: [7] },
  url: {
    type: "string",
    description: "Where events are POSTed (credentials in it are shown as ***)",
    examples: ["https://example.com/hooks/bridge"],
  },
  filter: {
    ...filterSchema,
    description:
      "Transfers delivered: those involving any of the addresses (sender or recipient) or hashes (source or destination transaction hash, or message id); both empty: every transfer",
  },
  status: { type: "string", enum: ["active", "disabled"] },
  disabledReason: nullable({
    type: "string",
    description: "Why it was disabled (24 hours of failed deliveries); null while active",
  }),
  failingSince: nullable(utc("First failed attempt since the last success; null while healthy")),
  createdAt: utc("Created"),
} as const;

const subscriptionSchema = {
  type: "object",
  required: Object.keys(subscriptionProperties),
  additionalProperties: false,
  properties: subscriptionProperties,
} as const;

const attemptSchema = {
  type: "object",
  required: ["attemptedAt", "responseStatus", "error", "durationMs", "responseBody"],
  additionalProperties: false,
  properties: {
    attemptedAt: utc("Sent"),
    responseStatus: nullable({ type: "integer", description: "The receiver's HTTP status" }),
    error: nullable({ type: "string", description: "Why the attempt failed; null on a 2xx" }),
    durationMs: { type: "integer" },
    responseBody: { type: "string", description: "Start of the receiver's answer" },
  },
} as const;

const deliverySchema = {
  type: "object",
  required: [
    "id",
    "eventId",
    "type",
    "seq",
    "messageId",
    "status",
    "attempts",
    "nextAttemptAt",
    "deliveredAt",
    "lastError",
    "createdAt",
  ],
  additionalProperties: false,
  properties: {
    id: { type: "integer", description: "Delivery id (for redeliver)" },
    eventId: { type: "string", examples: ["evt_1042"] },
    type: { type: "string" },
    seq: { type: "integer" },
    messageId: { type: "string" },
    status: { type: "string", enum: ["pending", "delivered", "failed"] },
    attempts: { type: "array", items: attemptSchema },
    nextAttemptAt: nullable(utc("When a pending delivery is tried next")),
    deliveredAt: nullable(utc("When a 2xx arrived")),
    lastError: nullable({ type: "string" }),
    createdAt: utc("Made"),
  },
} as const;

const idParams = {
  type: "object",
  required: ["id"],
  properties: {
    id: { type: "string", pattern: "^[1-9][0-9]{0,15}$", description: "Subscription id" },
  },
} as const;

const filterValues = (description: string) =>
  ({ type: "array", maxItems: MAX_FILTER_VALUES, items: { type: "string" }, description }) as const;

export const createWebhookRouteSchema = {
  summary: "Subscribe to transfer changes by webhook",
  operationId: "createWebhook",
  description:
    "Creates a subscription owned by the calling API key. Every change of a matching transfer is POSTed to `url` as a WebhookEvent, signed with the secret returned here (shown only in this answer). A 2xx within 10 s delivers; anything else is retried with exponential backoff for 24 hours. The URL must be http(s) and resolve to a public address.",
  tags: ["webhooks"],
  body: {
    title: "CreateWebhookRequest",
    type: "object",
    required: ["url"],
    additionalProperties: false,
    properties: {
      url: { type: "string", description: "http:// or https:// URL to POST events to" },
      addresses: filterValues(
        "Deliver transfers from or to these addresses (EVM or another chain's); omitted with txHashes: every transfer",
      ),
      txHashes: filterValues(
        "Deliver transfers with these source or destination transaction hashes or message ids",
      ),
    },
  },
  response: {
    200: successEnvelopeSchema("CreatedWebhookResponse", {
      type: "object",
      required: [...Object.keys(subscriptionProperties), "secret"],
      additionalProperties: false,
      properties: {
        ...subscriptionProperties,
        secret: {
          type: "string",
          description: "Signing secret (whsec_...); shown only in this answer",
        },
      },
    }),
    ...standardErrorResponses,
  },
  callbacks: {
    transferEvent: {
      "{$request.body#/url}": {
        post: {
          summary: "A transfer changed",
          operationId: "transferEvent",
          description:
            "Sent by the service's delivery process to the subscription's URL; signed (see WebhookEvent), not authenticated with an API key.",
          security: [],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } },
            },
          },
          responses: {
            "2XX": { description: "Delivered (within 10 s)" },
            "4XX": { description: "Refused by the receiver: retried with backoff for 24 hours" },
            default: { description: "Anything else: retried with backoff for 24 hours" },
          },
        },
      },
    },
  },
} as const;

export const listWebhooksRouteSchema = {
  summary: "This API key's webhook subscriptions",
  operationId: "listWebhooks",
  tags: ["webhooks"],
  response: {
    200: successEnvelopeSchema("WebhookListResponse", { type: "array", items: subscriptionSchema }),
    ...standardErrorResponses,
  },
} as const;

export const getWebhookRouteSchema = {
  summary: "One of this API key's webhook subscriptions",
  operationId: "getWebhook",
  description: "Another key's subscription is answered 404, as one that does not exist.",
  tags: ["webhooks"],
  params: idParams,
  response: {
    200: successEnvelopeSchema("WebhookResponse", subscriptionSchema),
    404: standardErrorResponses["4xx"],
    ...standardErrorResponses,
  },
} as const;

export const deleteWebhookRouteSchema = {
  summary: "Delete a webhook subscription and its deliveries",
  operationId: "deleteWebhook",
  description: "Another key's subscription is answered 404 and stays.",
  tags: ["webhooks"],
  params: idParams,
  response: {
    200: successEnvelopeSchema("DeletedWebhookResponse", {
      type: "object",
      required: ["id", "deleted"],
      additionalProperties: false,
      properties: { id: { type: "integer" }, deleted: { type: "boolean", enum: [true] } },
    }),
    404: standardErrorResponses["4xx"],
    ...standardErrorResponses,
  },
} as const;

export const listDeliveriesRouteSchema = {
  summary: "A subscription's latest deliveries and their attempts",
  operationId: "listWebhookDeliveries",
  tags: ["webhooks"],
  params: idParams,
  querystring: {
    type: "object",
    additionalProperties: false,
    properties: {
      limit: {
        type: "string",
        pattern: "^[0-9]+$",
        description: "Deliveries, newest first: 1 to 100 (default 20)",
      },
      status: { type: "string", enum: ["pending", "delivered", "failed"] },
    },
  },
  response: {
    200: successEnvelopeSchema("WebhookDeliveriesResponse", {
      type: "array",
      items: deliverySchema,
    }),
    404: standardErrorResponses["4xx"],
    ...standardErrorResponses,
  },
} as const;

export const redeliverRouteSchema = {
  summary: "Send a delivery again",
  operationId: "redeliverWebhookDelivery",
  description:
    "Makes the delivery pending and due now; it is sent with the same event id and body, and retried for 24 hours again if it fails.",
  tags: ["webhooks"],
  params: {
    type: "object",
    required: ["id", "deliveryId"],
    properties: {
      id: idParams.properties.id,
      deliveryId: { type: "string", pattern: "^[1-9][0-9]{0,15}$", description: "Delivery id" },
    },
  },
  response: {
    200: successEnvelopeSchema("RedeliverResponse", {
      type: "object",
      required: ["id", "eventId", "status"],
      additionalProperties: false,
      properties: {
        id: { type: "integer" },
        eventId: { type: "string" },
        status: { type: "string", enum: ["pending"] },
      },
    }),
    404: standardErrorResponses["4xx"],
    ...standardErrorResponses,
  },
} as const;
