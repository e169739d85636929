/**
 * A small in-memory Store for the API tests that need to control failures (a listTransfers that
 * throws, a ping that rejects or hangs). The behaviour tests run against the real store. Any
 * repository method the API does not call rejects, so the fake keeps compiling as the
 * repository interface grows.
 */
import type { TransferChangeRepository } from "../../src/store/transfer-change-repository.js";
import type {
  ListTransfersQuery,
  ListTransfersResult,
  Store,
  TransferRepository,
} from "../../src/store/types.js";

export interface FakeStoreOptions {
  listTransfers?: (query: ListTransfersQuery) => Promise<ListTransfersResult>;
  ping?: () => Promise<void>;
}

export function createFakeStore(
  options: FakeStoreOptions = {},
): Store & { calls: ListTransfersQuery[] } {
  const calls: ListTransfersQuery[] = [];
  const implemented: Partial<TransferRepository> = {
    listTransfers: async (query) => {
      calls.push(query);
      return options.listTransfers ? options.listTransfers(query) : { total: 0, items: [] };
    },
  };
  const transfers = new Proxy(implemented, {
    get(target, name) {
      if (name in target) return target[name as keyof TransferRepository];
      return async () => {
        throw new Error(`fake store: transfers.${String(name)} is not implemented`);
      };
    },
  }) as TransferRepository;
  const transferChanges = new Proxy(
    {},
    {
      get(_target, name) {
        return async () => {
          throw new Error(`fake store: transferChanges.${String(name)} is not implemented`);
        };
      },
    },
  ) as TransferChangeRepository;
  const store: Store & { calls: ListTransfersQuery[] } = {
    kind: "sqlite",
    calls,
    transfers,
    transferChanges,
    transaction: (work) => work(store),
    ping: options.ping ?? (async () => {}),
    close: async () => {},
  };
  return store;
}
