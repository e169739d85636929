/**
 * The records an index benchmark run left, compared across indexers (ours on SQLite and
 * PostgreSQL, Ponder's, bench/index-ponder.ts): every field of the record both produce (all but
 * the write times created_at and updated_at), normalised (numbers as decimal text, hex strings
 * lowercase: one side may write addresses EIP-55 and the other not), in message-id order,
 * digested with SHA-256; two sets that differ are described by their first few differences.
 */
import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { TRANSFER_FIELDS } from "../src/domain/bridge-transaction.js";
import { databaseKind } from "../src/store/database-url.js";
import { endClient } from "../src/store/postgres/connections.js";
import { connect } from "./list-postgres.js";

/** The record's fields both indexers derive from the chain. */
export const COMPARED_FIELDS = TRANSFER_FIELDS.filter(
  (f) => f !== "created_at" && f !== "updated_at",
);

export type ComparedRecord = Record<(typeof COMPARED_FIELDS)[number], string>;

const HEX = /^0x[0-9a-fA-F]*$/;

export function normaliseRecord(row: Record<string, unknown>): ComparedRecord {
  const out = {} as ComparedRecord;
  for (const field of COMPARED_FIELDS) {
    const value = row[field];
    if (value === undefined || value === null) throw new Error(`record without ${field}`);
    const text = String(value);
    out[field] = HEX.test(text) ? text.toLowerCase() : text;
  }
  return out;
}

/** Our records in the store at `databaseUrl` (a SQLite path or a postgres:// URL). */
export async function readOurRecords(databaseUrl: string): Promise<ComparedRecord[]> {
  const sql = `SELECT ${COMPARED_FIELDS.join(", ")} FROM transfer_records`;
  if (databaseKind(databaseUrl) === "postgres") {
    const client = await connect(databaseUrl);
    try {
      const { rows } = await client.query(sql);
      return rows.map(normaliseRecord);
    } finally {
      await endClient(client);
    }
  }
  const db = new Database(databaseUrl, { readonly: true });
  try {
    return (db.prepare(sql).all() as Record<string, unknown>[]).map(normaliseRecord);
  } finally {
    db.close();
  }
}

const byMessageId = (a: ComparedRecord, b: ComparedRecord) =>
  a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0;

/** SHA-256 (hex) of the records in message-id order, one JSON array of the fields per record. */
export function recordsDigest(records: readonly ComparedRecord[]): string {
  const hash = createHash("sha256");
  for (const r of [...records].sort(byMessageId)) {
    hash.update(`${JSON.stringify(COMPARED_FIELDS.map((f) => r[f]))}\n`);
  }
  return hash.digest("hex");
}

export interface RecordsComparison {
  equal: boolean;
  /** Message ids only one side has, and records on both whose fields differ. */
  onlyOurs: number;
  onlyTheirs: number;
  differing: number;
  /** Up to five differences, e.g. `0xab…: status Success / Failed`. */
  examples: string[];
}

export function compareRecords(
  ours: readonly ComparedRecord[],
  theirs: readonly ComparedRecord[],
): RecordsComparison {
  const theirsById = new Map(theirs.map((r) => [r.message_id, r]));
  const examples: string[] = [];
  let onlyOurs = 0;
  let differing = 0;
  for (const r of ours) {
    const t = theirsById.get(r.message_id);
    theirsById.delete(r.message_id);
    if (t === undefined) {
      onlyOurs++;
      if (examples.length < 5) examples.push(`${r.message_id}: ours only`);
      continue;
    }
    const fields = COMPARED_FIELDS.filter((f) => r[f] !== t[f]);
    if (fields.length === 0) continue;
    differing++;
    if (examples.length < 5) {
      examples.push(
        `${r.message_id}: ${fields.map((f) => `${f} ${JSON.stringify(r[f])} / ${JSON.stringify(t[f])}`).join(", ")}`,
      );
    }
  }
  for (const id of theirsById.keys()) {
    if (examples.length < 5) examples.push(`${id}: theirs only`);
  }
  const onlyTheirs = theirsById.size;
  return {
    equal: onlyOurs === 0 && onlyTheirs === 0 && differing === 0,
    onlyOurs,
    onlyTheirs,
    differing,
    examples,
  };
}
