/**
 * Fastify's `childLoggerFactory`: a request's logger that makes the real pino child (with the
 * request id binding) only when something is logged at an enabled level.
 *
 * Fastify builds a child logger for every request; pino's child() serialises its bindings to
 * JSON up front. At LOG_LEVEL=warn and above most requests log nothing, so the child is never
 * made (at info, Fastify's two access lines make it for every request, as before). Every line
 * that IS logged goes through a real child and carries `reqId` as before.
 */
import type { FastifyBaseLogger } from "fastify";

type LevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type LogFn = (...args: unknown[]) => void;

interface PinoLike extends FastifyBaseLogger {
  levels?: { values: Record<string, number> };
}

class LazyChildLogger {
  readonly #parent: PinoLike;
  readonly #bindings: Record<string, unknown>;
  readonly #options: { level?: string };
  #real: FastifyBaseLogger | undefined;

  constructor(parent: PinoLike, bindings: Record<string, unknown>, options: { level?: string }) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #child(): FastifyBaseLogger {
    if (this.#real === undefined) {
      this.#real = this.#parent.child(this.#bindings, this.#options) as FastifyBaseLogger;
    }
    return this.#real;
  }

  #enabled(level: LevelName): boolean {
    if (this.#real !== undefined) return true; // the real child decides
    const values = this.#parent.levels?.values;
    if (values === undefined) return true;
    const threshold = values[this.level];
    const wanted = values[level];
    // "silent" is not in values: nothing is enabled.
    return threshold !== undefined && wanted !== undefined && wanted >= threshold;
  }

  #log(level: LevelName, args: unknown[]): void {
    if (this.#enabled(level)) (this.#child()[level] as LogFn)(...args);
  }

  get level(): string {
    return this.#real?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#enabled(level as LevelName);
  }

  fatal(...args: unknown[]): void {
    this.#log("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#log("error", args);
  }
  warn(...args: unknown[]): void {
    this.#log("warn", args);
  }
  info(...args: unknown[]): void {
    this.#log("info", args);
  }
  debug(...args: unknown[]): void {
    this.#log("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#log("trace", args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }

  bindings(): Record<string, unknown> {
    return this.#real === undefined
      ? { ...(this.#parent as { bindings?(): object }).bindings?.(), ...this.#bindings }
      : (this.#real as unknown as { bindings(): Record<string, unknown> }).bindings();
  }
}

/** For Fastify's `childLoggerFactory` option. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
): FastifyBaseLogger {
  return new LazyChildLogger(
    logger as PinoLike,
    bindings,
    options as { level?: string },
  ) as unknown as FastifyBaseLogger;
}
