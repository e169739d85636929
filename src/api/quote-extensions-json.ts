/**
 * The JSON text of a quote's added fields (router/quote-extensions.ts), written directly.
 *
 * Why not the route's response schema: with these fields fast-json-stringify more than doubles
 * the serialisation cost of a quote (about 4.5 -> 10.5 µs, most of it in the generic
 * additionalProperties loop of `stateBlocks` and the escaping checks of the long hex strings),
 * and the added fields may cost at most 10 % of memo-off quote throughput (bench/RESULTS.md, router).
 * Every string here is produced by this service and needs no escaping: hex (call data, hex
 * quantities), EIP-55 addresses from the registry, canonical decimal amounts, the
 * `YYYY-MM-DD HH:MM:SS` expiry; numbers are safe integers. The route schema still documents the
 * fields (OpenAPI), and quote-extensions-json.test.ts checks this text byte for byte against what
 * the schema's serialiser writes.
 */

import type {
  EstimatedDuration,
  QuoteExtensions,
  TransactionRequest,
} from "../router/quote-extensions.js";

/**
 * The text of an object shared by many quotes (a route's frozen `stateBlocks` in one snapshot,
 * an estimate between refreshes), written once: walking an object's integer keys costs more than
 * the rest of the added fields' text.
 */
const sharedText = new WeakMap<object, string>();

function textOf<T extends object>(value: T, write: (value: T) => string): string {
  let text = sharedText.get(value);
  if (text === undefined) {
    text = write(value);
    if (Object.isFrozen(value)) sharedText.set(value, text);
  }
  return text;
}

function stateBlocksText(stateBlocks: Readonly<Record<string, number>>): string {
  let blocks = "";
  for (const chainId in stateBlocks) {
    blocks += `${blocks === "" ? "" : ","}"${chainId}":${stateBlocks[chainId]}`;
  }
  return `{${blocks}}`;
}

const durationText = (d: EstimatedDuration): string =>
  `{"p50Seconds":${d.p50Seconds},"p90Seconds":${d.p90Seconds},"samples":${d.samples}}`;

const transaction = (t: TransactionRequest): string =>
  `{"chainId":${t.chainId},"to":"${t.to}","data":"${t.data}","value":"${t.value}"}`;

/** `,"transactionRequest":…,"estimatedDuration":…`: to follow the spec's fields in `data`. */
export function quoteExtensionsJson(e: QuoteExtensions): string {
  const a = e.approval;
  const d = e.estimatedDuration;
  return (
    `,"transactionRequest":${transaction(e.transactionRequest)}` +
    `,"approval":${
      a === null
        ? "null"
        : `{"token":"${a.token}","spender":"${a.spender}","amount":"${a.amount}","transactionRequest":${transaction(a.transactionRequest)}}`
    }` +
    `,"stateBlocks":${textOf(e.stateBlocks, stateBlocksText)}` +
    `,"expiresAt":"${e.expiresAt}"` +
    `,"estimatedDuration":${d === null ? "null" : textOf(d, durationText)}`
  );
}
