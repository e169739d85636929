/**
 * Validation of a router request body (docs/router.md; docs/http-api.md, API rules 1, 4 and 6) as a
 * pure function. Failures carry an ErrorKind and a message naming the parameter and the rule, so
 * the HTTP layer only wraps them in ApiError. Order: shape and format of every field first (40001),
 * then support by the registry (42201), then the amount's precision for its token (40001).
 */
import { getAddress } from "viem";
import { DECIMAL_PATTERN, parseAmount } from "../amount.js";
import type { Registry, RegistryChain, RegistryToken } from "../domain/registry.js";
import type { ErrorKind } from "../errors.js";
import { MAX_UINT256 } from "./route-limits.js";

/** The request body, every field exactly as received. */
export interface RouterRequest {
  sourceChain: string;
  sourceToken: string;
  destChain: string;
  destToken: string;
  amount: string;
  to: string;
}

export interface ValidatedRouterRequest {
  /** The strings as received: params.to / sourceToken / destToken repeat them exactly. */
  request: RouterRequest;
  sourceChain: RegistryChain;
  destChain: RegistryChain;
  sourceToken: RegistryToken;
  destToken: RegistryToken;
  /** Base units of sourceToken; > 0 and <= uint256 max. */
  amount: bigint;
}

export type RequestFailure = { ok: false; kind: ErrorKind; message: string };
export type RequestValidation = { ok: true; value: ValidatedRouterRequest } | RequestFailure;

const FIELDS = ["sourceChain", "sourceToken", "destChain", "destToken", "amount", "to"] as const;
const CHAIN_ID_PATTERN = /^[0-9]{1,20}$/;
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const ZERO_PATTERN = /^0+(\.0+)?$/;

/**
 * Mixed-case address -> whether its EIP-55 checksum is right. The checksum is a keccak-256 of
 * the address (about 5 us); clients send the same token and recipient addresses again and
 * again. A pure function's memo, bounded (emptied when full), so it holds no state that
 * matters.
 */
const checksumVerdicts = new Map<string, boolean>();
const CHECKSUM_VERDICTS_REMEMBERED = 10_000;

/**
 * An EVM address: 0x + 40 hex digits, all lowercase, all uppercase, or mixed case with a valid
 * EIP-55 checksum (mixed case with a wrong checksum is a typo, and money would go astray).
 */
export function isEvmAddress(text: string): boolean {
  const known = checksumVerdicts.get(text);
  if (known !== undefined) return known;
  if (!ADDRESS_PATTERN.test(text)) return false;
  const hex = text.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  const valid = getAddress(text.toLowerCase()) === text;
  if (checksumVerdicts.size >= CHECKSUM_VERDICTS_REMEMBERED) checksumVerdicts.clear();
  checksumVerdicts.set(text, valid);
  return valid;
}

function invalid(message: string): RequestFailure {
  return { ok: false, kind: "invalidParameter", message };
}

function addressRule(name: string, text: string): string | undefined {
  if (!ADDRESS_PATTERN.test(text))
    return `${name} must be an address: 0x followed by 40 hex digits`;
  if (!isEvmAddress(text)) return `${name} has a mixed-case address with a wrong EIP-55 checksum`;
  return undefined;
}

function findChain(registry: Registry, text: string): RegistryChain | undefined {
  const id = BigInt(text);
  return id <= BigInt(Number.MAX_SAFE_INTEGER) ? registry.chain(Number(id)) : undefined;
}

function supportedChains(registry: Registry): string {
  return registry.chains.map((c) => `${c.chainId} (${c.name})`).join(", ");
}

export function validateRouterRequest(body: unknown, registry: Registry): RequestValidation {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, kind: "invalidBody", message: "the body must be a JSON object" };
  }
  const fields = body as Record<string, unknown>;
  for (const name of FIELDS) {
    const value = fields[name];
    if (value === undefined || value === null) return invalid(`${name} is required`);
    if (typeof value !== "string") return invalid(`${name} must be a string`);
  }
  // Exactly the six fields (checked to be strings above), whatever else the body holds.
  const request: RouterRequest = {
    sourceChain: fields.sourceChain as string,
    sourceToken: fields.sourceToken as string,
    destChain: fields.destChain as string,
    destToken: fields.destToken as string,
    amount: fields.amount as string,
    to: fields.to as string,
  };

  for (const name of ["sourceChain", "destChain"] as const) {
    if (!CHAIN_ID_PATTERN.test(request[name])) {
      return invalid(
        `${name} must be a chain id: a numeric string of 1 to 20 digits, such as "71001"`,
      );
    }
  }
  if (BigInt(request.sourceChain) === BigInt(request.destChain)) {
    return invalid("destChain must differ from sourceChain");
  }
  for (const name of ["sourceToken", "destToken"] as const) {
    const rule = addressRule(name, request[name]);
    if (rule) return invalid(rule);
  }
  if (!DECIMAL_PATTERN.test(request.amount)) {
    return invalid(
      "amount must be a decimal string of digits with an optional fraction, such as 1.5",
    );
  }
  if (ZERO_PATTERN.test(request.amount)) return invalid("amount must be greater than zero");
  const toRule = addressRule("to", request.to);
  if (toRule) return invalid(toRule);
  if (/^0x0{40}$/.test(request.to)) return invalid("to must not be the zero address");

  const sourceChain = findChain(registry, request.sourceChain);
  if (!sourceChain) {
    const message = `sourceChain ${request.sourceChain} is not supported; supported chains: ${supportedChains(registry)}`;
    return { ok: false, kind: "noRoute", message };
  }
  const destChain = findChain(registry, request.destChain);
  if (!destChain) {
    const message = `destChain ${request.destChain} is not supported; supported chains: ${supportedChains(registry)}`;
    return { ok: false, kind: "noRoute", message };
  }
  const sourceToken = registry.token(sourceChain.chainId, request.sourceToken);
  if (!sourceToken) {
    const message = `sourceToken ${request.sourceToken} is not a supported token on ${sourceChain.name} (${sourceChain.chainId})`;
    return { ok: false, kind: "noRoute", message };
  }
  const destToken = registry.token(destChain.chainId, request.destToken);
  if (!destToken) {
    const message = `destToken ${request.destToken} is not a supported token on ${destChain.name} (${destChain.chainId})`;
    return { ok: false, kind: "noRoute", message };
  }

  const parsed = parseAmount(request.amount, sourceToken.decimals);
  if (!parsed.ok) return invalid(`amount ${parsed.message} (${sourceToken.symbol})`);
  if (parsed.value > MAX_UINT256) return invalid("amount is too large for a uint256 in base units");
  return {
    ok: true,
    value: { request, sourceChain, destChain, sourceToken, destToken, amount: parsed.value },
  };
}
