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
import type { QuoteExtensions } from "../router/quote-extensions.js";
import type { TransactionRequest } from "../router/transaction-request.js";

const transaction = (t: TransactionRequest): string =>
  `{"chainId":${t.chainId},"to":"${t.to}","data":"${t.data}","value":"${t.value}"}`;

/** `,"transactionRequest":…,"estimatedDuration":…`: to follow the spec's fields in `data`. */
export function quoteExtensionsJson(e: QuoteExtensions): string {
  let blocks = "";
  for (const chainId in e.stateBlocks) {
    blocks += `${blocks === "" ? "" : ","}"${chainId}":${e.stateBlocks[chainId]}`;
  }
  const a = e.approval;
  const d = e.estimatedDuration;
  return (
    `,"transactionRequest":${transaction(e.transactionRequest)}` +
    `,"approval":${
      a === null
        ? "null"
        : `{"token":"${a.token}","spender":"${a.spender}","amount":"${a.amount}","transactionRequest":${transaction(a.transactionRequest)}}`
    }` +
    `,"stateBlocks":{${blocks}}` +
    `,"expiresAt":"${e.expiresAt}"` +
    `,"estimatedDuration":${
      d === null
        ? "null"
        : `{"p50Seconds":${d.p50Seconds},"p90Seconds":${d.p90Seconds},"samples":${d.samples}}`
    }`
  );
}
