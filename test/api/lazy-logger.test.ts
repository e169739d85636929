/**
 * lazy-logger.ts: a request's child logger is made only when a line is logged at an enabled
 * level, and then carries the request's bindings and options exactly as an eager child would.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FastifyBaseLogger } from "fastify";
import { lazyChildLogger } from "../../src/api/lazy-logger.js";

const VALUES = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10 };

function fakeParent(level: string) {
  const made: { bindings: object; options: object; lines: unknown[][] }[] = [];
  const parent = {
    level,
    levels: { values: VALUES },
    child(bindings: object, options: { level?: string } = {}) {
      const entry = { bindings, options, lines: [] as unknown[][] };
      made.push(entry);
      const childLevel = options.level ?? level;
      const log =
        (name: keyof typeof VALUES) =>
        (...args: unknown[]) => {
          if (VALUES[name] >= (VALUES[childLevel as keyof typeof VALUES] ?? Infinity)) {
            entry.lines.push([name, ...args]);
          }
        };
      return {
        level: childLevel,
        fatal: log("fatal"),
        error: log("error"),
        warn: log("warn"),
        info: log("info"),
        debug: log("debug"),
        trace: log("trace"),
        child: () => parent.child({}),
      };
    },
  };
  return { parent: parent as unknown as FastifyBaseLogger, made };
}

describe("lazy child logger", () => {
  it("behavior: nothing is made while only disabled levels are logged", () => {
    const { parent, made } = fakeParent("warn");
    const log = lazyChildLogger(parent, { reqId: "r1" }, {});
    log.info("incoming request");
    log.debug({ a: 1 }, "detail");
    assert.equal(made.length, 0);
    assert.equal(log.level, "warn");
  });

  it("behavior: the first enabled line makes one child with the request's bindings", () => {
    const { parent, made } = fakeParent("info");
    const log = lazyChildLogger(parent, { reqId: "r2" }, {});
    log.info({ code: 40001 }, "bad");
    log.error("worse");
    assert.equal(made.length, 1);
    assert.deepEqual(made[0]?.bindings, { reqId: "r2" });
    assert.deepEqual(made[0]?.lines, [
      ["info", { code: 40001 }, "bad"],
      ["error", "worse"],
    ]);
  });

  it("boundary: a route's own level (options.level) decides, above or below the app's", () => {
    const quiet = fakeParent("info");
    const log = lazyChildLogger(quiet.parent, { reqId: "r3" }, { level: "warn" });
    log.info("not at warn");
    assert.equal(quiet.made.length, 0);
    log.warn("at warn");
    assert.deepEqual(quiet.made[0]?.options, { level: "warn" });

    const verbose = fakeParent("warn");
    const debugLog = lazyChildLogger(verbose.parent, { reqId: "r4" }, { level: "debug" });
    debugLog.debug("shown");
    assert.deepEqual(verbose.made[0]?.lines, [["debug", "shown"]]);
  });

  it("boundary: silent logs nothing at any level", () => {
    const { parent, made } = fakeParent("silent");
    const log = lazyChildLogger(parent, { reqId: "r5" }, {});
    log.fatal("no");
    assert.equal(made.length, 0);
  });
});
