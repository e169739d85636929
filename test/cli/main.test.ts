/** `bridge-oracle <command>`: dispatch by command name. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { main } from "../../src/cli/main.js";
import { captureStderr } from "../setup/capture-stderr.js";

describe("bridge-oracle <command>", () => {
  it("error: an unknown command exits 1 and says so", async () => {
    const { value, stderr } = await captureStderr(() => main(["nope"]));
    assert.equal(value, 1);
    assert.match(stderr, /^unknown command: nope\n/);
  });

  it("error: a name Object.prototype has is an unknown command, not a broken one", async () => {
    for (const name of ["constructor", "toString", "__proto__"]) {
      const { value, stderr } = await captureStderr(() => main([name]));
      assert.equal(value, 1, name);
      assert.match(stderr, new RegExp(`^unknown command: ${name}\\n`));
    }
  });
});
