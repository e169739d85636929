/**
 * Validation and normalisation of one bridge transaction record in exactly the API's record
 * shape (docs/http-api.md, "The record" and API rules 1-2). Used by `bridge-oracle import`, so that
 * whatever an operator migrates from another explorer is stored in the same canonical form the API
 * returns: EIP-55 addresses, lowercase hashes, canonical decimal amounts.
 */

import { canonicalDecimal, DECIMAL_PATTERN, toBaseUnits } from "../amount.js";
import { createAddressChecksummer } from "../chain/checksum-address.js";
import {
  type BridgeTransaction,
  TRANSFER_FIELDS,
  TRANSFER_STATUSES,
  type TransferStatus,
} from "../domain/bridge-transaction.js";
import { CONTROL_CHARACTERS, MAX_NAME_LENGTH } from "../domain/record-names.js";

export type ParseTransferResult =
  | { ok: true; record: BridgeTransaction }
  /** `message` is "<field>: <rule>"; `rule` alone is the rule that failed. */
  | { ok: false; field: string; rule: string; message: string };

type Field = (typeof TRANSFER_FIELDS)[number];

const DECIMALS_FIELDS = [
  "source_token_decimals",
  "dest_token_decimals",
  "dest_bridge_token_decimals",
  "fee_decimals",
  "xproto_fee_decimals",
] as const satisfies readonly Field[];
type DecimalsField = (typeof DECIMALS_FIELDS)[number];
const NUMBER_FIELDS: ReadonlySet<string> = new Set<string>(DECIMALS_FIELDS);
const KNOWN_FIELDS: ReadonlySet<string> = new Set<string>(TRANSFER_FIELDS);

/** Largest on-chain amount: uint256. */
const MAX_BASE_UNITS = 2n ** 256n - 1n;
export const MAX_TOKEN_DECIMALS = 36;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_32_BYTES = /^0x[0-9a-fA-F]{64}$/;
/** docs/http-api.md, API rule 3: identifiers of non-EVM chains (base58, bech32, ...). */
const OTHER_ID = /^[A-Za-z0-9:_-]{1,128}$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Amount rules: which decimals field bounds its precision, and whether zero is allowed. */
interface AmountRule {
  decimalsField: DecimalsField;
  zero: "allowed" | "rejected" | ((status: TransferStatus) => boolean);
  /**
   * "" (not known yet) while Processing: "required" for what only the delivery tells
   * (docs/http-api.md, API rule 2), "allowed" for what an indexer may or may not know before it.
   */
  emptyWhileProcessing?: "required" | "allowed";
}

const AMOUNT_RULES: Partial<Record<Field, AmountRule>> = {
  send_amount: { decimalsField: "source_token_decimals", zero: "rejected" },
  min_receive_amount: { decimalsField: "dest_token_decimals", zero: "rejected" },
  // Zero only when the transfer failed (nothing was delivered).
  receive_amount: {
    decimalsField: "dest_token_decimals",
    zero: (status) => status === "Failed",
    emptyWhileProcessing: "required",
  },
  dest_bridge_token_amount: {
    decimalsField: "dest_bridge_token_decimals",
    zero: "rejected",
    emptyWhileProcessing: "allowed",
  },
  xproto_fee: { decimalsField: "xproto_fee_decimals", zero: "allowed" },
  bridge_fee: { decimalsField: "fee_decimals", zero: "allowed" },
  // Paid to the recipient on delivery in the destination bridge token (IBridge.sol), not a fee.
  subsidy_amount: { decimalsField: "dest_bridge_token_decimals", zero: "allowed" },
};

const ADDRESS_FIELDS: readonly Field[] = [
  "source_contract",
  "dest_contract",
  "from_address",
  "to_address",
  "source_token_address",
  "dest_token_address",
  "dest_bridge_token",
  "fee_address",
  "xproto_fee_address",
];
const HASH_FIELDS: readonly Field[] = ["message_id", "source_tx_hash", "dest_tx_hash"];
const NAME_FIELDS: readonly Field[] = [
  "source_chain_name",
  "dest_chain_name",
  "source_token_symbol",
  "dest_token_symbol",
  "fee_symbol",
  "xproto_fee_symbol",
];
const TIME_FIELDS: readonly Field[] = ["start_time", "end_time", "created_at", "updated_at"];
/** A protocol's name (src/protocols/index.ts): lowercase words joined by "-". */
const PROTOCOL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const ADDED_FIELDS = [
  "protocol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
] as const satisfies readonly Field[];

