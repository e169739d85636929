import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseDevnetArgs } from "./devnet.js";

describe("parseDevnetArgs", () => {
  it("default: no arguments means all defaults", () => {
    assert.deepEqual(parseDevnetArgs([]), { ok: true, options: {}, quiet: false, help: false });
  });
  it("behavior: every option, as separate or inline value", () => {
    const parsed = parseDevnetArgs([
      "--traffic",
      "20",
      "--chains=2",
      "--relay-delay",
      "500",
      "--confirmations",
      "3",
      "--block-time=2",
      "--seed",
      "9",
      "--rpc-port=8545",
      "--quiet",
    ]);
    assert.deepEqual(parsed, {
      ok: true,
      options: {
        traffic: 20,
        chains: 2,
        relayDelayMs: 500,
        confirmations: 3,
        blockTime: 2,
        seed: 9,
        rpcPort: 8545,
      },
      quiet: true,
      help: false,
    });
  });
  it("behavior: --persist keeps the chain state under $DEVNET_DIR/state, stopped by the command", () => {
    const parsed = parseDevnetArgs(["--persist"]);
    assert.equal(parsed.ok, true);
    const options = parsed.ok ? parsed.options : {};
    assert.match(options.stateDir ?? "", /[/\\]state$/);
    assert.equal(options.callerHandlesSignals, true);
  });
  it("behavior: --help is recognised", () => {
    assert.equal(parseDevnetArgs(["--help"]).ok && parseDevnetArgs(["-h"]).ok, true);
  });
  it("error: unknown options and missing or negative values", () => {
    assert.deepEqual(parseDevnetArgs(["--what"]), { ok: false, message: "unknown option --what" });
    assert.equal(parseDevnetArgs(["--traffic"]).ok, false);
    assert.equal(parseDevnetArgs(["--traffic", "-5"]).ok, false);
    assert.equal(parseDevnetArgs(["--chains", "x"]).ok, false);
  });
});
