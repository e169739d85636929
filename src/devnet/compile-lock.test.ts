import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { COMPILE_LOCK_OWNER_FILE, withCompileLock } from "./compile-lock.js";
import type { ProcessIdentity } from "./process-info.js";

const SELF = { pid: 900_000_001 };
const OTHER = 900_000_002;

describe("compile lock", () => {
  let root: string;
  let count = 0;
  const freshLock = () => join(root, `lock-${++count}`);
  const holdLock = (lock: string, pid: number | undefined) => {
    mkdirSync(lock);
    if (pid !== undefined) {
      writeFileSync(join(lock, COMPILE_LOCK_OWNER_FILE), JSON.stringify({ pid }));
    }
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), "compile-lock-"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("default: compiles holding the lock and removes it", () => {
    const lock = freshLock();
    const result = withCompileLock(lock, {
      ready: () => undefined,
      work: () => {
        assert.ok(
          existsSync(join(lock, COMPILE_LOCK_OWNER_FILE)),
          "owner recorded while compiling",
        );
        return "compiled";
      },
      self: SELF,
    });
    assert.equal(result, "compiled");
    assert.equal(existsSync(lock), false);
  });

  it("behavior: a lock whose owner is dead (kill -9 mid-compile) is taken over at once", () => {
    const lock = freshLock();
    holdLock(lock, OTHER);
    const sleeps: number[] = [];
    const result = withCompileLock(lock, {
      ready: () => undefined,
      work: () => "compiled",
      self: SELF,
      isAlive: (identity: ProcessIdentity) => identity.pid !== OTHER,
      sleep: (ms) => sleeps.push(ms),
    });
    assert.equal(result, "compiled");
    assert.deepEqual(sleeps, [], "no waiting for a dead owner");
  });

  it("behavior: a live owner is waited for (said once), and its result is used", () => {
    const lock = freshLock();
    holdLock(lock, OTHER);
    const waits: (number | undefined)[] = [];
    let sleeps = 0;
    const result = withCompileLock(lock, {
      ready: () => (sleeps >= 3 ? "theirs" : undefined),
      work: () => "compiled",
      self: SELF,
      isAlive: () => true,
      sleep: () => sleeps++,
      onWait: (owner) => waits.push(owner?.pid),
    });
    assert.equal(result, "theirs");
    assert.deepEqual(waits, [OTHER]);
    assert.ok(existsSync(lock), "the owner's lock is left to it");
  });

  it("behavior: a lock without an owner file is waited for only while it is a few seconds old", () => {
    const lock = freshLock();
    holdLock(lock, undefined);
    let sleeps = 0;
    const young = withCompileLock(lock, {
      ready: () => (sleeps >= 1 ? "theirs" : undefined),
      work: () => "compiled",
      self: SELF,
      sleep: () => sleeps++,
    });
    assert.equal(young, "theirs");
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const taken = withCompileLock(lock, {
      ready: () => undefined,
      work: () => "compiled",
      self: SELF,
      sleep: () => assert.fail("waited for an old unowned lock"),
    });
    assert.equal(taken, "compiled");
  });
});
