/**
 * The whole service on a fresh devnet, in this process, as `bridge-oracle start` runs it: anvil
 * chains with our bridges and the relayer (no traffic), the indexer on the devnet's manifest and
 * the API (startApiService, as `serve`) on a SQLite file, with a key. What the client tests and
 * the README snippet test talk to. The rate limits and their window are the test's to choose.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiService, startApiService } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/env.js";
import { loadIndexerConfig } from "../../src/config/indexer-config.js";
import { silentLogger } from "../../src/devnet/logger.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { type RunningDevnet, runDevnet } from "../../src/devnet/run-devnet.js";
import { createIndexer } from "../../src/indexer/create-indexer.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { type Database, openDatabase } from "../../src/store/index.js";

export interface ClientStack {
  url: string;
  key: string;
  manifest: DevnetManifest;
  devnet: RunningDevnet;
  api: ApiService;
  stop(): Promise<void>;
}

export interface ClientStackOptions {
  /** RATE_LIMIT_ANONYMOUS_PER_MINUTE (per window); default 0 = unlimited. */
  anonymousPerWindow?: number;
  /** RATE_LIMIT_KEY_PER_MINUTE (per window); default 0 = unlimited. */
  keyPerWindow?: number;
  /** The rate limits' window; default one minute. */
  rateLimitWindowMs?: number;
}

export async function startClientStack(options: ClientStackOptions = {}): Promise<ClientStack> {
  const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-client-"));
  const closers: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  };
  try {
    // Two chains, a block a second and a quick relayer: a transfer settles in a few seconds.
    const devnet = await runDevnet({ chains: 2, blockTime: 1, relayDelayMs: 200, dir });
    closers.push(() => devnet.stop());
    const env = {
      DATABASE_URL: join(dir, "bridge-oracle.db"),
      LOG_LEVEL: "silent",
      ROUTER_CONFIG: devnet.manifestPath,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(options.anonymousPerWindow ?? 0),
      RATE_LIMIT_KEY_PER_MINUTE: String(options.keyPerWindow ?? 0),
    };
    const config = loadConfig(env);
    // One database object serves the API and the indexer, as in `start`.
    const database = await openDatabase(config.databaseUrl);
    closers.push(() => database.close());
    const key = await createKey(database);
    const api = await startApiService({ ...config, port: 0 }, env, {
      database,
      ...(options.rateLimitWindowMs !== undefined
        ? { rateLimitWindowMs: options.rateLimitWindowMs }
        : {}),
    });
    closers.push(() => api.close());
    const indexer = createIndexer({
      config: await loadIndexerConfig(devnet.manifestPath),
      store: database,
      logger: silentLogger,
    });
    const indexerStop = new AbortController();
    const indexing = indexer.run(indexerStop.signal);
    closers.push(async () => {
      indexerStop.abort();
      await indexing.catch(() => {});
    });
    return { url: api.url, key, manifest: devnet.manifest, devnet, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A new API key in the database (what `bridge-oracle keys create` does), in clear. */
async function createKey(database: Database): Promise<string> {
  const generated = generateApiKey();
  await database.apiKeys.createKey({ name: "client-test", ...generated, createdAt: new Date() });
  return generated.key;
}
