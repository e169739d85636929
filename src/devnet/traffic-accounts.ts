/**
 * The devnet's user accounts, lent to traffic one transfer at a time. Every protocol whose
 * traffic sends from the users borrows from one pool, so an account never has two transactions
 * in flight (each would take the same nonce).
 */
import type { ManifestAccount } from "./manifest.js";

export interface AccountPool {
  /** Every account of the pool, busy or not. */
  readonly all: readonly ManifestAccount[];
  /** The accounts no transfer is using now. */
  free(): ManifestAccount[];
  /** Marks `account` busy; false when it already was. */
  take(account: ManifestAccount): boolean;
  release(account: ManifestAccount): void;
}

export function createAccountPool(accounts: readonly ManifestAccount[]): AccountPool {
  const busy = new Set<string>();
  return {
    all: accounts,
    free: () => accounts.filter((account) => !busy.has(account.address)),
    take(account) {
      if (busy.has(account.address)) return false;
      busy.add(account.address);
      return true;
    },
    release(account) {
      busy.delete(account.address);
    },
  };
}
