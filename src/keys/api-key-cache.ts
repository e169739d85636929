/**
 * The per-process set of valid API keys, so that authenticating a request never touches the
 * database (docs/api-keys.md).
 *
 * Invariants:
 * - `authenticate` is synchronous and does no I/O: a hash and one Map lookup (no
 *   database query on the request path: docs/router.md, "Chain state").
 * - Every `refreshIntervalMs` the cache asks the store for the key-set version (one tiny query);
 *   only when it changed (a key was created or revoked, by this or any other process) does it
 *   reload the active keys. A key revoked from the CLI therefore stops working in every running
 *   process within `refreshIntervalMs` plus one query.
 * - On PostgreSQL (`subscribe`) a NOTIFY from the version row's trigger makes every process
 *   reload at once, so there a revoked key stops working within the notification's delivery
 *   (milliseconds); the poll remains for when the listening connection is down.
 * - Uses are recorded in memory and written to last_used_at in one batch every
 *   `lastUsedFlushIntervalMs`, never per request.
 * - When the store cannot be reached the last loaded set stays in force (a revocation also needs
 *   the database, so nothing is missed that the operator could have done) and a warning is
 *   logged once per outage.
 */
import type { ActiveApiKey, ApiKeyRepository } from "../store/api-key-repository.js";
import { hashApiKey, isWellFormedApiKey } from "./api-key.js";

export interface ApiKeyIdentity {
  readonly id: number;
  readonly name: string;
  readonly prefix: string;
}

export interface ApiKeyCache {
  /** Loads the active keys and starts the refresh and flush timers. Rejects if the load fails. */
  start(): Promise<void>;
  /** The key's identity if it is active, else undefined. No I/O; records the use. */
  authenticate(key: string): ApiKeyIdentity | undefined;
  /** Checks the version now and reloads if it changed (the timer calls this). */
  refresh(): Promise<void>;
  /** Writes pending last-used times now (the timer calls this). */
  flushLastUsed(): Promise<void>;
  /** Stops the timers and flushes pending last-used times. */
  close(): Promise<void>;
  /** Number of active keys loaded (for logs and tests). */
  readonly size: number;
  /** Number of presented keys remembered since the last reload (for tests). */
  readonly remembered: number;
}

export interface ApiKeyCacheLogger {
  warn(object: object, message: string): void;
  info?(object: object, message: string): void;
}

export interface CreateApiKeyCacheParameters {
  readonly repository: ApiKeyRepository;
  /** Registers a callback for key changes (PostgreSQL LISTEN); called at start(). */
  readonly subscribe?: (onChange: () => void) => void;
  /** How often to check for created or revoked keys (the fallback). Default 500 ms. */
  readonly refreshIntervalMs?: number;
  /** How often to write last_used_at. Default 10 s. */
  readonly lastUsedFlushIntervalMs?: number;
  readonly logger?: ApiKeyCacheLogger;
}

export const API_KEY_REFRESH_INTERVAL_MS = 500;
export const API_KEY_LAST_USED_FLUSH_INTERVAL_MS = 10_000;

/** Bound of the presented-key memo of authenticate(). */
const AUTHENTICATED_KEYS_REMEMBERED = 10_000;

