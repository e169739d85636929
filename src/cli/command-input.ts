/**
 * What the long-running commands (serve, deliver, start) check before they start: their
 * arguments and the configuration in their environment. Each refusal is a message on stderr
 * and exit code 1; --help prints the usage and exits 0.
 */
import { ConfigError } from "../config/env.js";

/** For a command that takes no arguments: its exit code when `args` end it, else undefined. */
export function noArgumentsExitCode(
  command: string,
  args: readonly string[],
  usage: string,
): number | undefined {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(usage);
    return 0;
  }
  if (args.length > 0) {
    process.stderr.write(`${command} takes no arguments, got: ${args.join(" ")}\n\n${usage}`);
    return 1;
  }
  return undefined;
}

/**
 * What `load` reads from the environment, or undefined after `configuration error: ...` on
 * stderr when it throws a ConfigError (any other error is thrown on).
 */
export function loadConfigOrReport<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      return undefined;
    }
    throw error;
  }
}
