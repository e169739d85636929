/**
 * The real API (buildApp) listening on 127.0.0.1 over an isolated SQLite store seeded with
 * `records`, with real API-key auth (one key created for the test) and the real quote route over
 * the router fixture (src/router/fixtures.ts) at a fixed state; plus headless Chromium through
 * playwright-core with a fresh user-data-dir. A missing Chromium FAILS the suite with the
 * install command; it never skips.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { type BrowserContext, chromium } from "playwright-core";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { loadConfig } from "../../src/config/env.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture, type RouterFixture } from "../../src/router/fixtures.js";
import { openDatabase } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { setupIsolatedDatabase } from "../setup/database.js";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

export interface ExplorerHarness {
  app: FastifyInstance;
  store: Store;
  /** The SQLite file of the store. */
  databaseUrl: string;
  baseUrl: string;
  apiKey: string;
  router: RouterFixture;
  close(): Promise<void>;
}

export async function startExplorerApi(
  records: readonly BridgeTransaction[],
): Promise<ExplorerHarness> {
  const db = await setupIsolatedDatabase("sqlite");
  const store = await openDatabase(db.databaseUrl);
  const cleanups: (() => Promise<void>)[] = [() => db.cleanup(), () => store.close()];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    await store.transfers.upsertTransfers(records);
    const generated = generateApiKey();
    await store.apiKeys.createKey({ name: "explorer-test", ...generated, createdAt: new Date() });
    const router = createRouterFixture();
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: "warn" }),
      store,
      logDestination: { write: () => undefined },
      plugins: [(instance) => registerApiKeyAuth(instance, { repository: store.apiKeys })],
      router: {
        router: createRouter({ registry: router.registry }),
        state: { current: () => router.snapshot },
        // The fixture's state was "read" at 0 ms; the clock stays there, so it is always fresh.
        maxStateAgeMs: 60_000,
        now: () => 0,
      },
    });
    cleanups.push(() => app.close());
    const address = await app.listen({ host: "127.0.0.1", port: 0 });
    return {
      app,
      store,
      databaseUrl: db.databaseUrl,
      baseUrl: address,
      apiKey: generated.key,
      router,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium is required for the explorer browser tests but ${executablePath} does not exist:` +
        " install it (apt-get install -y chromium fonts-liberation) or set CHROMIUM_PATH",
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), "bridge-oracle-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
      timeout: 30_000,
    });
    context.setDefaultTimeout(10_000);
    return {
      context,
      async close() {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
