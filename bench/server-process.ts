/**
 * Starts bench/list-server.ts in a child process and waits for the port it prints. The child is
 * stopped with SIGTERM by stop(), and killed if it has not exited 5 s later.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface ServerProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

const SERVER_SCRIPT = fileURLToPath(new URL("./list-server.ts", import.meta.url));

/** `flags`: extra arguments of list-server.ts (e.g. "no-cache" for the app). */
export async function startServerProcess(
  mode: "app" | "baseline",
  path: string,
  ...flags: string[]
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", SERVER_SCRIPT, mode, path, ...flags],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${mode} server did not start in 60 s`)),
      60_000,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${mode} server exited with code ${code} before listening`));
    });
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
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
