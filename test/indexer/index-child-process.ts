/** The `bridge-oracle index` child processes of the crash and standby tests (index-child.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

export function startChild(configPath: string, databaseUrl: string): ChildProcess {
  return spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(import.meta.dirname, "index-child.ts"),
      "--config",
      configPath,
      "--database",
      databaseUrl,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

export function waitFor(
  condition: () => boolean,
  what: () => string,
  timeoutMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error(`timed out waiting: ${what()}`));
      else setTimeout(check, 20);
    };
    check();
  });
}
