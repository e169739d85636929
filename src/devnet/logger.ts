/**
 * The small logger the devnet's long-running parts (relayer, traffic generator, orchestration)
 * write to. One line per event; the caller decides where lines go (stderr, a test's array, nowhere).
 */
export interface DevnetLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Writes `[time] [scope] message` lines to stderr (stdout stays free for the summary). */
export function createStderrLogger(scope: string): DevnetLogger {
  const write = (level: string, message: string): void => {
    const time = new Date().toISOString().slice(11, 19);
    process.stderr.write(`${time} ${scope}${level === "info" ? "" : ` ${level}`}: ${message}\n`);
  };
  return {
    info: (message) => write("info", message),
    warn: (message) => write("warn", message),
    error: (message) => write("error", message),
  };
}

/** Discards everything; for tests and quiet runs. */
export const silentLogger: DevnetLogger = { info() {}, warn() {}, error() {} };

/** Keeps lines in memory; for tests that assert on what was logged. */
export function createMemoryLogger(): DevnetLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
}

/** viem errors carry a one-line `shortMessage`; prefer it over the multi-line `message`. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: string }).shortMessage;
    const details = (error as { details?: string }).details;
    const text = short ?? error.message.split("\n")[0] ?? String(error);
    return details !== undefined && !text.includes(details) ? `${text} (${details})` : text;
  }
  return String(error);
}
