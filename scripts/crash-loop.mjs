#!/usr/bin/env node
// The long kill -9 loop of the indexer (test/indexer/crash-restart.test.ts): N rounds of new
// transfers, an indexer process started and killed with SIGKILL at a seeded random moment, then
// a last restart to the head, and the database compared row by row with a clean index of the
// same chains. CI runs 4 rounds; this runs as many as asked (about 2 s each).
//
//   npm run test:crash-loop                       # 200 rounds on SQLite, seed 20261121
//   npm run test:crash-loop -- --loops 1000 --seed 7
//   npm run test:crash-loop -- --store postgres   # on PostgreSQL (DATABASE_URL); both: one, then the other
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const USAGE =
  "usage: npm run test:crash-loop -- [--loops N] [--seed S] [--store sqlite|postgres|both]\n";

let values;
try {
  ({ values } = parseArgs({
    options: {
      loops: { type: "string", default: "200" },
      seed: { type: "string", default: "20261121" },
      store: { type: "string", default: "sqlite" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  process.stderr.write(`${error.message}\n${USAGE}`);
  process.exit(1);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
for (const [name, value] of Object.entries({ loops: values.loops, seed: values.seed })) {
  if (!/^[0-9]+$/.test(value) || (name === "loops" && Number(value) < 1)) {
    process.stderr.write(
      `--${name} must be a ${name === "loops" ? "positive" : "non-negative"} integer, got "${value}"\n${USAGE}`,
    );
    process.exit(1);
  }
}
const STORES = { sqlite: "sqlite", postgres: "postgres", both: "sqlite,postgres" };
if (!Object.hasOwn(STORES, values.store)) {
  process.stderr.write(`--store must be sqlite, postgres or both, got "${values.store}"\n${USAGE}`);
  process.exit(1);
}
const stores = STORES[values.store];
const result = spawnSync(
  process.execPath,
  [new URL("./run-tests.mjs", import.meta.url).pathname, "test/indexer/crash-restart.test.ts"],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      INDEXER_KILL_LOOPS: values.loops,
      INDEXER_KILL_SEED: values.seed,
      INDEXER_KILL_STORES: stores,
    },
  },
);
process.exit(result.status ?? 1);
