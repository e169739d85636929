/**
 * The webhook settings (README, "Configuration"; docs/webhooks.md), read by `deliver`, `start`
 * and `serve` (which checks a new subscription's URL with the same address rule).
 */
import { readFileSync } from "node:fs";
import {
  CLEAR_SECRET_BOX,
  createSecretBox,
  parseSecretsKey,
  type SecretBox,
} from "../secret-box.js";
import { ConfigError, type Env, read, readFlag, readInteger } from "./read-env.js";

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
  /**
   * WEBHOOK_SECRETS_KEY_FILE: subscriptions' URLs and signing secrets are stored encrypted with
   * its key (secret-box.ts); unset, as they are.
   */
  readonly secretBox: SecretBox;
}

export const WEBHOOK_CONFIG_DEFAULTS = {
  allowPrivateAddresses: false,
  timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
  retryBaseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS,
  secretBox: CLEAR_SECRET_BOX,
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
    secretBox: readSecretBox(env),
  });
}

/** The key of WEBHOOK_SECRETS_KEY_FILE (64 hex digits), or no encryption when it is unset. */
function readSecretBox(env: Env): SecretBox {
  const path = read(env, "WEBHOOK_SECRETS_KEY_FILE");
  const name = "WEBHOOK_SECRETS_KEY_FILE";
  if (path === undefined) return CLEAR_SECRET_BOX;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      name,
      `${name} names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): ${path}`,
    );
  }
  const key = parseSecretsKey(text);
  if (key === undefined) {
    throw new ConfigError(
      name,
      `${name} must name a file holding 64 hex digits (a 32-byte key, e.g. from \`openssl rand -hex 32\`): ${path}`,
    );
  }
  return createSecretBox(key);
}
