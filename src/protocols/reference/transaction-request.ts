/**
 * The ready transactions of a quote (docs/router.md, "Executing a quote"): the `bridge(params)`
 * call with every amount in base units, and the ERC-20 `approve` it needs first, in the form
 * `eth_sendTransaction` takes (docs/http-api.md, API rule 8: hex quantities inside a transaction).
 *
 * Both calls take only static ABI types (uint256, address, bool; BridgeParams is a static
 * tuple, so it is encoded in place), so the call data is the selector followed by one 32-byte
 * word per value. It is written here directly instead of through viem's encodeFunctionData:
 * this runs on every quote, and the direct form costs a fraction of the generic encoder
 * (quote-extensions.test.ts checks it against viem for arbitrary values). What a route fixes
 * (selector, chain, tokens, spender) is encoded once per route (bridgeCallTemplate,
 * approveCallHead), so a quote encodes only its amounts and recipient.
 */
import { type Address, toFunctionSelector } from "viem";
import type { BridgeParams } from "./bridge-params.js";

export interface TransactionRequest {
  /** EVM chain id to send it on. */
  chainId: number;
  to: Address;
  /** ABI-encoded call data. */
  data: `0x${string}`;
  /** Wei, a hex quantity ("0x0" for none). */
  value: `0x${string}`;
}

/** contracts/interfaces/IBridge.sol: `bridge(BridgeParams)`. */
export const BRIDGE_SELECTOR = toFunctionSelector(
  "bridge((uint256,address,address,uint256,uint256,address,bool,uint256,address,uint256,bool,uint256,address,uint256))",
);
/** ERC-20 `approve(address,uint256)`. */
export const APPROVE_SELECTOR = toFunctionSelector("approve(address,uint256)");

const ZEROS = "0".repeat(64);
const MAX_UINT256 = (1n << 256n) - 1n;

/** An unsigned integer below 2^256 as one ABI word (64 hex digits, no 0x). */
function uintWord(value: bigint): string {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${value} is not a uint256`);
  const hex = value.toString(16);
  return ZEROS.slice(hex.length) + hex;
}

/** An address (0x + 40 hex, any case) as one ABI word, lowercase as viem writes it. */
function addressWord(address: string): string {
  return `000000000000000000000000${address.slice(2).toLowerCase()}`;
}

const boolWord = (value: boolean): string => (value ? `${ZEROS.slice(1)}1` : ZEROS);

/** A hex quantity as JSON-RPC writes it: no leading zeros, "0x0" for zero. */
export function hexQuantity(value: bigint): `0x${string}` {
  return `0x${value.toString(16)}`;
}

/** The fields of BridgeParams a route fixes: its chain and its four tokens. */
export type BridgeRouteFields = Pick<
  BridgeParams,
  "destChainId" | "sourceToken" | "destToken" | "sourceBridgeToken" | "destBridgeToken"
>;

/** The fields of BridgeParams each quote sets: the amounts, the swaps and the recipient. */
export type BridgeQuoteFields = Omit<BridgeParams, keyof BridgeRouteFields>;

/**
 * The words of a route's `bridge(p)` call that do not change from quote to quote, encoded once
 * per route; a quote then encodes only its own seven amounts and its recipient.
 */
export interface BridgeCallTemplate {
  /** Selector, destChainId, sourceToken, destToken. */
  head: string;
  sourceBridgeToken: string;
  destBridgeToken: string;
}

export function bridgeCallTemplate(route: BridgeRouteFields): BridgeCallTemplate {
  return {
    head: `${BRIDGE_SELECTOR}${uintWord(route.destChainId)}${addressWord(route.sourceToken)}${addressWord(route.destToken)}`,
    sourceBridgeToken: addressWord(route.sourceBridgeToken),
    destBridgeToken: addressWord(route.destBridgeToken),
  };
}

/** Call data of `bridge(p)`: a route's template and one quote's fields. */
export function encodeBridgeCallWith(
  template: BridgeCallTemplate,
  p: BridgeQuoteFields,
): `0x${string}` {
  return `${template.head}${uintWord(p.amount)}${uintWord(p.fee)}${addressWord(p.to)}${boolWord(
    p.sourceSwap,
  )}${uintWord(p.sourceSwapFee)}${template.sourceBridgeToken}${uintWord(
    p.sourceMinAmount,
  )}${boolWord(p.destSwap)}${uintWord(p.destSwapFee)}${template.destBridgeToken}${uintWord(
    p.destMinAmount,
  )}` as `0x${string}`;
}

/** Call data of `bridge(p)`. */
export function encodeBridgeCall(p: BridgeParams): `0x${string}` {
  return encodeBridgeCallWith(bridgeCallTemplate(p), p);
}

/** The selector and spender word of `approve(spender, amount)`, encoded once per route. */
export function approveCallHead(spender: string): string {
  return `${APPROVE_SELECTOR}${addressWord(spender)}`;
}

/** Call data of `approve(spender, amount)` from approveCallHead(spender). */
export function encodeApproveCallWith(head: string, amount: bigint): `0x${string}` {
  return `${head}${uintWord(amount)}` as `0x${string}`;
}

/** Call data of `approve(spender, amount)`. */
export function encodeApproveCall(spender: string, amount: bigint): `0x${string}` {
  return encodeApproveCallWith(approveCallHead(spender), amount);
}
