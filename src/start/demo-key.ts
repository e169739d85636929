/**
 * The demo API key `start` prints: a key named "demo", made afresh at every start because a key
 * is shown only once (only its hash is stored). The previous "demo" key is revoked first, so at
 * most one demo key is ever active; keys with other names are left alone.
 */
import { generateApiKey } from "../keys/api-key.js";
import type { ApiKeyRepository } from "../store/api-key-repository.js";

export const DEMO_KEY_NAME = "demo";

/** Revokes the active "demo" key (if any), creates a new one and returns it in clear. */
export async function createDemoKey(
  repository: ApiKeyRepository,
  now = new Date(),
): Promise<string> {
  for (const key of await repository.listKeys()) {
    if (key.name === DEMO_KEY_NAME && key.revokedAt === null) {
      await repository.revokeKey(key.id, now);
    }
  }
  const generated = generateApiKey();
  await repository.createKey({ name: DEMO_KEY_NAME, ...generated, createdAt: now });
  return generated.key;
}
