/**
 * The one reader of the change log in an API process (docs/push.md): woken by the store's change
 * notification (Store.subscribeChanges), it reads the changes committed since its position and
 * hands each, in seq order, to every subscriber (the open streams). No stream polls the
 * database; a burst of notifications costs one read per batch of changes.
 *
 * Invariant: `position()` is the seq of the last change handed to the subscribers; every change
 * with a smaller or equal seq has been handed to every subscriber that was subscribed when it
 * was read (the change log's order guarantee, src/store/transfer-change-repository.ts, makes
 * "everything up to the newest one read" exact).
 */
import { backoffDelayMs } from "../../backoff.js";
import type { TransferChange, TransferChangeRepository } from "../../store/index.js";

export interface ChangeFeedSubscriber {
  /** Every change read, in seq order (the subscriber filters). Must not throw. */
  deliver(change: TransferChange): void;
}

export interface ChangeFeed {
  /**
   * Subscribes; resolves with the position at that moment: the subscriber gets every change
   * with a greater seq. Starts the feed on first use.
   */
  subscribe(subscriber: ChangeFeedSubscriber): Promise<{ position: number; unsubscribe(): void }>;
  /** The seq of the last change handed out (0 before the feed started). */
  position(): number;
  close(): void;
}

export interface ChangeFeedOptions {
  changes: TransferChangeRepository;
  /** Store.subscribeChanges; without it (a store that cannot tell) the feed polls `pollMs`. */
  subscribeChanges: ((listener: () => void) => () => void) | undefined;
  logger?: {
    warn(fields: object, message: string): void;
    info(fields: object, message: string): void;
  };
  /** Changes read per query. Default 1000. */
  batchSize?: number;
  /** First retry delay after a failed read, doubling up to 10 s. Default 500 ms. */
  retryMs?: number;
  /** Poll interval when the store has no change notification. Default 1000 ms. */
  pollMs?: number;
}

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  const { changes, logger } = options;
  const batchSize = options.batchSize ?? 1000;
  const firstRetryMs = options.retryMs ?? 500;
  const subscribers = new Set<ChangeFeedSubscriber>();
  let position = 0;
  let started: Promise<void> | undefined;
  let closed = false;
  let reading = false;
  let again = false;
  /** Failed reads in a row (src/backoff.ts: the delay doubles from firstRetryMs up to 10 s). */
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let failing = false;
  let stopWatching: (() => void) | undefined;

  function wake(): void {
    if (closed || started === undefined) return;
    if (reading) {
      again = true;
      return;
    }
    void readAll();
  }

  async function readAll(): Promise<void> {
    reading = true;
    try {
      do {
        again = false;
        for (;;) {
          const page = await changes.changesSince(position, { limit: batchSize });
          if (closed) return;
          for (const change of page.changes) {
            position = change.seq;
            for (const subscriber of subscribers) subscriber.deliver(change);
          }
          if (page.changes.length < batchSize) break;
        }
      } while (again && !closed);
      if (failing) {
        failing = false;
        logger?.info({ position }, "stream change feed: reading the change log again");
      }
      failures = 0;
    } catch (error) {
      failures++;
      const retryMs = backoffDelayMs(failures, {
        baseMs: firstRetryMs,
        maxMs: 10_000,
        jitter: "none",
      });
      if (!failing) {
        failing = true;
        logger?.warn(
          { err: (error as Error).message, retryMs },
          "stream change feed: cannot read the change log; streams wait and it retries",
        );
      }
      clearTimeout(retryTimer);
      retryTimer = setTimeout(wake, retryMs);
      retryTimer.unref();
    } finally {
      reading = false;
    }
  }

  function start(): Promise<void> {
    started ??= (async () => {
      position = await changes.latestSeq();
      if (options.subscribeChanges !== undefined) {
        stopWatching = options.subscribeChanges(wake);
      } else {
        const poll = setInterval(wake, options.pollMs ?? 1000);
        poll.unref();
        stopWatching = () => clearInterval(poll);
      }
      // A commit between latestSeq and the subscription was not notified to us.
      wake();
    })().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  }

  return {
    async subscribe(subscriber) {
      await start();
      subscribers.add(subscriber);
      return { position, unsubscribe: () => subscribers.delete(subscriber) };
    },
    position: () => position,
    close() {
      closed = true;
      clearTimeout(retryTimer);
      stopWatching?.();
      subscribers.clear();
    },
  };
}
