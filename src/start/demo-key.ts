/**
 * The demo API key `start` prints: a key named "demo", kept in clear in `stateDir/demo-key`
 * (mode 0600: readable by its owner alone) beside the devnet's chain state, so a saved curl and
 * the explorer keep working across restarts on the same data. The database stores only the
 * key's hash, so the file is the one place the clear key survives.
 *
 * The saved key is used again while it is the database's active "demo" key; otherwise (no file,
 * another database, the key revoked, `--new-demo-key`) the active "demo" key is revoked and a new
 * one made and saved. At most one demo key is active; keys with other names are left alone.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "../keys/api-key.js";
import type { ApiKeyRepository } from "../store/api-key-repository.js";

export const DEMO_KEY_NAME = "demo";
export const DEMO_KEY_FILE = "demo-key";

export interface DemoKeyParameters {
  /** The database's `apiKeys`. */
  repository: ApiKeyRepository;
  /** Where the key is kept: the devnet's state directory ($DEVNET_DIR/state). */
  stateDir: string;
  /** Make a new key even when the saved one is still valid (`start --new-demo-key`). */
  renew?: boolean;
  now?: Date;
}

export interface DemoKey {
  key: string;
  /** True when the saved key was used again; false when a new one was made. */
  kept: boolean;
}

/** The demo key for this state directory and database: the saved one, or a new one (saved). */
export async function demoKey(parameters: DemoKeyParameters): Promise<DemoKey> {
  const path = join(parameters.stateDir, DEMO_KEY_FILE);
  const saved = parameters.renew ? undefined : await readSavedKey(path);
  const { repository } = parameters;
  const active = (await repository.listKeys()).filter(
    (key) => key.name === DEMO_KEY_NAME && key.revokedAt === null,
  );
  if (saved !== undefined && active.some((key) => key.hash === hashApiKey(saved))) {
    // The file may have been copied or restored with looser permissions.
    await chmod(path, 0o600);
    return { key: saved, kept: true };
  }
  const generated = generateApiKey();
  // Saved before anything changes in the database: a key stored there that no file holds
  // could never be shown again, and a failed save leaves the old key working.
  await saveKey(path, generated.key);
  const now = parameters.now ?? new Date();
  for (const key of active) await repository.revokeKey(key.id, now);
  await repository.createKey({ name: DEMO_KEY_NAME, ...generated, createdAt: now });
  return { key: generated.key, kept: false };
}

async function readSavedKey(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, "utf8")).trim();
    return isWellFormedApiKey(text) ? text : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Written whole or not at all (a temporary file renamed), created with mode 0600. */
async function saveKey(path: string, key: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${key}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
