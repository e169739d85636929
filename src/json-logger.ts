/**
 * The JSON log lines of the long-running commands: pino with the options Fastify gives it for
 * `serve`'s API (only the level; the API's own logger writes to the same stdoutDestination), so
 * `serve` and `index` write one shape: `level` as pino's number (trace 10 ... fatal 60), `time`
 * in epoch milliseconds, `pid`, `hostname`, the line's own fields, then `msg`. Whatever names a
 * database, RPC, webhook or request URL is redacted before it gets here (src/redact-url.ts);
 * as a last guard, every line is written with our own API keys and webhook secrets masked
 * wherever they stand (LOG_HOOKS: a key pasted into a message, a body quoted in an error).
 */
import { type Logger, pino } from "pino";
import type { LogLevel } from "./config/env.js";
import { maskOurSecrets } from "./redact-url.js";

/** pino's hooks for every logger of ours (the API's too): each line leaves with our secrets masked. */
export const LOG_HOOKS = { streamWrite: maskOurSecrets } as const;

/** Where the lines go; each call is one whole line with its "\n". */
export interface LogDestination {
  write(line: string): unknown;
}

/**
 * Default destination: process.stdout itself (looked up at each line), not pino's own writer
 * of file descriptor 1. A reader that goes away then fails a write on process.stdout, which
 * stopOnClosedOutput (cli/main.ts) turns into SIGTERM; pino's writer drops lines after EPIPE
 * without a word, and the process would run on logging into nothing.
 */
export const stdoutDestination: LogDestination = { write: (line) => process.stdout.write(line) };

export function createJsonLogger(
  level: LogLevel,
  destination: LogDestination = stdoutDestination,
): Logger {
  return pino({ level, hooks: LOG_HOOKS }, destination);
}
