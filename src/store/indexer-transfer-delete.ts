/**
 * Deleting a transfer (its send was removed by a reorg) while keeping the address-list
 * invariant of transfer-writes.ts: the rows of an address key have seq 1..total in
 * (created_at, transfer_id) order and address_stats holds total and the greatest row.
 * The transfer repository has no delete; this mirrors its private removeAddressRow. It belongs
 * in the store's TransferRepository (a `deleteTransfers` method) when that gains one.
 */
import type { SqlExecutor } from "./backend.js";

export async function deleteTransferRows(sql: SqlExecutor, messageKey: string): Promise<void> {
  const found = await sql.all<{ id: unknown }>("SELECT id FROM transfers WHERE message_key = ?", [
    messageKey,
  ]);
  if (found[0] === undefined) return;
  const id = Number(found[0].id);
  const rows = await sql.all<{ address_key: string; seq: unknown }>(
    "SELECT address_key, seq FROM address_transfers WHERE transfer_id = ? ORDER BY address_key",
    [id],
  );
  for (const row of rows) {
    const key = String(row.address_key);
    await sql.run("DELETE FROM address_transfers WHERE address_key = ? AND transfer_id = ?", [
      key,
      id,
    ]);
    await sql.run("UPDATE address_transfers SET seq = seq - 1 WHERE address_key = ? AND seq > ?", [
      key,
      Number(row.seq),
    ]);
    const last = await sql.all<{ created_at: string; transfer_id: unknown }>(
      "SELECT created_at, transfer_id FROM address_transfers WHERE address_key = ?" +
        " ORDER BY created_at DESC, transfer_id DESC LIMIT 1",
      [key],
    );
    await sql.run(
      "UPDATE address_stats SET total = total - 1, last_created_at = ?, last_id = ? WHERE address_key = ?",
      [last[0]?.created_at ?? "", Number(last[0]?.transfer_id ?? 0), key],
    );
  }
  await sql.run("DELETE FROM transfers WHERE id = ?", [id]);
}
