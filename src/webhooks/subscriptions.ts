/**
 * Subscription management shared by the `webhooks` CLI and the /api/oracle/webhooks routes:
 * creating one (URL rules, filter rules, a new secret), and the public view of one.
 */

import { redactWebhookUrl } from "../redact-url.js";
import { CLEAR_SECRET_BOX, type SecretBox, SecretKeyMissingError } from "../secret-box.js";
import type { WebhookRepository, WebhookSubscription } from "../store/webhook-repository.js";
import { formatWebhookTime } from "../store/webhook-repository.js";
import type { WebhookStore } from "../store/webhook-store.js";
import { checkWebhookUrl, type ResolveHost } from "./outbound-address.js";
import { generateWebhookSecret } from "./signature.js";
import { parseSubscriptionFilter } from "./subscription-filter.js";

/** Subscriptions one API key may hold: a bound on the fan-out's work per change. */
export const MAX_SUBSCRIPTIONS_PER_KEY = 100;

export class SubscriptionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SubscriptionRefused";
  }
}

/** A subscription as shown to its owner: the URL without credentials, never the secret. */
export interface SubscriptionView {
  readonly id: number;
  readonly url: string;
  readonly filter: { readonly addresses: readonly string[]; readonly txHashes: readonly string[] };
  readonly status: "active" | "disabled";
  readonly disabledReason: string | null;
  /** UTC time of the first failure since the last success; null while healthy. */
  readonly failingSince: string | null;
  readonly createdAt: string;
}

/**
 * The public view; `secretBox` reads a URL stored encrypted (WEBHOOK_SECRETS_KEY_FILE). One this
 * process cannot read is shown as such, never as its ciphertext.
 */
export function viewSubscription(
  subscription: WebhookSubscription,
  secretBox: SecretBox = CLEAR_SECRET_BOX,
): SubscriptionView {
  return {
    id: subscription.id,
    url: shownUrl(subscription.url, secretBox),
    filter: {
      addresses: [...subscription.filter.addresses],
      txHashes: [...subscription.filter.txHashes],
    },
    status: subscription.status,
    disabledReason: subscription.disabledReason,
    failingSince:
      subscription.failingSince === null ? null : formatWebhookTime(subscription.failingSince),
    createdAt: subscription.createdAt,
  };
}

function shownUrl(stored: string, secretBox: SecretBox): string {
  try {
    return redactWebhookUrl(secretBox.open("url", stored));
  } catch (error) {
    return error instanceof SecretKeyMissingError
      ? "(stored encrypted; this process has no WEBHOOK_SECRETS_KEY_FILE to show it)"
      : "(stored encrypted with another key than WEBHOOK_SECRETS_KEY_FILE's)";
  }
}

export interface CreateSubscriptionInput {
  readonly ownerKeyId: number;
  readonly url: string;
  readonly addresses?: readonly string[] | undefined;
  readonly txHashes?: readonly string[] | undefined;
}

/**
 * Validates and stores a subscription; returns it with its secret (the only time the secret
 * leaves the database). Throws SubscriptionRefused (a message for the caller) or the URL and
 * filter rules' own errors (WebhookUrlError, FilterError).
 */
export async function createSubscription(
  store: WebhookStore,
  input: CreateSubscriptionInput,
  options: {
    allowPrivateAddresses: boolean;
    now: number;
    resolve?: ResolveHost;
    /** Stores the URL and secret encrypted when it has a key (secret-box.ts). */
    secretBox?: SecretBox;
  },
): Promise<{ subscription: SubscriptionView; secret: string }> {
  const filter = parseSubscriptionFilter(input);
  const url = await checkWebhookUrl(input.url, {
    allowPrivateAddresses: options.allowPrivateAddresses,
    ...(options.resolve !== undefined ? { resolve: options.resolve } : {}),
  });
  const secret = generateWebhookSecret();
  const secretBox = options.secretBox ?? CLEAR_SECRET_BOX;
  const stored = await store.transaction(async (webhooks: WebhookRepository) => {
    const owned = await webhooks.listSubscriptions(input.ownerKeyId);
    if (owned.length >= MAX_SUBSCRIPTIONS_PER_KEY) {
      throw new SubscriptionRefused(
        `this API key already has ${owned.length} webhook subscriptions, the most one key may hold; delete one first`,
      );
    }
    return webhooks.createSubscription({
      ownerKeyId: input.ownerKeyId,
      url: secretBox.seal("url", url.toString()),
      filter,
      secret: secretBox.seal("secret", secret),
      createdAt: formatWebhookTime(options.now),
    });
  });
  return { subscription: viewSubscription(stored, secretBox), secret };
}

/** One attempt as shown in `deliveries` (the response body's start, not all 1 KiB). */
export interface AttemptView {
  readonly attemptedAt: string;
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly responseBody: string;
}

export interface DeliveryView {
  readonly id: number;
  readonly eventId: string;
  readonly type: string;
  readonly seq: number;
  readonly messageId: string;
  readonly status: "pending" | "delivered" | "failed";
  readonly attempts: AttemptView[];
  /** UTC; when a pending delivery is next tried, else null. */
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
  readonly lastError: string | null;
  readonly createdAt: string;
}

/** The subscription's latest deliveries (newest first) with their attempts. */
export async function listDeliveryViews(
  webhooks: WebhookRepository,
  subscriptionId: number,
  options: { limit: number; status?: "pending" | "delivered" | "failed" },
): Promise<DeliveryView[]> {
  const deliveries = await webhooks.listDeliveries(subscriptionId, options);
  const attempts = await webhooks.listAttempts(deliveries.map((d) => d.id));
  return deliveries.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    type: d.eventType,
    seq: d.changeSeq,
    messageId: d.messageId,
    status: d.status,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attemptedAt: a.attemptedAt,
        responseStatus: a.responseStatus,
        error: a.error,
        durationMs: a.durationMs,
        responseBody: a.responseBody.slice(0, 200),
      })),
    nextAttemptAt: d.status === "pending" ? formatWebhookTime(d.nextAttemptAt) : null,
    deliveredAt: d.deliveredAt === null ? null : formatWebhookTime(d.deliveredAt),
    lastError: d.lastError,
    createdAt: d.createdAt,
  }));
}
