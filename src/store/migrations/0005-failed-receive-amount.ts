import { amountSortKey } from "../transfer-keys.js";
import type { Migration } from "./migration.js";

/**
 * A Failed record's `receive_amount` is "0": nothing was delivered, and that is known
 * (docs/http-api.md, API rule 2 keeps "" for values not known yet; import has always required an
 * amount). The indexer wrote "" for it before; this rewrites such records and their address rows'
 * sort key. `updated_at` stays: the transfer did not change, only how the store spelled its
 * outcome.
 */
const ZERO_KEY = amountSortKey("0");
const STATEMENTS = `
UPDATE address_transfers SET receive_amount_key = '${ZERO_KEY}'
  WHERE transfer_id IN (SELECT id FROM transfers WHERE status = 'Failed' AND receive_amount = '');
UPDATE transfers SET receive_amount = '0', receive_amount_key = '${ZERO_KEY}'
  WHERE status = 'Failed' AND receive_amount = '';
`;

export const migration: Migration = {
  version: 5,
  name: "failed-receive-amount",
  sqlite: STATEMENTS,
  postgres: STATEMENTS,
};
