/**
 * API key format, hashing and the Authorization header (docs/http-api.md, API rule 5).
 *
 * A key is `bo_` + 32 random bytes in base64url (256 bits of entropy, 46 characters). Only its
 * SHA-256 hash is stored. A slow password hash (bcrypt, scrypt, argon2) exists to make guessing
 * low-entropy passwords expensive; a 256-bit random key cannot be guessed from its hash at any
 * speed, so a fast unsalted hash is as safe here and lets every request find its key by one map
 * lookup on the hash instead of trying each stored key's salt.
 */
import { createHash, randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "bo_";
/** Random bytes per key: 256 bits, above the 128 bits docs/http-api.md, API rule 5 asks for. */
export const API_KEY_RANDOM_BYTES = 32;
/** `bo_` + 8 base64url characters (48 bits): enough to tell keys apart in `keys list`. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

const API_KEY_PATTERN = /^bo_[A-Za-z0-9_-]{43}$/;

export interface GeneratedApiKey {
  /** The secret; shown to the operator once, never stored. */
  readonly key: string;
  /** Lowercase hex SHA-256 of the key: what the database stores and the cache looks up. */
  readonly hash: string;
  /** The key's first characters, stored in clear so people can recognise it in listings. */
  readonly prefix: string;
}

export function generateApiKey(): GeneratedApiKey {
  const key = API_KEY_PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString("base64url");
  return { key, hash: hashApiKey(key), prefix: displayPrefix(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
}

/** Whether a string has the shape of a key this service issues (says nothing of validity). */
export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/**
 * The key carried by an Authorization header value: `<key>` or `Bearer <key>` (scheme
 * case-insensitive, surrounding spaces ignored). Undefined when the header is absent or blank.
 */
export function apiKeyFromAuthorization(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === "") return undefined;
  const bearer = /^bearer(?:\s+(.*))?$/i.exec(value);
  const key = bearer === null ? value : (bearer[1] ?? "").trim();
  return key === "" ? undefined : key;
}
