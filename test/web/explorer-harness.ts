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
import Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { loadConfig } from "../../src/config/env.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { parseRegistry } from "../../src/domain/registry.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture, type RouterFixture } from "../../src/router/fixtures.js";
import { sqlitePath } from "../../src/store/database-url.js";
import { openDatabase } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { hexHash } from "../setup/transfer-fixtures.js";

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

export interface ExplorerApiOptions {
  /** Publish a block explorer per chain (`https://explorer.example/<chain name>`). */
  blockExplorers?: boolean;
  /**
   * The router's state is read "now" on every quote and quotes expire in real time (default: a
   * clock stopped at 0, so every quote is fresh and long expired).
   */
  liveClock?: boolean;
}

/** The block explorer the harness publishes for a chain, when asked to. */
export function fakeBlockExplorer(chainName: string): string {
  return `https://explorer.example/${chainName}`;
}

export async function startExplorerApi(
  records: readonly BridgeTransaction[],
  options: ExplorerApiOptions = {},
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
    const json = router.registryJson as { chains: { name: string }[] };
    const registry = options.blockExplorers
      ? parseRegistry({
          ...json,
          chains: json.chains.map((chain) => ({
            ...chain,
            blockExplorerUrl: fakeBlockExplorer(chain.name),
          })),
        })
      : router.registry;
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: "warn" }),
      store,
      logDestination: { write: () => undefined },
      plugins: [(instance) => registerApiKeyAuth(instance, { repository: store.apiKeys })],
      router: {
        router: createRouter({ registry }),
        ...(options.liveClock
          ? {
              state: {
                current: () => ({
                  ...router.snapshot,
                  chains: new Map(
                    [...router.snapshot.chains].map(([id, state]) => [
                      id,
                      { ...state, readAtMs: Date.now() },
                    ]),
                  ),
                }),
              },
              maxStateAgeMs: 60_000,
            }
          : {
              state: { current: () => router.snapshot },
              // The fixture's state was "read" at 0 ms; the clock stays there: always fresh.
              maxStateAgeMs: 60_000,
              now: () => 0,
            }),
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

/** One raw_events row as the indexer stores it (the timeline reads these). */
export interface RawEventRow {
  transfer: BridgeTransaction;
  name: "TransferSent" | "TransferDelivered" | "TransferFailed" | "TransferRefunded";
  chainId: number;
  block: number;
  time: number;
  address: string;
  args: object;
}

/** The reference events' roles (src/domain/bridge-event.ts). */
const ROLES: Record<RawEventRow["name"], string> = {
  TransferSent: "sent",
  TransferDelivered: "delivered",
  TransferFailed: "failed",
  TransferRefunded: "refunded",
};

/**
 * Stores indexed events for records (SQLite), so their pages show blocks, reasons and refunds:
 * the chains as the indexer knows them, then the events.
 */
export function storeIndexedEvents(
  databaseUrl: string,
  chains: readonly [number, string][],
  events: readonly RawEventRow[],
): void {
  const db = new Database(sqlitePath(databaseUrl));
  try {
    const insertChain = db.prepare(
      "INSERT INTO indexer_chains (chain_id, name, start_block, cursor_block, cursor_hash, head_block, target_block, state, error, updated_at) VALUES (?, ?, 0, 0, '', 0, 0, 'following', '', '')",
    );
    for (const [id, name] of chains) insertChain.run(id, name);
    const insert = db.prepare(
      "INSERT INTO raw_events (chain_id, tx_hash, log_index, block_number, block_hash, block_time, address, kind, event_name, message_id, args, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const e of events) {
      insert.run(
        e.chainId,
        hexHash(`${e.transfer.message_id}-${e.name}`),
        0,
        e.block,
        hexHash(`block-${e.chainId}-${e.block}`),
        e.time,
        e.address,
        0,
        e.name,
        e.transfer.message_id,
        JSON.stringify(e.args),
        ROLES[e.name],
      );
    }
  } finally {
    db.close();
  }
}

/** The page's elements that reach past the viewport's right edge (what makes it scroll sideways). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("body *"))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((e) => e.closest("[hidden]") === null)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`,
      )
      .slice(0, 10),
  );
}

export interface FailedAndRefunded {
  transfer: BridgeTransaction;
  source: { chainId: number; name: string; bridge: string };
  dest: { chainId: number; name: string; bridge: string };
  /** Block numbers of the send, the failure and the refund. */
  blocks: readonly [number, number, number];
  /** Their block times (Unix seconds). */
  times: readonly [number, number, number];
  reason: string;
  /** The refund's token (an address) and amount in its base units. */
  refund: { token: string; amount: string };
}

/** The indexer's events of a transfer that was sent, failed on the destination and refunded. */
export function storeFailedAndRefunded(databaseUrl: string, f: FailedAndRefunded): void {
  const { transfer, source, dest, blocks, times } = f;
  storeIndexedEvents(
    databaseUrl,
    [
      [source.chainId, source.name],
      [dest.chainId, dest.name],
    ],
    [
      {
        transfer,
        name: "TransferSent",
        chainId: source.chainId,
        block: blocks[0],
        time: times[0],
        address: source.bridge,
        args: {},
      },
      {
        transfer,
        name: "TransferFailed",
        chainId: dest.chainId,
        block: blocks[1],
        time: times[1],
        address: dest.bridge,
        args: { reason: f.reason },
      },
      {
        transfer,
        name: "TransferRefunded",
        chainId: source.chainId,
        block: blocks[2],
        time: times[2],
        address: source.bridge,
        args: f.refund,
      },
    ],
  );
}

/** The message ids of the home feed's rows, top to bottom. */
export async function feedIds(page: Page): Promise<string[]> {
  return page
    .locator("#feed tbody tr[data-message-id]")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-message-id") ?? ""));
}
