/**
 * A cache of whole response texts for GET routes whose answer depends only on the URL and the
 * stored data (the list endpoint): "where is my transfer?" is asked again and again for the same
 * hash while a wallet waits, and an explorer shows the same first pages to everyone.
 *
 * Correct under writes: every entry is tagged with the store's change counter as it was BEFORE
 * the answer was read (Store.changeCounter). Once the counter moves, every entry is stale and
 * the cache empties itself on the next lookup; an answer read while a commit landed is tagged
 * with the older counter, so it can only be served while nothing has changed since. Nothing is
 * cached while the store cannot tell changes (no counter: PostgreSQL with a read replica, or
 * before its LISTEN connection is up).
 *
 * Bounded by the total length of the keys and texts it holds (a key counts too: URLs may carry
 * ignored parameters of any length); the oldest entries go first (a hit does not reorder: a
 * plain lookup is all a hit costs, and the cache empties on every write anyway).
 */

export interface ResponseCacheOptions {
  /** Total characters of cached keys and texts at most; 0 disables the cache. */
  maxChars: number;
  /** Entries (key + text) longer than this are not cached. Default maxChars / 16. */
  maxEntryChars?: number;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  chars: number;
}

export interface ResponseCache {
  /** The cached text of `key` when it was stored at counter `version`, else undefined. */
  get(key: string, version: number): string | undefined;
  /** Stores `text` for `key`, read when the counter was `version`. */
  set(key: string, version: number, text: string): void;
  stats(): ResponseCacheStats;
}

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const maxChars = options.maxChars;
  if (!Number.isSafeInteger(maxChars) || maxChars < 0) {
    throw new RangeError(`maxChars must be a non-negative integer, got ${maxChars}`);
  }
  const maxEntryChars = options.maxEntryChars ?? Math.floor(maxChars / 16);
  // Map iteration order is insertion order: the first key is the oldest.
  const entries = new Map<string, string>();
  let version = Number.NaN;
  let chars = 0;
  let hits = 0;
  let misses = 0;

  function clearIfStale(current: number): void {
    if (current !== version) {
      entries.clear();
      chars = 0;
      version = current;
    }
  }

  return {
    get(key, current) {
      clearIfStale(current);
      const text = entries.get(key);
      if (text === undefined) {
        misses++;
        return undefined;
      }
      hits++;
      return text;
    },
    set(key, readAt, text) {
      // Read before a change that has landed since: not worth keeping.
      const size = key.length + text.length;
      if (readAt !== version || maxChars === 0 || size > maxEntryChars) return;
      const previous = entries.get(key);
      if (previous !== undefined) {
        entries.delete(key);
        chars -= key.length + previous.length;
      }
      entries.set(key, text);
      chars += size;
      for (const [oldest, old] of entries) {
        if (chars <= maxChars) break;
        entries.delete(oldest);
        chars -= oldest.length + old.length;
      }
    },
    stats: () => ({ hits, misses, entries: entries.size, chars }),
  };
}