/**
 * The four fields added beside the specification's (decisions.md 9) may all be left out of an
 * import, as records exported before they existed are: they are then the reference protocol's,
 * with the messaging fee in the fee token. Some of them without the others is an error.
 */
function withAddedFields(value: Record<string, unknown>): Record<string, unknown> {
  if (ADDED_FIELDS.some((field) => Object.hasOwn(value, field))) return value;
  return {
    protocol: "reference",
    xproto_fee_address: value.fee_address,
    xproto_fee_decimals: value.fee_decimals,
    xproto_fee_symbol: value.fee_symbol,
    ...value,
  };
}

/**
 * getAddress computes a keccak hash (about 10 us); an import of millions of records sees the
 * same contracts, tokens and busy addresses over and over. Keyed by the lowercase form, so any
 * casing of an address is one entry (and a wrong mixed-case checksum is not an error here).
 */
const checksumLowercase = createAddressChecksummer(250_000);
const checksum = (address: string): string => checksumLowercase(address.toLowerCase());

/** A broken rule, as opposed to a normalised value. */
interface Broken {
  rule: string;
}
const broken = (rule: string): Broken => ({ rule });

/**
 * A "0x" value must be well-formed hex of the field's kind: a truncated or mistyped EVM value is
 * rejected rather than stored as an opaque non-EVM id that no query would ever match.
 */
function normaliseAddress(value: string): string | Broken {
  if (EVM_ADDRESS.test(value)) return checksum(value);
  if (/^0x/i.test(value)) return broken("must be an EVM address (0x + 40 hex digits)");
  if (OTHER_ID.test(value)) return value;
  return broken(
    "must be an EVM address (0x + 40 hex digits) or a non-EVM id of 1-128 characters from [A-Za-z0-9:_-]",
  );
}

function normaliseHash(value: string): string | Broken {
  if (HEX_32_BYTES.test(value)) return value.toLowerCase();
  if (/^0x/i.test(value)) return broken("must be a 32-byte hex hash (0x + 64 hex digits)");
  if (OTHER_ID.test(value)) return value;
  return broken(
    "must be a 32-byte hex hash (0x + 64 hex digits) or a non-EVM id of 1-128 characters from [A-Za-z0-9:_-]",
  );
}

/** True for a real UTC calendar time in "YYYY-MM-DD HH:MM:SS" (no Date: this runs per field per line). */
export function isValidTime(value: string): boolean {
  const m = TIME.exec(value);
  if (m === null) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return d <= days;
}

