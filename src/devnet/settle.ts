/**
 * Bounded waiting for background work at shutdown: the relayer and the traffic generator wait for
 * their in-flight transactions, but never long enough to hold up stopping a devnet whose nodes
 * are already gone.
 */

/** How long stop() waits for in-flight transactions before giving up on them. */
export const STOP_GRACE_MS = 3000;

/** Waits for `promises` to settle, but no longer than `ms`. */
export async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), timeout]);
  clearTimeout(timer);
}
