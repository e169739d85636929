/**
 * Webhook signatures (docs/webhooks.md, "Verifying a delivery"): the scheme payment APIs use.
 *
 *   Bridge-Oracle-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>
 *
 * The timestamp is inside the signed text, so a captured request cannot be replayed later with
 * a fresh timestamp; receivers refuse timestamps older than a tolerance (5 minutes suggested).
 * The key is the subscription's secret string as shown at creation (`whsec_...`), UTF-8.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "bridge-oracle-signature";
export const EVENT_ID_HEADER = "bridge-oracle-event-id";
export const EVENT_TYPE_HEADER = "bridge-oracle-event-type";

export const SECRET_PREFIX = "whsec_";

/** A new subscription secret: `whsec_` + 32 random bytes in base64url (256 bits). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

/** The secret's first characters, safe to show in listings (48 random bits, like key prefixes). */
export function secretHint(secret: string): string {
  return `${secret.slice(0, SECRET_PREFIX.length + 4)}...`;
}

/** The v1 signature: hex HMAC-SHA256 of `${timestamp}.${body}` under `secret`. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** The header value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`;
}

/**
 * Whether `header` signs `body` under `secret` with a timestamp at most `toleranceSeconds` from
 * `nowSeconds`. The same check the docs' snippet makes (test/webhooks/signature-docs.test.ts
 * runs that one); kept here for our own tests and the benchmark's receiver.
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    return false;
  }
  const expected = Buffer.from(signPayload(secret, timestamp, body), "hex");
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const given = Buffer.from(v ?? "", "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
