/**
 * Parses the query string of `GET /api/oracle/bridge-transactions` (docs/http-api.md, API rule 3)
 * into a store query. Pure: no I/O, throws only ApiError("invalidParameter") whose message names
 * the parameter and the rule, so the HTTP layer answers 400 40001 without knowing the rules.
 *
 * Validation lives here rather than in an Ajv schema because the rules (trim-then-classify,
 * repeated parameters, camelCase aliases) and their messages are the product; the route's
 * JSON schema (list-transfers.ts) only documents them for OpenAPI.
 */
import { invalidParameter } from "../../errors.js";
import { classifyAddressOrTxHash } from "../../store/transfer-match.js";
import {
  type ListTransfersQuery,
  SORT_FIELDS,
  type SortField,
  type SortOrder,
  type TransferMatch,
} from "../../store/types.js";

export const MAX_PAGE_SIZE = 100;
/**
 * Upper bound of pageNo. Keeps (pageNo - 1) * pageSize below 1e11, far inside the exact integer
 * range of a JS number and of SQL LIMIT/OFFSET, whatever the client sends.
 */
export const MAX_PAGE_NO = 1_000_000_000;
export const DEFAULT_SORT_FIELD: SortField = "created_at";
export const DEFAULT_SORT_ORDER: SortOrder = "desc";

/** Accepted sortName spellings: each snake_case field and its camelCase twin. */
export const SORT_NAME_ALIASES: Readonly<Record<string, SortField>> = Object.freeze(
  Object.fromEntries(
    SORT_FIELDS.flatMap((field) => [
      [field, field],
      [field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), field],
    ]),
  ),
);
export const SORT_NAMES: readonly string[] = Object.freeze(Object.keys(SORT_NAME_ALIASES));

export const ADDRESS_OR_TX_HASH_RULE =
  "must be an EVM address (0x + 40 hex digits), a 32-byte hash (0x + 64 hex digits), " +
  "or another chain's address or hash of 1-128 characters from A-Z a-z 0-9 : _ -";

export interface ParsedListTransfersQuery {
  query: ListTransfersQuery;
  /** Echoed in the response as numbers (docs/http-api.md, "List bridge transactions"). */
  page: { page: number; pageSize: number };
}

/**
 * `raw` is the parsed query string: each value a string, or an array of strings when the
 * parameter was repeated. Unknown parameters are ignored (cache busters, tracking tags).
 */
export function parseListTransfersQuery(
  raw: Readonly<Record<string, unknown>>,
): ParsedListTransfersQuery {
  const match = parseAddressOrTxHash(raw);
  const pageNo = integerInRange(raw, "pageNo", 1, MAX_PAGE_NO);
  const pageSize = integerInRange(raw, "pageSize", 1, MAX_PAGE_SIZE);
  return {
    query: {
      match,
      offset: (pageNo - 1) * pageSize,
      limit: pageSize,
      sortField: sortField(raw),
      sortOrder: sortOrder(raw),
    },
    page: { page: pageNo, pageSize },
  };
}

/**
 * The `addressOrTxHash` parameter of `raw` (trimmed, then classified), or 400 40001 saying
 * which rule it broke. Shared by the list endpoint and the stream (routes/transfer-stream.ts).
 */
export function parseAddressOrTxHash(raw: Readonly<Record<string, unknown>>): TransferMatch {
  const addressOrTxHash = single(raw, "addressOrTxHash");
  const match = classifyAddressOrTxHash((addressOrTxHash ?? "").trim());
  if (match === undefined) {
    throw invalidParameter(
      "addressOrTxHash",
      addressOrTxHash === undefined || addressOrTxHash.trim() === ""
        ? `is required and ${ADDRESS_OR_TX_HASH_RULE}`
        : `${ADDRESS_OR_TX_HASH_RULE}, got ${shown(addressOrTxHash)}`,
    );
  }
  return match;
}

/** The parameter's one value; throws when it was repeated or is not a string. */
export function single(raw: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
  if (value === undefined || typeof value === "string") return value;
  if (Array.isArray(value)) {
    throw invalidParameter(name, `must be given once, got ${value.length} values`);
  }
  throw invalidParameter(name, "must be a single string value");
}

function integerInRange(
  raw: Readonly<Record<string, unknown>>,
  name: string,
  min: number,
  max: number,
): number {
  const value = single(raw, name);
  const rule = `must be an integer from ${min} to ${max}`;
  if (value === undefined || value === "") throw invalidParameter(name, `is required and ${rule}`);
  // Digits only (no sign, fraction, exponent or spaces); the length check keeps Number() exact.
  const number = /^[0-9]{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw invalidParameter(name, `${rule}, got ${shown(value)}`);
  }
  return number;
}

/** An empty sortName / sortOrder means "not given": form builders often send `sortName=`. */
function sortField(raw: Readonly<Record<string, unknown>>): SortField {
  const value = single(raw, "sortName");
  if (value === undefined || value === "") return DEFAULT_SORT_FIELD;
  const field = Object.hasOwn(SORT_NAME_ALIASES, value) ? SORT_NAME_ALIASES[value] : undefined;
  if (field === undefined) {
    throw invalidParameter(
      "sortName",
      `must be one of ${SORT_NAMES.join(", ")}, got ${shown(value)}`,
    );
  }
  return field;
}

function sortOrder(raw: Readonly<Record<string, unknown>>): SortOrder {
  const value = single(raw, "sortOrder");
  if (value === undefined || value === "") return DEFAULT_SORT_ORDER;
  const order = value.toLowerCase();
  if (order !== "asc" && order !== "desc") {
    throw invalidParameter("sortOrder", `must be asc or desc (any case), got ${shown(value)}`);
  }
  return order;
}

/** The client's value, single-quoted (no escaping inside a JSON msg) and cut short. */
export function shown(value: string): string {
  return `'${value.length > 70 ? `${value.slice(0, 70)}...` : value}'`;
}
