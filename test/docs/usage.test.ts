/**
 * The usage blocks the docs quote are what the commands print for --help, line for line, so an
 * option added or changed in one is not left stale in the other.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

const root = resolve(import.meta.dirname, "../..");

/** What `run(["--help"])` of a command module writes to stdout. */
async function help(run: (args: string[]) => Promise<number>): Promise<string> {
  let out = "";
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    assert.equal(await run(["--help"]), 0);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

/** The fenced block of `document` whose first line starts with `firstLine`. */
function block(document: string, firstLine: string): string[] {
  const markdown = readFileSync(join(root, document), "utf8");
  for (const match of markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)) {
    const lines = (match[1] ?? "").trimEnd().split("\n");
    if (lines[0]?.startsWith(firstLine)) return lines;
  }
  throw new Error(`${document} has no code block starting with '${firstLine}'`);
}

describe("usage text in the docs", () => {
  it("docs/start.md: the options block is start --help's", async () => {
    const { run } = await import("../../src/cli/start.js");
    const printed = (await help(run)).split("\n");
    const [usage, ...options] = block("docs/start.md", "bridge-oracle start");
    assert.ok(printed.includes(`usage: ${usage}`), `start --help lacks 'usage: ${usage}'`);
    for (const line of options.filter((l) => l.trim() !== "")) {
      assert.ok(
        printed.includes(line),
        `start --help lacks the line\n${line}\nit prints\n${printed.join("\n")}`,
      );
    }
  });

  it("serve --help names every setting the API's configuration reads, with its default", async () => {
    const { run } = await import("../../src/cli/serve.js");
    const printed = await help(run);
    const source = readFileSync(join(root, "src/config/env.ts"), "utf8");
    const names = new Set(
      [...source.matchAll(/"([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT|HOST)"/g)].map((m) => m[1] as string),
    );
    assert.ok(
      names.has("STREAM_MAX_PER_KEY") && names.size >= 15,
      `found ${[...names].join(", ")}`,
    );
    const missing = [...names].filter((name) => !printed.includes(name));
    assert.deepEqual(missing, [], "serve --help lacks them");
    const { CONFIG_DEFAULTS } = await import("../../src/config/env.js");
    for (const [name, value] of [
      ["CHANGE_LOG_RETENTION_HOURS", CONFIG_DEFAULTS.changeLogRetentionHours],
      ["STREAM_HEARTBEAT_SECONDS", CONFIG_DEFAULTS.streamHeartbeatSeconds],
      ["STREAM_MAX_PER_CLIENT", CONFIG_DEFAULTS.streamMaxPerClient],
      ["STREAM_MAX_PER_KEY", CONFIG_DEFAULTS.streamMaxPerKey],
    ] as const) {
      assert.ok(printed.includes(`${name} (${value}`), `serve --help: ${name} (${value}`);
    }
  });
});
