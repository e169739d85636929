/**
 * Reading one environment variable, the one way every setting is read (config/env.ts,
 * config/webhook-config.ts): trimmed, empty = unset, a bad value a ConfigError naming the
 * variable, the rule and the value (cut short).
 */

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  /** The environment variable at fault. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(message);
    this.name = "ConfigError";
    this.setting = setting;
  }
}

/** The variable's value trimmed; undefined when unset or blank. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Quotes a bad value for a message, cut short so a pasted secret or a huge value stays out. */
export function quote(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 60)}...` : value;
  return `'${shown}'`;
}

/** An integer from min to max (inclusive), `unit` named in the error. */
export function readInteger(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  unit: string,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(
      name,
      `${name} must be an integer from ${min} to ${max} (${unit}), got ${quote(raw)}`,
    );
  }
  return value;
}

/** true / 1 / yes or false / 0 / no, any case. */
export function readFlag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (["1", "true", "yes"].includes(lower)) return true;
  if (["0", "false", "no"].includes(lower)) return false;
  throw new ConfigError(name, `${name} must be true or false, got ${quote(raw)}`);
}
