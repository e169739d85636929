/**
 * `bridge-oracle import` against real SQLite and PostgreSQL databases, through the command's
 * run(args) and once through the CLI dispatcher in a child process.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { run } from "../../src/cli/import.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { createTransferGenerator } from "../../src/transfers/generate.js";
import { writeJsonl } from "../../src/transfers/write-jsonl.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

const execFileAsync = promisify(execFile);

function captureOutput(isTTY = false) {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    output: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text), isTTY },
    },
  };
}

const jsonl = (records: readonly unknown[]): string =>
  `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;

async function listAll(store: Store, address: string): Promise<BridgeTransaction[]> {
  const result = await store.transfers.listTransfers({
    match: { kind: "evmAddress", value: address.toLowerCase() },
    offset: 0,
    limit: 100,
    sortField: "created_at",
    sortOrder: "asc",
  });
  return result.items;
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`bridge-oracle import (${backend})`, () => {
    let dir: string;
    let database: IsolatedDatabase | undefined;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "bridge-oracle-import-"));
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** A fresh database per test: each test states what it starts from. */
    async function freshDatabase(): Promise<string> {
      await database?.cleanup();
      database = await setupIsolatedDatabase(backend);
      return database.databaseUrl;
    }
    after(async () => {
      await database?.cleanup();
    });

    async function withStore<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
      const store = await createStore({ databaseUrl: url });
      try {
        return await work(store);
      } finally {
        await store.close();
      }
    }

    it("default: imports every record of a file and they are listed", async () => {
      const url = await freshDatabase();
      const sender = makeTransfer().from_address;
      const records = [
        makeTransfer({ from_address: sender }),
        makeTransfer({ to_address: sender }),
        makeProcessingTransfer({ from_address: sender }),
      ];
      const file = join(dir, "small.jsonl");
      await writeFile(file, jsonl(records));
      const { out, output } = captureOutput();
      assert.equal(await run([file, "--database", url], { output }), 0, out.stderr);
      assert.match(out.stdout, /3 read, 3 inserted, 0 updated, 0 unchanged in [0-9.]+ s/);
      assert.equal(out.stderr, "", "no progress noise when stderr is not a terminal");
      await withStore(url, async (store) => {
        const listed = await listAll(store, sender);
        assert.deepEqual(
          listed.map((r) => r.message_id).sort(),
          records.map((r) => r.message_id).sort(),
        );
        for (const record of records) {
          assert.deepEqual(await store.transfers.getTransfer(record.message_id), record);
        }
      });
    });

    it("behavior: re-importing the same file changes nothing", async () => {
      const url = await freshDatabase();
      const records = [makeTransfer(), makeTransfer(), makeTransfer()];
      const file = join(dir, "again.jsonl");
      await writeFile(file, jsonl(records));
      assert.equal(await run([file, "--database-url", url], captureOutput()), 0);
      const before = await withStore(url, (s) => s.transfers.getTransfer(records[0]!.message_id));
      const { out, output } = captureOutput();
      assert.equal(await run([file, "--database", url], { output }), 0);
      assert.match(out.stdout, /3 read, 0 inserted, 0 updated, 3 unchanged/);
      const afterImport = await withStore(url, (s) =>
        s.transfers.getTransfer(records[0]!.message_id),
      );
      assert.deepEqual(afterImport, before);
    });

    it("behavior: a changed record is updated; blank lines, CRLF and lowercase input are fine", async () => {
      const url = await freshDatabase();
      const processing = makeProcessingTransfer();
      const file = join(dir, "update.jsonl");
      await writeFile(file, jsonl([processing]));
      assert.equal(await run([file, "--database", url], captureOutput()), 0);

      const delivered = makeTransfer({
        message_id: processing.message_id,
        source_tx_hash: processing.source_tx_hash,
        from_address: processing.from_address,
        to_address: processing.to_address,
        created_at: processing.created_at,
      });
      const lowercased = {
        ...delivered,
        from_address: delivered.from_address.toLowerCase(),
        message_id: delivered.message_id.toUpperCase().replace("0X", "0x"),
      };
      const other = makeTransfer();
      await writeFile(file, `\n${JSON.stringify(lowercased)}\r\n   \r\n${JSON.stringify(other)}`);
      const { out, output } = captureOutput();
      assert.equal(await run([file, "--database", url], { output }), 0, out.stderr);
      assert.match(out.stdout, /2 read, 1 inserted, 1 updated, 0 unchanged/);
      const stored = await withStore(url, (s) => s.transfers.getTransfer(delivered.message_id));
      assert.equal(stored?.status, "Success");
      assert.equal(stored?.from_address, delivered.from_address, "stored in EIP-55 form");
    });

    it("error: a bad line aborts the run, names line and field, and commits nothing", async () => {
      const url = await freshDatabase();
      // 35 good lines (written in batches of 10 before the bad one is read), then a bad one.
      const good = Array.from({ length: 35 }, () => makeTransfer());
      const bad = { ...makeTransfer(), send_amount: "1.1234567" }; // USDC has 6 decimals
      const file = join(dir, "bad.jsonl");
      await writeFile(file, jsonl([...good, bad, makeTransfer()]));
      const { out, output } = captureOutput();
      const code = await run([file, "--database", url, "--batch-size", "10"], { output });
      assert.equal(code, 1);
      assert.match(out.stderr, /line 36: field send_amount: has 7 fractional digits/);
      assert.match(out.stderr, /nothing was imported/);
      assert.equal(out.stdout, "");
      await withStore(url, async (store) => {
        for (const record of [good[0]!, good[34]!]) {
          assert.equal(await store.transfers.getTransfer(record.message_id), undefined);
        }
      });
    });

    it("error: invalid JSON is reported with its line number", async () => {
      const url = await freshDatabase();
      const file = join(dir, "json.jsonl");
      await writeFile(file, `${JSON.stringify(makeTransfer())}\n\n{"message_id": \n`);
      const { out, output } = captureOutput();
      assert.equal(await run([file, "--database", url], { output }), 1);
      assert.match(out.stderr, /line 3: invalid JSON/);
    });

    it("error: a record that gives a field twice is refused, naming it, and nothing is imported", async () => {
      const url = await freshDatabase();
      const file = join(dir, "twice.jsonl");
      const first = makeTransfer();
      const twice = JSON.stringify(makeTransfer()).replace(/}$/, ',"send_amount":"1"}');
      await writeFile(file, `${JSON.stringify(first)}\n${twice}\n`);
      const { out, output } = captureOutput();
      assert.equal(await run([file, "--database", url], { output }), 1);
      assert.match(out.stderr, /line 2: field send_amount: is given more than once in the record/);
      await withStore(url, async (store) => {
        assert.equal(await store.transfers.getTransfer(first.message_id), undefined);
      });
    });
  });
}

