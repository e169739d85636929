/**
 * Starts a benchmark server script (bench/list-server.ts, bench/router-server.ts) in a child
 * process and waits for the port it prints. The child is stopped with SIGTERM by stop(), and
 * killed if it has not exited 5 s later.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { V8_FLAGS } from "../src/node-flags.js";
import { databaseKind } from "../src/store/database-url.js";
import { tsEntryArgs } from "./ts-entry.js";

export interface ServerProcess {
  baseUrl: string;
  /** The server's process id (its memory is read from /proc by bench/push-streams.ts). */
  pid: number | undefined;
  stop(): Promise<void>;
}

const SERVER_SCRIPT = fileURLToPath(new URL("./list-server.ts", import.meta.url));

/** `flags`: extra arguments of list-server.ts (e.g. "no-cache" for the app). */
export async function startServerProcess(
  mode: "app" | "baseline",
  path: string,
  ...flags: string[]
): Promise<ServerProcess> {
  return startServerScript(SERVER_SCRIPT, [mode, path, ...flags], mode);
}

/**
 * The API of list-server.ts on `databaseUrl` (a SQLite path or a postgres:// URL). A URL goes
 * through the child's environment, as DATABASE_URL goes to `serve`: a password in it would show
 * in `ps` as an argument.
 */
export async function startAppServer(
  databaseUrl: string,
  ...flags: string[]
): Promise<ServerProcess> {
  if (databaseKind(databaseUrl) === "sqlite")
    return startServerProcess("app", databaseUrl, ...flags);
  return startServerScript(SERVER_SCRIPT, ["app", "-", ...flags], "app", {
    DATABASE_URL: databaseUrl,
  });
}

/**
 * Runs SCRIPT with `...args` (through tsx, or from its bundle: bench/ts-entry.ts), with `env`
 * added to this process's environment, and waits for the first line it prints, a JSON object with
 * at least `port` (the rest is returned as `info`).
 */
export async function startServerScript(
  script: string,
  args: readonly string[],
  label: string,
  env: Record<string, string> = {},
): Promise<ServerProcess & { info: Record<string, unknown> }> {
  // The flags bin/bridge-oracle.js sets, so a benchmark server runs as `serve` does.
  const child: ChildProcess = spawn(
    process.execPath,
    [...V8_FLAGS, ...tsEntryArgs(script), ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} server did not start in 60 s`)),
      60_000,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} server exited with code ${code} before listening`));
    });
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${info.port}`,
    pid: child.pid,
    info,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