function fail(field: string, rule: string): ParseTransferResult {
  return { ok: false, field, rule, message: `${field}: ${rule}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Validates `value` as one record in the API's shape and returns it normalised (EIP-55
 * addresses, lowercase hashes, canonical amounts, fields in API order), or the first field that
 * breaks a rule. Fields whose values other rules depend on (status, the four decimals) are
 * checked before the fields that depend on them, so an error always names the field at fault.
 */
export function parseTransferRecord(input: unknown): ParseTransferResult {
  if (!isPlainObject(input)) return fail("record", "must be a JSON object");
  const value = withAddedFields(input);
  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) return fail(key, "is not a field of a bridge transaction record");
  }
  for (const field of TRANSFER_FIELDS) {
    if (!Object.hasOwn(value, field)) return fail(field, "is missing (every field is required)");
    const type = NUMBER_FIELDS.has(field) ? "number" : "string";
    if (typeof value[field] !== type) return fail(field, `must be a JSON ${type}`);
  }
  const record = value as Record<Field, string | number>;

  const status = record.status as string;
  if (!(TRANSFER_STATUSES as readonly string[]).includes(status)) {
    return fail("status", `must be one of ${TRANSFER_STATUSES.join(", ")}`);
  }
  for (const field of DECIMALS_FIELDS) {
    const decimals = record[field] as number;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_TOKEN_DECIMALS) {
      return fail(field, `must be an integer from 0 to ${MAX_TOKEN_DECIMALS}`);
    }
  }

  const out = {} as Record<Field, string | number>;
  for (const field of TRANSFER_FIELDS) {
    const raw = record[field];
    if (typeof raw === "number") {
      out[field] = raw;
      continue;
    }
    const result = normaliseField(field, raw, status as TransferStatus, record);
    if (typeof result !== "string") return fail(field, result.rule);
    out[field] = result;
  }
  return { ok: true, record: out as unknown as BridgeTransaction };
}

/** Returns the normalised value, or the rule it breaks. */
function normaliseField(
  field: Field,
  value: string,
  status: TransferStatus,
  record: Readonly<Record<Field, string | number>>,
): string | Broken {
  if (field === "status") return value;
  if (field === "protocol") {
    return PROTOCOL_NAME.test(value) && value.length <= 32
      ? value
      : broken('must be a protocol name such as "reference" (lowercase letters, digits and "-")');
  }
  const amountRule = AMOUNT_RULES[field];
  if (amountRule !== undefined) return normaliseAmount(value, amountRule, status, record);
  if (field === "dest_tx_hash" && value === "") {
    // Not known while Processing; a refunded failure may have no destination transaction.
    return status === "Success" ? broken("must be set when status is Success") : "";
  }
  if (field === "dest_tx_hash" && status === "Processing") {
    return broken('must be "" while status is Processing (the delivery is not known yet)');
  }
  if (HASH_FIELDS.includes(field)) return normaliseHash(value);
  if (ADDRESS_FIELDS.includes(field)) return normaliseAddress(value);
  if (NAME_FIELDS.includes(field)) {
    if (value.length === 0 || value.length > MAX_NAME_LENGTH || value.trim() !== value) {
      return broken(`must be 1-${MAX_NAME_LENGTH} characters without leading or trailing spaces`);
    }
    if (CONTROL_CHARACTERS.test(value)) return broken("must not contain control characters");
    return value;
  }
  if (TIME_FIELDS.includes(field)) {
    if (field === "end_time") {
      if (status === "Processing") {
        return value === "" ? "" : broken('must be "" while status is Processing');
      }
      if (value === "") return broken(`must be set when status is ${status}`);
    }
    if (!isValidTime(value)) return broken("must be a UTC time in the format YYYY-MM-DD HH:MM:SS");
    return value;
  }
  return broken("has no validation rule (a bug in validate.ts)");
}

function normaliseAmount(
  value: string,
  rule: AmountRule,
  status: TransferStatus,
  record: Readonly<Record<Field, string | number>>,
): string | Broken {
  const processing = status === "Processing";
  const whileProcessing = processing ? rule.emptyWhileProcessing : undefined;
  if (value === "") {
    return whileProcessing !== undefined
      ? ""
      : broken(`must be a decimal amount when status is ${status}`);
  }
  if (whileProcessing === "required") {
    return broken('must be "" while status is Processing (not known yet)');
  }
  if (!DECIMAL_PATTERN.test(value)) {
    return broken("must be a decimal string of digits with an optional fraction, such as 1.5");
  }
  const decimals = record[rule.decimalsField] as number;
  const canonical = canonicalDecimal(value);
  const dot = canonical.indexOf(".");
  const fractionDigits = dot === -1 ? 0 : canonical.length - dot - 1;
  if (fractionDigits > decimals) {
    return broken(`has ${fractionDigits} fractional digits; ${rule.decimalsField} is ${decimals}`);
  }
  // Fewer than 78 digits in base units is below 10^77 < 2^256: only long values need a bigint.
  const wholeDigits = dot === -1 ? canonical.length : dot;
  if (wholeDigits + decimals > 77 && toBaseUnits(canonical, decimals) > MAX_BASE_UNITS) {
    return broken("is larger than a uint256 amount in base units");
  }
  const zeroAllowed = typeof rule.zero === "function" ? rule.zero(status) : rule.zero === "allowed";
  if (canonical === "0" && !zeroAllowed) {
    return typeof rule.zero === "function"
      ? broken(`must be greater than zero when status is ${status}`)
      : broken("must be greater than zero");
  }
  return canonical;
}
