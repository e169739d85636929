/**
 * A writer in a process of its own for test/api/transfer-stream-resume.test.ts (standing in for
 * the indexer): `<databaseUrl> <address> <count> <seed>` writes `count` changes, one transaction
 * each with a short random pause between: transfers to and from `address` created, delivered
 * and some removed, and transfers of other addresses in between. Prints "started" once its
 * store is open and "done" when finished.
 */

import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { TransferMaintenanceRepository } from "../../src/store/types.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

const [databaseUrl = "", address = "", countText = "20", seedText = "1"] = process.argv.slice(2);
let seed = Number(seedText) >>> 0 || 1;
/** xorshift32: the same writes and pauses for the same seed. */
function random(): number {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 2 ** 32;
}

const store = await createStore({ databaseUrl });
process.stdout.write("started\n");
const transfers = store.transfers as TransferMaintenanceRepository;
const pending: BridgeTransaction[] = [];
for (let i = 0; i < Number(countText); i++) {
  const roll = random();
  if (roll < 0.3 || pending.length === 0) {
    const sent = makeProcessingTransfer(
      random() < 0.5 ? { from_address: address } : { to_address: address },
    );
    pending.push(sent);
    await transfers.upsertTransfers([sent]);
  } else if (roll < 0.6) {
    const sent = pending.shift() as BridgeTransaction;
    await transfers.upsertTransfers([
      {
        ...makeTransfer({ message_id: sent.message_id }),
        from_address: sent.from_address,
        to_address: sent.to_address,
        created_at: sent.created_at,
      },
    ]);
  } else if (roll < 0.65) {
    const sent = pending.pop() as BridgeTransaction;
    await transfers.deleteTransfers([sent.message_id]);
  } else {
    await transfers.upsertTransfers([makeTransfer()]);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 8)));
}
await store.close();
process.stdout.write("done\n");