describe("bridge-oracle import (files, arguments, progress)", () => {
  let dir: string;
  let databaseUrl: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-import-"));
    databaseUrl = join(dir, "store.db");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("behavior: streams a 20,000-line generated file", async () => {
    const generator = createTransferGenerator({ count: 20_000, seed: 5 });
    const file = join(dir, "large.jsonl");
    await writeJsonl(file, generator.records());
    const { out, output } = captureOutput();
    assert.equal(await run([file, "--database", databaseUrl], { output }), 0, out.stderr);
    assert.match(out.stdout, /20000 read, 20000 inserted/);
    const store = await createStore({ databaseUrl });
    try {
      const hot = generator.hotAddresses[0]!;
      const result = await store.transfers.listTransfers({
        match: { kind: "evmAddress", value: hot.toLowerCase() },
        offset: 0,
        limit: 10,
        sortField: "created_at",
        sortOrder: "desc",
      });
      assert.ok(result.total > 2000, `hot address total ${result.total}`);
    } finally {
      await store.close();
    }
  });

  it("behavior: on a terminal, one updating progress line with rate, percent and ETA", async () => {
    const file = join(dir, "progress.jsonl");
    await writeJsonl(file, createTransferGenerator({ count: 3000, seed: 9 }).records());
    const { out, output } = captureOutput(true);
    const url = join(dir, "progress.db");
    assert.equal(await run([file, "--database", url, "--batch-size", "100"], { output }), 0);
    assert.match(out.stderr, /\r\x1b\[Kimporting: [0-9,]+ lines, [0-9,]+ lines\/s, [0-9.]+%/);
    assert.ok(!out.stderr.includes("\n"), "progress stays on one line");
    assert.ok(out.stderr.endsWith("\r\x1b[K"), "progress line is cleared at the end");
  });

  it("error: missing file, missing argument, bad option", async () => {
    let c = captureOutput();
    assert.equal(await run([join(dir, "nope.jsonl"), "--database", databaseUrl], c), 1);
    assert.match(c.out.stderr, /cannot read .*nope\.jsonl/);
    c = captureOutput();
    assert.equal(await run([], c), 1);
    assert.match(c.out.stderr, /expected one FILE argument/);
    c = captureOutput();
    assert.equal(await run(["x.jsonl", "--batch-size", "0"], c), 1);
    assert.match(c.out.stderr, /--batch-size must be/);
    c = captureOutput();
    assert.equal(await run(["x.jsonl", "--nope"], c), 1);
    assert.match(c.out.stderr, /nope/);
    c = captureOutput();
    assert.equal(await run(["x.jsonl", "--database", "a.db", "--database-url", "b.db"], c), 1);
    assert.match(c.out.stderr, /--database and --database-url are the same option: give one/);
  });

  it("error: a bad DATABASE_URL from the environment is a configuration error", async () => {
    const c = captureOutput();
    assert.equal(await run(["x.jsonl"], { ...c, env: { DATABASE_URL: "mysql://x/y" } }), 1);
    assert.match(c.out.stderr, /configuration error: DATABASE_URL/);
  });

  it("default: works through the CLI dispatcher in a child process (DATABASE_URL from env)", async () => {
    const file = join(dir, "child.jsonl");
    const records = [makeTransfer(), makeTransfer()];
    await writeFile(file, jsonl(records));
    const url = join(dir, "child.db");
    const entry = tsEntryArgs(join(import.meta.dirname, "..", "start", "cli-entry.ts"));
    const child = await execFileAsync(process.execPath, [...entry, "import", file], {
      env: { ...process.env, DATABASE_URL: url },
    });
    assert.match(child.stdout, /2 read, 2 inserted/);
    const bad = join(dir, "child-bad.jsonl");
    await writeFile(bad, jsonl([{ ...makeTransfer(), status: "Done" }]));
    await assert.rejects(
      execFileAsync(process.execPath, [...entry, "import", bad], {
        env: { ...process.env, DATABASE_URL: url },
      }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /line 1: field status: must be one of/);
        return true;
      },
    );
  });
});
