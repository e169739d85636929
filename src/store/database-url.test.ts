import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { databaseKind, missingSqliteFile } from "./database-url.js";

describe("database URL", () => {
  it("default: postgres URLs select PostgreSQL, anything else SQLite", () => {
    assert.equal(databaseKind("postgres://u@h/db"), "postgres");
    assert.equal(databaseKind("postgresql://u@h/db"), "postgres");
    assert.equal(databaseKind("data/bridge.db"), "sqlite");
    assert.equal(databaseKind("file:data/bridge.db"), "sqlite");
  });

  it("behavior: missingSqliteFile names a SQLite file not there yet, nothing else", () => {
    const absent = `/tmp/bridge-oracle-no-such-dir-${process.pid}/db.sqlite`;
    assert.equal(missingSqliteFile(absent), absent);
    assert.equal(missingSqliteFile(`file:${absent}`), absent);
    assert.equal(missingSqliteFile(import.meta.filename), undefined);
    assert.equal(missingSqliteFile(":memory:"), undefined);
    assert.equal(missingSqliteFile("postgres://u@h/db"), undefined);
  });
});
