/**
 * Retries `check` (an assertion that throws until it holds) every 10 ms until it passes; after
 * `ms` milliseconds the last failure is thrown, so the test shows what was still wrong. Give an
 * assert.ok a message: without one, every failure parses the test's source for it (slow enough
 * to starve the event loop on a busy machine).
 */
export async function eventually(ms: number, check: () => void | Promise<void>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Polls `probe` until it resolves to a value other than undefined (a rejection counts as not
 * yet), every `intervalMs`; rejects after `timeoutMs`.
 */
export async function waitForValue<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves with `promise`, or fails naming `what` when it takes longer than `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
