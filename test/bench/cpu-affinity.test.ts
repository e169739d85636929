import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { allowedCpus, pinToCpus } from "../../bench/cpu-affinity.js";

describe("cpu affinity", () => {
  it("behavior: a child process pinned to one core may run on that core only, every thread", async () => {
    // bench:router pins its servers with this on CI's machines, which have two cores.
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], {
      stdio: "ignore",
    });
    try {
      await once(child, "spawn");
      assert.equal(allowedCpus(child.pid!), "0-1", "a new process may run on both cores");
      assert.equal(pinToCpus(child.pid!, "1"), true, "taskset pins the child");
      assert.equal(allowedCpus(child.pid!), "1", "the child may now run on core 1 only");
      for (const task of readdirSync(`/proc/${child.pid}/task`)) {
        const status = readFileSync(`/proc/${child.pid}/task/${task}/status`, "utf8");
        assert.match(status, /^Cpus_allowed_list:\s*1$/m, `thread ${task} is pinned too`);
      }
    } finally {
      child.kill();
    }
  });

  it("error: pinning a process that does not exist reports false", () => {
    assert.equal(pinToCpus(2 ** 22 + 1, "0"), false);
    assert.equal(allowedCpus(2 ** 22 + 1), undefined);
  });
});
