/**
 * The request paths of each list-benchmark scenario, built deterministically from the data set's
 * sample. Each scenario is a list that autocannon's connections cycle through.
 */
import { createPrng } from "../src/transfers/prng.js";
import type { DatasetSample } from "./list-data.js";

export const LIST_PATH = "/api/oracle/bridge-transactions";

/** Rows skipped by a "deep" page: 100,000 rows into one address's history. */
export const DEEP_OFFSET = 100_000;

const SORTS = [
  ["created_at", "createdAt"],
  ["updated_at", "updatedAt"],
  ["start_time", "startTime"],
  ["end_time", "endTime"],
  ["send_amount", "sendAmount"],
  ["receive_amount", "receiveAmount"],
] as const;

export function listUrl(
  addressOrTxHash: string,
  pageNo: number,
  pageSize: number,
  sort?: { name: string; order: string },
): string {
  let url = `${LIST_PATH}?addressOrTxHash=${addressOrTxHash}&pageNo=${pageNo}&pageSize=${pageSize}`;
  if (sort !== undefined) url += `&sortName=${sort.name}&sortOrder=${sort.order}`;
  return url;
}

export interface RequestSets {
  /** The realistic mix: addresses (ordinary and hot), hashes, first and deep pages, sorts, sizes. */
  mix: string[];
  /** Page 1 of ordinary and hot addresses, default sort, page size 10. */
  firstPages: string[];
  /** Page 1 of the hot addresses only (their `total` is 100,000+). */
  hotFirstPages: string[];
  /** Hash / message id lookups. */
  hashes: string[];
  /** Pages DEEP_OFFSET rows into a hot address, default sort, size 10. */
  deepPages: string[];
}

export function buildRequestSets(sample: DatasetSample, seed = 1): RequestSets {
  const prng = createPrng(seed);
  const addresses = sample.addresses.slice(0, 400);
  const hot = sample.hotAddresses;
  if (hot.length === 0 || addresses.length === 0 || sample.hashes.length === 0) {
    throw new Error("the data set sample has no hot addresses, addresses or hashes");
  }
  const hashes = sample.hashes
    .slice(0, 600)
    .map((h, i) => (i % 5 === 0 ? h.toUpperCase().replace("0X", "0x") : h));
  const deep = (address: string, size: number) => listUrl(address, DEEP_OFFSET / size + 1, size);

  const firstPages = addresses
    .slice(0, 200)
    .map((a, i) => listUrl(i % 3 === 0 ? a.toLowerCase() : a, 1, 10));
  for (let i = 0; i < 20; i++) firstPages.splice(i * 10, 0, listUrl(hot[i % hot.length]!, 1, 10));
  const hotFirstPages = hot.flatMap((a) => [listUrl(a, 1, 10), listUrl(a.toLowerCase(), 1, 10)]);
  const hashUrls = hashes.map((h) => listUrl(h, 1, 10));
  // Page size 10 like hotFirstPages, so that deep and first pages compare like for like (the
  // mix has deep pages of size 50 too).
  const deepPages = hot.flatMap((a) => [deep(a, 10), listUrl(a, DEEP_OFFSET / 10 + 2, 10)]);

  const mix: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const r = prng.float();
    const size = prng.chance(0.7) ? 10 : 50;
    const sortPair = prng.pick(SORTS);
    const sort = {
      name: prng.chance(0.5) ? sortPair[0] : sortPair[1],
      order: prng.pick(["asc", "desc", "DESC", "Asc"]),
    };
    if (r < 0.3) {
      mix.push(listUrl(prng.pick(addresses), 1, size)); // ordinary address, first page
    } else if (r < 0.4) {
      mix.push(listUrl(prng.pick(hot), 1, size)); // hot address, first page
    } else if (r < 0.65) {
      mix.push(prng.pick(hashUrls)); // hash lookup
    } else if (r < 0.75) {
      mix.push(deep(prng.pick(hot), size)); // deep page, default sort
    } else if (r < 0.9) {
      // sort options, on ordinary and hot addresses
      const address = prng.chance(0.7) ? prng.pick(addresses) : prng.pick(hot);
      mix.push(listUrl(address, 1 + prng.int(3), size, sort));
    } else {
      mix.push(listUrl(prng.pick(hot), 2 + prng.int(50), size)); // browsing a few pages in
    }
  }
  return { mix, firstPages, hotFirstPages, hashes: hashUrls, deepPages };
}
