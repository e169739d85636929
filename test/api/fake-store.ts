/**
 * A small in-memory Store for the API tests that need to control failures (a listTransfers that
 * throws, a ping that rejects or hangs). The behaviour tests run against the real store.
 */
import type { ListTransfersQuery, ListTransfersResult, Store } from "../../src/store/types.js";

export interface FakeStoreOptions {
  listTransfers?: (query: ListTransfersQuery) => Promise<ListTransfersResult>;
  ping?: () => Promise<void>;
}

export function createFakeStore(
  options: FakeStoreOptions = {},
): Store & { calls: ListTransfersQuery[] } {
  const calls: ListTransfersQuery[] = [];
  const store: Store & { calls: ListTransfersQuery[] } = {
    kind: "sqlite",
    calls,
    transfers: {
      upsertTransfers: async () => ({ inserted: 0, updated: 0, unchanged: 0 }),
      listTransfers: async (query) => {
        calls.push(query);
        return options.listTransfers ? options.listTransfers(query) : { total: 0, items: [] };
      },
      getTransfer: async () => undefined,
    },
    transaction: (work) => work(store),
    ping: options.ping ?? (async () => {}),
    close: async () => {},
  };
  return store;
}
