/**
 * The devnet toolchain without a deployment: solc-js compilation with cached artifacts (stale
 * detection, file:line errors) and the anvil launcher (free port, local only, clean stop).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startAnvil } from "../../src/devnet/anvil.js";
import { COMPILING_MESSAGE, loadArtifacts } from "../../src/devnet/artifacts.js";
import { artifactsPath, CompileError, compileContracts } from "../../src/devnet/compile.js";

const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
}
`;

describe("devnet toolchain: compile and artifacts", () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "bridge-oracle-compile-"));
    mkdirSync(join(root, "contracts"));
    writeFileSync(join(root, "contracts", "Counter.sol"), TOKEN);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("default: compiles to abi + bytecode and writes artifacts/contracts.json", () => {
    const artifacts = loadArtifacts({ root });
    const counter = artifacts.get("Counter");
    assert.match(counter.bytecode, /^0x[0-9a-f]{100,}$/);
    assert.ok(
      counter.abi.some((item) => item.type === "function" && item.name === "increment"),
      'counter.abi.some((item) => item.type === "function" && item.name === "increment")',
    );
    const file = JSON.parse(readFileSync(artifactsPath(root), "utf8"));
    assert.equal(file.sourceHash, artifacts.sourceHash);
    assert.throws(() => artifacts.get("Missing"), /no compiled contract named Missing/);
  });

  it("behavior: a fresh artifacts file is reused, a stale one is recompiled", () => {
    const first = JSON.parse(readFileSync(artifactsPath(root), "utf8"));
    loadArtifacts({ root });
    assert.equal(
      JSON.parse(readFileSync(artifactsPath(root), "utf8")).compiledAt,
      first.compiledAt,
    );
    writeFileSync(
      join(root, "contracts", "Counter.sol"),
      TOKEN.replace("count += 1;", "count += 2;"),
    );
    const again = loadArtifacts({ root });
    assert.notEqual(again.sourceHash, first.sourceHash);
    assert.notEqual(again.get("Counter").bytecode, first.contracts.Counter.bytecode);
  });

  it("behavior: a compile lock left by a process killed mid-compile is taken over at once, and the compile is announced", () => {
    // A pid that has exited (spawnSync waits for it): the lock's owner is dead.
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const lock = join(root, "artifacts", ".compile.lock");
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, "owner.json"), JSON.stringify({ pid: deadPid }));
    writeFileSync(
      join(root, "contracts", "Counter.sol"),
      TOKEN.replace("count += 1;", "count += 3;"),
    );
    const said: string[] = [];
    const startedAt = Date.now();
    const artifacts = loadArtifacts({ root, progress: (line) => said.push(line) });
    // The old lock waited 120 s for a lock this young, blocking the event loop (and Ctrl-C).
    assert.ok(Date.now() - startedAt < 10_000, `took ${Date.now() - startedAt} ms`);
    assert.ok(
      artifacts.get("Counter").bytecode.length > 2,
      'artifacts.get("Counter").bytecode.length > 2',
    );
    assert.deepEqual(said, [COMPILING_MESSAGE]);
    assert.equal(existsSync(lock), false);
  });

  it("error: compile errors name file:line:column", () => {
    writeFileSync(
      join(root, "contracts", "Broken.sol"),
      `${TOKEN.replace("Counter", "Broken")}\nuint x = ;\n`,
    );
    try {
      assert.throws(
        () => compileContracts({ root, write: false }),
        (error: unknown) =>
          error instanceof CompileError &&
          /contracts\/Broken\.sol:9:\d+: error:/.test(error.message),
      );
    } finally {
      rmSync(join(root, "contracts", "Broken.sol"));
    }
  });

  it("behavior: the project's contracts compile and include every deployable contract", () => {
    const artifacts = loadArtifacts();
    for (const name of [
      "MintableToken",
      "SwapAdapter",
      "LockMintBridge",
      "PoolBridge",
      "MessagingBridge",
      "MessagingEndpoint",
    ]) {
      assert.notEqual(artifacts.get(name).bytecode, "0x", name);
    }
    assert.equal(artifacts.get("IBridge").bytecode, "0x");
  });
});

describe("devnet toolchain: anvil launcher", () => {
  it("default: starts on a free 127.0.0.1 port with the chain id, stops cleanly", async () => {
    const [a, b] = await Promise.all([
      startAnvil({ chainId: 71901 }),
      startAnvil({ chainId: 71902 }),
    ]);
    try {
      assert.notEqual(a!.port, b!.port);
      assert.equal(a!.rpcUrl, `http://127.0.0.1:${a!.port}`);
      const response = await fetch(b!.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      assert.equal(((await response.json()) as { result: string }).result, "0x118de");
    } finally {
      await Promise.all([a!.stop(), b!.stop()]);
    }
    await assert.rejects(fetch(a!.rpcUrl, { method: "POST", body: "{}" }));
    await a!.stop(); // idempotent
  });

  it("error: a port already in use is reported", async () => {
    const first = await startAnvil({ chainId: 71903 });
    try {
      await assert.rejects(startAnvil({ chainId: 71904, port: first.port }), /anvil/);
    } finally {
      await first.stop();
    }
  });
});
