/**
 * In-process mutual exclusion. Chain loops of one process commit one at a time so that a
 * send committed by one chain and its delivery committed by another always see each other
 * (on PostgreSQL an advisory lock does the same across processes).
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
