import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { run } from "./start.js";

/** What run(args) writes to stderr, and its exit code. */
async function runCaptured(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await run(args, { env: { PORT: "abc" } }), stderr };
  } finally {
    process.stderr.write = write;
  }
}

describe("start arguments", () => {
  it("error: a bare number (npm start --traffic 60 passes only the 60) says how to pass options through npm", async () => {
    const { code, stderr } = await runCaptured(["60"]);
    assert.equal(code, 1);
    assert.match(stderr, /Unexpected argument '60'/);
    assert.match(stderr, /npm start -- --traffic 60/);
  });

  it("error: a bad --traffic names the option", async () => {
    const { code, stderr } = await runCaptured(["--traffic", "7000"]);
    assert.equal(code, 1);
    assert.match(stderr, /^--traffic: traffic must be 0 to 6000 transfers per minute, got 7000/);
  });
});