export function createApiKeyCache(parameters: CreateApiKeyCacheParameters): ApiKeyCache {
  const { repository, logger } = parameters;
  const refreshIntervalMs = parameters.refreshIntervalMs ?? API_KEY_REFRESH_INTERVAL_MS;
  const flushIntervalMs = parameters.lastUsedFlushIntervalMs ?? API_KEY_LAST_USED_FLUSH_INTERVAL_MS;

  let byHash = new Map<string, ApiKeyIdentity>();
  /**
   * Presented key -> its identity (null: unknown), so a client repeating its key pays the
   * SHA-256 once per key-set version rather than per request. Replaced together with byHash,
   * so a revoked key stops working at the same reload as before; bounded, so a client sending
   * endless made-up keys cannot grow it (it is emptied when full).
   */
  let byKey = new Map<string, ApiKeyIdentity | null>();
  let version: number | undefined;
  /** key id -> latest use (ms) seen since the last flush */
  let pendingUses = new Map<number, number>();
  let refreshTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  /** A change was announced while a refresh was running, which may have read too early. */
  let refreshAgain = false;
  let flushing: Promise<void> | undefined;
  let storeFailing = false;
  let closed = false;

  function install(keys: readonly ActiveApiKey[]): void {
    const next = new Map<string, ApiKeyIdentity>();
    for (const key of keys) {
      next.set(key.hash, { id: key.id, name: key.name, prefix: key.prefix });
    }
    // One assignment each, in one synchronous step: a request sees either the old set or the
    // new one, never a mix.
    byHash = next;
    byKey = new Map();
  }

  async function load(): Promise<void> {
    const current = await repository.getKeySetVersion();
    if (current === version) return;
    // Read the version before the keys: a change landing in between leaves `version` stale,
    // so the next tick reloads again rather than missing the change.
    const keys = await repository.listActiveKeyHashes();
    install(keys);
    version = current;
  }

  function refresh(): Promise<void> {
    if (refreshing !== undefined) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = load()
      .then(() => {
        if (storeFailing) logger?.info?.({}, "API key store reachable again; key set refreshed");
        storeFailing = false;
      })
      .catch((error: unknown) => {
        if (!storeFailing) {
          logger?.warn(
            { err: error },
            "cannot refresh API keys from the store; keeping the last loaded set",
          );
        }
        storeFailing = true;
      })
      .finally(() => {
        refreshing = undefined;
        if (refreshAgain && !closed) {
          refreshAgain = false;
          void refresh();
        }
      });
    return refreshing;
  }

  async function writeUses(): Promise<void> {
    if (pendingUses.size === 0) return;
    const batch = pendingUses;
    pendingUses = new Map();
    const uses = [...batch].map(([id, usedAt]) => ({ id, usedAt: new Date(usedAt) }));
    try {
      await repository.recordKeyUses(uses);
    } catch (error) {
      // Keep the uses for the next flush, unless a newer use of the same key arrived meanwhile.
      for (const [id, usedAt] of batch) {
        if (!pendingUses.has(id)) pendingUses.set(id, usedAt);
      }
      logger?.warn({ err: error }, "cannot record API key last use; will retry");
    }
  }

  function flushLastUsed(): Promise<void> {
    flushing ??= writeUses().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  function scheduleRefresh(): void {
    if (closed) return;
    refreshTimer = setTimeout(() => {
      void refresh().then(scheduleRefresh);
    }, refreshIntervalMs);
    refreshTimer.unref();
  }

  function scheduleFlush(): void {
    if (closed) return;
    flushTimer = setTimeout(() => {
      void flushLastUsed().then(scheduleFlush);
    }, flushIntervalMs);
    flushTimer.unref();
  }

  return {
    async start() {
      await load();
      parameters.subscribe?.(() => void refresh());
      scheduleRefresh();
      scheduleFlush();
    },

    authenticate(key) {
      // A Map lookup on the SHA-256 of the presented key. Timing-safe comparison is not needed:
      // timing could at most reveal how a stored *hash* compares with the hash of a guess, and
      // knowing a hash does not help find a 256-bit key that produces it.
      let identity = byKey.get(key);
      if (identity === undefined) {
        // Not the shape of a key this service issues: unknown, without hashing or remembering
        // it (a made-up Authorization value of 16 KB must not take 16 KB of the memo). Only
        // well-formed keys are remembered, so a repeated key skips this check too.
        if (!isWellFormedApiKey(key)) return undefined;
        identity = byHash.get(hashApiKey(key)) ?? null;
        if (byKey.size >= AUTHENTICATED_KEYS_REMEMBERED) byKey.clear();
        byKey.set(key, identity);
      }
      if (identity === null) return undefined;
      pendingUses.set(identity.id, Date.now());
      return identity;
    },

    refresh,
    flushLastUsed,

    async close() {
      closed = true;
      clearTimeout(refreshTimer);
      clearTimeout(flushTimer);
      await refreshing;
      await flushing;
      await flushLastUsed();
    },

    get remembered() {
      return byKey.size;
    },
    get size() {
      return byHash.size;
    },
  };
}
