/** check-config's text: failures last, a summary that counts each status. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ConfigCheck } from "../domain/config-check.js";
import { formatChecks, summariseChecks } from "./format-checks.js";

const checks: ConfigCheck[] = [
  { status: "fail", chainId: 1, check: "rpc", message: "ethereum: down" },
  { status: "ok", chainId: 10, check: "rpc", message: "optimism: up" },
  { status: "skip", chainId: 1, check: "code", message: "ethereum: 3 contracts not checked" },
  { status: "ok", chainId: 10, check: "code", message: "optimism: code" },
];

describe("formatChecks", () => {
  it("default: OK lines first in their order, then SKIP, then FAIL; a summary", () => {
    assert.deepEqual(summariseChecks(checks), { ok: 2, fail: 1, skip: 1 });
    assert.equal(
      formatChecks(checks, "mainnet.json"),
      [
        "OK   optimism: up",
        "OK   optimism: code",
        "SKIP ethereum: 3 contracts not checked",
        "FAIL ethereum: down",
        "mainnet.json: 4 checks, 2 ok, 1 failed, 1 skipped: 1 failed: fix the FAIL lines",
        "",
      ].join("\n"),
    );
  });

  it("behavior: no failure says the configuration matches", () => {
    assert.match(
      formatChecks(checks.slice(1, 2), "c.json"),
      /c\.json: 1 checks, 1 ok, 0 failed, 0 skipped: the configuration matches its chains\n$/,
    );
  });
});
