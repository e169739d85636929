/**
 * Webhook signing secrets and receiver URLs (which may carry Basic-auth credentials or a
 * `?token=`) encrypted at rest, when the operator gives a key (WEBHOOK_SECRETS_KEY_FILE;
 * docs/operations.md, "Security"). Then a copy of the database alone (a backup, a dump, a read
 * replica, a file another account could read) is not enough to sign webhooks or call receivers:
 * the key must be stolen too.
 *
 * AES-256-GCM, a random 96-bit nonce per value, the column's name as associated data (a URL
 * cannot be passed off as a secret), stored as `enc:v1:<base64url(nonce | tag | ciphertext)>`.
 * Without a key, values are stored as they are (as before this existed). A value in clear is
 * read as it is even with a key: subscriptions made before the key was set keep working.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const PREFIX = "enc:v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRETS_KEY_BYTES = 32;

/** Which stored value a sealed text is: bound into the ciphertext. */
export type SealedField = "url" | "secret";

export class SecretKeyMissingError extends Error {
  constructor() {
    super(
      "this subscription's URL and secret are stored encrypted and this process has no key to read them: set WEBHOOK_SECRETS_KEY_FILE to the key file the subscriptions were created with",
    );
    this.name = "SecretKeyMissingError";
  }
}

export interface SecretBox {
  /** Whether values are encrypted when stored (a key is set). */
  readonly encrypts: boolean;
  /** The value as stored: encrypted with a key, as it is without one. */
  seal(field: SealedField, value: string): string;
  /** The stored value read back; throws SecretKeyMissingError or a decryption error. */
  open(field: SealedField, stored: string): string;
}

/** Whether a stored value is encrypted. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function createSecretBox(key?: Buffer): SecretBox {
  if (key !== undefined && key.length !== SECRETS_KEY_BYTES) {
    throw new Error(`a webhook secrets key has ${SECRETS_KEY_BYTES} bytes, not ${key.length}`);
  }
  return {
    encrypts: key !== undefined,
    seal(field, value) {
      if (key === undefined) return value;
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(field));
      const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(field, stored) {
      if (!isSealed(stored)) return stored;
      if (key === undefined) throw new SecretKeyMissingError();
      const packed = Buffer.from(stored.slice(PREFIX.length), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, packed.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(field));
      decipher.setAuthTag(packed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(packed.subarray(NONCE_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new Error(
          "a stored webhook URL or secret does not decrypt with this key: WEBHOOK_SECRETS_KEY_FILE names another key than the one it was stored with",
        );
      }
    },
  };
}

/** No key: values stored and read as they are. */
export const CLEAR_SECRET_BOX = createSecretBox();

/**
 * The key from a key file's text: 64 hex digits (`openssl rand -hex 32`), surrounding
 * whitespace ignored; undefined when it is not that.
 */
export function parseSecretsKey(text: string): Buffer | undefined {
  const hex = text.trim();
  return /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, "hex") : undefined;
}
