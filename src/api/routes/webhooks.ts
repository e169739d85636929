/**
 * `/api/oracle/webhooks`: an API key's webhook subscriptions (docs/webhooks.md). Every route
 * needs a key (auth.ts), and a key sees only what it owns: another key's subscription or
 * delivery is answered 404 exactly like one that does not exist, and cannot be deleted.
 *
 *   POST   /api/oracle/webhooks                                      create (secret shown once)
 *   GET    /api/oracle/webhooks                                      list
 *   GET    /api/oracle/webhooks/:id                                  one
 *   DELETE /api/oracle/webhooks/:id                                  delete
 *   GET    /api/oracle/webhooks/:id/deliveries                       latest deliveries
 *   POST   /api/oracle/webhooks/:id/deliveries/:deliveryId/redeliver send one again
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.js";
import type { SecretBox } from "../../secret-box.js";
import type { WebhookStore } from "../../store/webhook-store.js";
import { type ResolveHost, WebhookUrlError } from "../../webhooks/outbound-address.js";
import { FilterError } from "../../webhooks/subscription-filter.js";
import {
  createSubscription,
  listDeliveryViews,
  SubscriptionRefused,
  viewSubscription,
} from "../../webhooks/subscriptions.js";
import type {} from "../plugins/auth.js"; // FastifyContextConfig.apiKey
import {
  createWebhookRouteSchema,
  deleteWebhookRouteSchema,
  getWebhookRouteSchema,
  listDeliveriesRouteSchema,
  listWebhooksRouteSchema,
  redeliverRouteSchema,
} from "../schemas/webhooks.js";

export const WEBHOOKS_PATH = "/api/oracle/webhooks";

export interface WebhookRoutesDeps {
  readonly store: WebhookStore;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: subscriptions may point at private addresses. */
  readonly allowPrivateAddresses: boolean;
  /** Reads and writes URLs and secrets encrypted (WEBHOOK_SECRETS_KEY_FILE); default in clear. */
  readonly secretBox?: SecretBox;
  readonly now?: () => number;
  readonly resolve?: ResolveHost;
}

const CREATE_FIELDS = ["url", "addresses", "txHashes"];

const ok = <T>(data: T) => ({ code: 0, msg: "success", data });

function ownerOf(request: FastifyRequest): number {
  const key = request.apiKey;
  // The route needs a key: auth.ts refuses the request before the handler without one.
  if (key === undefined) throw new ApiError("missingApiKey", "missing API key");
  return key.id;
}

function notFound(id: number): ApiError {
  return new ApiError("notFound", `no webhook subscription ${id} for this API key`);
}

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRoutesDeps): void {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const config = { apiKey: "required" as const };

  app.post<{ Body: { url: string; addresses?: string[]; txHashes?: string[] } }>(WEBHOOKS_PATH, {
    schema: createWebhookRouteSchema,
    config,
    // Ajv drops unknown fields silently; a misspelt filter ("adresses") would then subscribe
    // to every transfer, so unknown fields are refused before validation.
    preValidation: async (request) => {
      const extra = Object.keys(request.body ?? {}).find((name) => !CREATE_FIELDS.includes(name));
      if (extra !== undefined) {
        throw new ApiError(
          "invalidParameter",
          `${extra.slice(0, 40)} is not an accepted body field (${CREATE_FIELDS.join(", ")})`,
        );
      }
    },
    handler: async (request) => {
      try {
        const created = await createSubscription(
          store,
          { ownerKeyId: ownerOf(request), ...request.body },
          {
            allowPrivateAddresses: deps.allowPrivateAddresses,
            now: now(),
            ...(deps.secretBox !== undefined ? { secretBox: deps.secretBox } : {}),
            ...(deps.resolve !== undefined ? { resolve: deps.resolve } : {}),
          },
        );
        return ok({ ...created.subscription, secret: created.secret });
      } catch (error) {
        if (error instanceof WebhookUrlError || error instanceof FilterError) {
          throw new ApiError("invalidParameter", error.message);
        }
        if (error instanceof SubscriptionRefused) {
          throw new ApiError("invalidParameter", error.message);
        }
        throw error;
      }
    },
  });

  app.get(WEBHOOKS_PATH, {
    schema: listWebhooksRouteSchema,
    config,
    handler: async (request) =>
      ok(
        (await store.webhooks.listSubscriptions(ownerOf(request))).map((subscription) =>
          viewSubscription(subscription, deps.secretBox),
        ),
      ),
  });

  app.get<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id`, {
    schema: getWebhookRouteSchema,
    config,
    handler: async (request) => {
      const id = Number(request.params.id);
      const subscription = await store.webhooks.getSubscription(id, ownerOf(request));
      if (subscription === undefined) throw notFound(id);
      return ok(viewSubscription(subscription, deps.secretBox));
    },
  });

  app.delete<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id`, {
    schema: deleteWebhookRouteSchema,
    config,
    handler: async (request) => {
      const id = Number(request.params.id);
      if (!(await store.webhooks.deleteSubscription(id, ownerOf(request)))) throw notFound(id);
      return ok({ id, deleted: true });
    },
  });

  app.get<{
    Params: { id: string };
    Querystring: { limit?: string; status?: "pending" | "delivered" | "failed" };
  }>(`${WEBHOOKS_PATH}/:id/deliveries`, {
    schema: listDeliveriesRouteSchema,
    config,
    handler: async (request) => {
      const id = Number(request.params.id);
      const limit = Number(request.query.limit ?? "20");
      if (!(limit >= 1 && limit <= 100)) {
        throw new ApiError(
          "invalidParameter",
          `limit must be an integer from 1 to 100, got '${request.query.limit}'`,
        );
      }
      if ((await store.webhooks.getSubscription(id, ownerOf(request))) === undefined) {
        throw notFound(id);
      }
      return ok(
        await listDeliveryViews(store.webhooks, id, {
          limit,
          ...(request.query.status !== undefined ? { status: request.query.status } : {}),
        }),
      );
    },
  });

  app.post<{ Params: { id: string; deliveryId: string } }>(
    `${WEBHOOKS_PATH}/:id/deliveries/:deliveryId/redeliver`,
    {
      schema: redeliverRouteSchema,
      config,
      handler: async (request) => {
        const id = Number(request.params.id);
        const deliveryId = Number(request.params.deliveryId);
        const subscription = await store.webhooks.getSubscription(id, ownerOf(request));
        if (subscription === undefined) throw notFound(id);
        const delivery = await store.webhooks.getDelivery(deliveryId, subscription.ownerKeyId);
        if (delivery === undefined || delivery.subscriptionId !== id) {
          throw new ApiError("notFound", `no delivery ${deliveryId} of webhook subscription ${id}`);
        }
        if (subscription.status !== "active") {
          throw new ApiError(
            "invalidParameter",
            `webhook subscription ${id} is disabled (${subscription.disabledReason ?? ""}); nothing is sent to it`,
          );
        }
        await store.webhooks.redeliver(deliveryId, now());
        return ok({ id: deliveryId, eventId: delivery.eventId, status: "pending" as const });
      },
    },
  );
}
