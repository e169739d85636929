/**
 * Retries `check` (an assertion that throws until it holds) every 10 ms until it passes; after
 * `ms` milliseconds the last failure is thrown, so the test shows what was still wrong.
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
