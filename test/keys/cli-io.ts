/** Runs `bridge-oracle keys ...` in-process against a given database, capturing its output. */
import { run } from "../../src/cli/keys.js";

export interface KeysRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The last line of stdout (where `create` prints the key). */
  lastLine: string;
}

export async function runKeys(databaseUrl: string, ...args: string[]): Promise<KeysRun> {
  return runKeysWithEnv({ DATABASE_URL: databaseUrl }, ...args);
}

/** runKeys with the whole environment given. */
export async function runKeysWithEnv(
  env: Record<string, string>,
  ...args: string[]
): Promise<KeysRun> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    now: () => new Date(),
  });
  const lines = stdout.trimEnd().split("\n");
  return { code, stdout, stderr, lastLine: lines[lines.length - 1] ?? "" };
}
