/**
 * In-process mutual exclusion: the chain loops of one process write one at a time
 * (create-indexer.ts).
 */
export interface Mutex {
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    runExclusive(work) {
      const result = tail.then(work, work);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
