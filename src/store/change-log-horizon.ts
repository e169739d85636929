/**
 * History nobody subscribed to (migration 0013, docs/push.md): which changes the change log
 * must keep a row for. A stream or webhook is owed the changes made after it subscribed; what
 * happened on chain before any subscription existed, no subscriber can have missed. So the
 * writers of history (the indexer's derivation, `import`) ask here whether their transaction's
 * changes need log rows, and pause the log's triggers when they do not:
 *
 *   - no stream and no webhook subscription was ever made on this database: none needed. The
 *     first subscription waits for the transaction (PostgreSQL: the share lock taken here;
 *     SQLite: one writer at a time), so it comes after its commit in every order: a stream
 *     starts at the log's head, after these changes, and a webhook subscription at the fan-out
 *     cursor, which passes only logged changes;
 *   - an indexer batch whose every block, with the chain's finality depth above it, is at or
 *     below the head block the indexer had stored for that chain when the first subscription
 *     was made: none needed (its events were on chain, final, before anyone subscribed);
 *   - anything else (a batch near the head, a reorg's roll-back, an import once anyone
 *     subscribed): logged, as every other writer always is.
 */
import type { SqlExecutor } from "./backend.js";

type Kind = "sqlite" | "postgres";

/** An indexer batch's blocks: through `throughBlock`, reorgs reaching `finalityDepth` below. */
export interface HistoryBlocks {
  chainId: number;
  throughBlock: number;
  finalityDepth: number;
}

const NOW = {
  sqlite: "strftime('%Y-%m-%d %H:%M:%f', 'now')",
  postgres: "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')",
};
const CHAIN_HEADS = {
  sqlite: "(SELECT json_group_object(chain_id, head_block) FROM indexer_chains)",
  postgres:
    "(SELECT COALESCE(json_object_agg(chain_id, head_block), '{}')::text FROM indexer_chains)",
};

/** Records the first subscription (a no-op once one was): see the module comment. */
export const markSubscribedSql = (kind: Kind) =>
  `UPDATE transfer_changes_horizon SET subscribed_at = ${NOW[kind]}, chain_heads = ${CHAIN_HEADS[kind]}` +
  " WHERE id = 1 AND subscribed_at IS NULL";

const READ_SQL = {
  sqlite: "SELECT subscribed_at, chain_heads FROM transfer_changes_horizon WHERE id = 1",
  // The share lock makes a first subscription (markSubscribedSql) wait for this transaction.
  postgres:
    "SELECT subscribed_at, chain_heads FROM transfer_changes_horizon WHERE id = 1 FOR SHARE",
};

/** Whether the changes the caller's transaction is about to make need change-log rows. */
export async function changeLogNeeded(
  sql: SqlExecutor,
  kind: Kind,
  blocks?: HistoryBlocks | readonly HistoryBlocks[],
): Promise<boolean> {
  const [row] = await sql.all<{ subscribed_at: unknown; chain_heads: unknown }>(READ_SQL[kind]);
  if (row === undefined) return true;
  if (row.subscribed_at === null || row.subscribed_at === undefined) return false;
  const heads = row.chain_heads;
  if (typeof heads !== "string") return true;
  const all = blocks === undefined ? [] : "chainId" in blocks ? [blocks] : blocks;
  return all.length === 0 || !all.every((b) => predatesSubscriptions(heads, b));
}

/**
 * Whether an indexer batch's blocks were on chain, final, before the first subscription:
 * `chainHeads` is the JSON of transfer_changes_horizon.chain_heads.
 */
export function predatesSubscriptions(chainHeads: string, blocks?: HistoryBlocks): boolean {
  if (blocks === undefined) return false;
  const head = Number((JSON.parse(chainHeads) as Record<string, unknown>)[String(blocks.chainId)]);
  return Number.isFinite(head) && blocks.throughBlock + blocks.finalityDepth <= head;
}

/**
 * Runs `work` with the log's triggers paused in the caller's transaction, unless its changes
 * need log rows (changeLogNeeded). `work` must run on that transaction, and nothing else may
 * write `transfers` on it meanwhile.
 */
export async function withHistoryUnlogged<T>(
  sql: SqlExecutor,
  kind: Kind,
  blocks: HistoryBlocks | readonly HistoryBlocks[] | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (await changeLogNeeded(sql, kind, blocks)) return work();
  if (kind === "postgres") {
    await sql.all("SELECT set_config('bridge_oracle.change_log', 'paused', true)");
    try {
      return await work();
    } finally {
      await sql.all("SELECT set_config('bridge_oracle.change_log', '', true)");
    }
  }
  await sql.run("INSERT OR IGNORE INTO transfer_changes_paused (id) VALUES (1)");
  let result: T;
  try {
    result = await work();
  } finally {
    await sql.run("DELETE FROM transfer_changes_paused WHERE id = 1");
  }
  // The change counter (list cache, stream wake-up) watches the log's sequence and this.
  await sql.run(
    "UPDATE transfer_changes_horizon SET unlogged_commits = unlogged_commits + 1 WHERE id = 1",
  );
  return result;
}
