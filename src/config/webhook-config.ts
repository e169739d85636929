/**
 * The webhook settings (README, "Configuration"; docs/webhooks.md), read by `deliver`, `start`
 * and `serve` (which checks a new subscription's URL with the same address rule).
 */
import { type Env, readFlag, readInteger } from "./read-env.js";

/**
 * A webhook POST's timeout: the default and the largest WEBHOOK_TIMEOUT_MS (webhooks/
 * post-webhook.ts). Here, not in webhooks/, so that config/ imports nothing above it.
 */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The first retry's delay, WEBHOOK_RETRY_BASE_MS's default (webhooks/retry-schedule.ts). */
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 5000;

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: send to private, loopback and link-local addresses too. */
  readonly allowPrivateAddresses: boolean;
  /** WEBHOOK_TIMEOUT_MS: a 2xx within this long delivers. */
  readonly timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the first retry's delay; each next one doubles (up to an hour). */
  readonly retryBaseMs: number;
}

export const WEBHOOK_CONFIG_DEFAULTS = {
  allowPrivateAddresses: false,
  timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
  retryBaseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS,
} as const satisfies WebhookConfig;

export function loadWebhookConfig(env: Env = process.env): WebhookConfig {
  return Object.freeze({
    allowPrivateAddresses: readFlag(
      env,
      "WEBHOOK_ALLOW_PRIVATE_ADDRESSES",
      WEBHOOK_CONFIG_DEFAULTS.allowPrivateAddresses,
    ),
    timeoutMs: readInteger(
      env,
      "WEBHOOK_TIMEOUT_MS",
      WEBHOOK_CONFIG_DEFAULTS.timeoutMs,
      100,
      DEFAULT_WEBHOOK_TIMEOUT_MS,
      "milliseconds",
    ),
    retryBaseMs: readInteger(
      env,
      "WEBHOOK_RETRY_BASE_MS",
      WEBHOOK_CONFIG_DEFAULTS.retryBaseMs,
      10,
      3_600_000,
      "milliseconds",
    ),
  });
}
