/** Captures what `fn` writes to process.stderr (and keeps it off the test output). */
export async function captureStderr<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; stderr: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let stderr = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), stderr };
  } finally {
    process.stderr.write = original;
  }
}
