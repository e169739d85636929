/**
 * Benchmark servers run with the V8 flags every bridge-oracle process runs with
 * (src/node-flags.ts), so what a benchmark measures is what `serve` runs.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { startServerScript } from "../../bench/server-process.js";
import { V8_FLAGS } from "../../src/node-flags.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/print-exec-argv.ts", import.meta.url));

describe("bench: server processes", () => {
  it("default: a benchmark server is started with our V8 flags", async () => {
    const server = await startServerScript(FIXTURE, [], "fixture");
    await server.stop();
    const execArgv = server.info.execArgv as string[];
    assert.ok(V8_FLAGS.length > 0, "src/node-flags.ts names at least one flag");
    for (const flag of V8_FLAGS) assert.ok(execArgv.includes(flag), `${flag} in ${execArgv}`);
  });

  it("default: bin/bridge-oracle.js sets the same flags before loading the CLI", async () => {
    // The launcher sets them at run time (node cannot take them from NODE_OPTIONS), so its source
    // is what can be checked: the flags module first, then the CLI.
    const bin = await readFile(new URL("../../bin/bridge-oracle.js", import.meta.url), "utf8");
    const flags = bin.indexOf("setFlagsFromString(V8_FLAGS");
    assert.ok(flags > 0, "bin/bridge-oracle.js calls setFlagsFromString(V8_FLAGS...)");
    assert.ok(flags < bin.indexOf("await import(main)"), "before the CLI is imported");
  });
});
