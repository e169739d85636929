/**
 * The indexer's records derived from its raw events in SQL: the SELECT that builds each
 * message's bridge transaction record from the stored `raw_events`, the registry (chain names,
 * bridges, each kind's chain-id scheme) and `token_metadata`. It states in SQL what
 * `deriveTransfer` (test/indexer/derive-transfer-model.ts, the specification) states in TypeScript, and
 * test/indexer/derive-sql.test.ts checks that both agree on random event histories.
 *
 * Its rows feed src/store/derive-transfers.ts, which writes them. Amounts stay decimal text end
 * to end (base-unit digits from the events' JSON, cut at the token's decimals by string
 * functions): no number type ever holds one.
 */
import { getAddress } from "viem";
import { DEFAULT_PROTOCOL } from "../domain/bridge-registry.js";
import { TRANSFER_FIELDS } from "../domain/bridge-transaction.js";
import type { Dialect } from "./derive-dialect.js";
import { isNumberField } from "./transfer-row.js";

/** The registry as the derivation needs it (structurally the indexer's RegistrySource). */
export interface DerivationRegistry {
  chains: readonly { chainId: number; name: string; nativeSymbol: string }[];
  /** Every protocol's contracts; `bridgeChainId` names the chain in its protocol's scheme. */
  bridges: readonly {
    protocol?: string;
    kind: number;
    chainId: number;
    address: string;
    bridgeChainId: string;
    /** Read for its logs only: never a send's destination (RegistryBridge.auxiliary). */
    auxiliary?: boolean;
  }[];
}

/** Fields a record takes from its outcome events; all others come from the send. */
export const OUTCOME_COLUMNS = [
  "dest_tx_hash",
  "dest_tx_key",
  "receive_amount",
  "receive_amount_key",
  "status",
  "end_time",
] as const;

/** Columns of a derived row (besides message_key), in the order the SELECT produces them. */
export const DERIVED_COLUMNS = [
  ...TRANSFER_FIELDS.filter((f) => f !== "created_at" && f !== "updated_at"),
  "source_tx_key",
  "dest_tx_key",
  "send_amount_key",
  "receive_amount_key",
] as const;

export const SEND_COLUMNS = DERIVED_COLUMNS.filter(
  (c) => !(OUTCOME_COLUMNS as readonly string[]).includes(c),
);

/** The temporary tables' columns (message_key first). */
export function derivedTableColumns(d: Dialect): string {
  return [
    `message_key ${d.text} PRIMARY KEY`,
    ...DERIVED_COLUMNS.map((c) => `${c} ${isNumberField(c) ? "INTEGER" : d.text} NOT NULL`),
  ].join(", ");
}

const registryParams = new WeakMap<DerivationRegistry, [string, string]>();

/** The registry as two JSON parameters (chains, bridges), built once per registry object. */
export function registryJson(registry: DerivationRegistry): [string, string] {
  let params = registryParams.get(registry);
  if (params === undefined) {
    params = [
      JSON.stringify(
        registry.chains.map((c) => ({
          chain_id: c.chainId,
          name: c.name,
          native_symbol: c.nativeSymbol,
        })),
      ),
      JSON.stringify(
        registry.bridges
          .filter((b) => b.auxiliary !== true)
          .map((b) => ({
            chain_id: b.chainId,
            protocol: b.protocol ?? DEFAULT_PROTOCOL,
            kind: b.kind,
            address: getAddress(b.address),
            address_key: b.address.toLowerCase(),
            // Events spell the scheme id as a canonical decimal (a uint256's digits).
            scheme_id: BigInt(b.bridgeChainId).toString(),
          })),
      ),
    ];
    registryParams.set(registry, params);
  }
  return params;
}

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

/**
 * The amounts of a record: each one's base units and its token's decimals, columns of `u`.
 * `formatBaseUnitDigits(units, decimals)` (src/amount.ts) is stated in SQL in three steps, each a
 * materialized CTE over the previous one (stripped: the digits without leading zeros; padded:
 * left-padded to decimals + 1; then cut at the point, the fraction without trailing zeros). One
 * expression nesting the steps repeats the inner ones at every use: about 40 string calls per
 * amount instead of 6, most of the derivation's time on SQLite.
 */
const AMOUNTS = {
  send: "source_token_decimals",
  min: "dest_token_decimals",
  receive: "dest_token_decimals",
  dbt: "dest_bridge_token_decimals",
  xproto: "xproto_fee_decimals",
  bridge_fee: "fee_decimals",
  subsidy: "dest_bridge_token_decimals",
} as const;
type AmountName = keyof typeof AMOUNTS;
const AMOUNT_NAMES = Object.keys(AMOUNTS) as AmountName[];

/** `stripped` and `padded` of every amount, as two CTEs over `u`. */
function amountSteps(d: Dialect): string {
  const stripped = AMOUNT_NAMES.map(
    (a) =>
      `CASE WHEN ltrim(${a}_units, '0') = '' THEN '0' ELSE ltrim(${a}_units, '0') END AS ${a}_s`,
  );
  const padded = AMOUNT_NAMES.map((a) => {
    const decimals = AMOUNTS[a];
    return (
      `CASE WHEN ${decimals} = 0 OR length(${a}_s) > ${decimals} THEN ${a}_s` +
      ` ELSE ${d.zeroPad(`${a}_s`, `${decimals} + 1`)} END AS ${a}_p`
    );
  });
  return (
    `us AS MATERIALIZED (SELECT u.*, ${stripped.join(", ")} FROM u),
` + `up AS MATERIALIZED (SELECT us.*, ${padded.join(", ")} FROM us)`
  );
}

/** The amount text and its amountSortKey (src/store/transfer-keys.ts), from `up`. */
function amount(d: Dialect, name: AmountName): { text: string; key: string } {
  const padded = `up.${name}_p`;
  const point = `(length(${padded}) - up.${AMOUNTS[name]})`;
  const whole = `substr(${padded}, 1, ${point})`;
  const fraction = `rtrim(substr(${padded}, ${point} + 1), '0')`;
  return {
    text: `${whole} || CASE WHEN ${fraction} = '' THEN '' ELSE '.' || ${fraction} END`,
    key: `${d.twoDigits(`length(${whole})`)} || ${whole} || ${fraction}`,
  };
}

/** Symbol and decimals of a token (tm: its token_metadata row, joined; native: the chain's). */
function token(chain: string, address: string, tm: string, native: string) {
  const isNative = `lower(${address}) = '${ZERO_ADDRESS}'`;
  return {
    symbol:
      `CASE WHEN ${chain} IS NULL THEN '' WHEN ${isNative} THEN COALESCE(${native}, '')` +
      ` ELSE ${tm}.symbol END`,
    decimals: `CASE WHEN ${chain} IS NULL THEN 0 WHEN ${isNative} THEN 18 ELSE ${tm}.decimals END`,
  };
}

/** The columns of raw_events the derivation reads, copied into `indexer_events`. */
export const EVENT_COLUMNS = [
  "chain_id",
  "block_number",
  "log_index",
  "block_time",
  "tx_hash",
  "address",
  "protocol",
  "kind",
  "role",
  "message_id",
  "args",
] as const;

/** `indexer_events`: the raw events of the batch's message ids (a temporary table). */
export function eventTableColumns(d: Dialect): string {
  const integer = new Set(["chain_id", "block_number", "log_index", "block_time", "kind"]);
  return EVENT_COLUMNS.map((c) => `${c} ${integer.has(c) ? "BIGINT" : d.text} NOT NULL`).join(", ");
}

/**
 * `SELECT message_key, <DERIVED_COLUMNS>` of every message id whose events are in the temporary
 * table `indexer_events` and that has a send. Parameters: the registry's chains and bridges JSON.
 * It joins only the batch's rows (and token_metadata), never a table that grows with the chain.
 * A token whose metadata is not stored yields NULL, which the NOT NULL columns it is written
 * into refuse: the batch fails loudly instead of storing a guessed symbol or decimals.
 */
export function deriveSelectSql(d: Dialect): string {
  const f = (alias: string, name: string) => d.field(`${alias}.j`, name);
  const st = token("s.chain_id", f("s", "sourceToken"), "tm_st", "sc.native_symbol");
  const sbt = token("s.chain_id", f("s", "sourceBridgeToken"), "tm_sbt", "sc.native_symbol");
  const dt = token("s.dest_chain_id", f("s", "destToken"), "tm_dt", "dc.native_symbol");
  const dbt = token("s.dest_chain_id", f("s", "destBridgeToken"), "tm_dbt", "dc.native_symbol");
  // The messaging fee's token: its own when the send names one (joined only then), else the
  // fee token's.
  const ownXproto = f("s", "xprotoFeeToken");
  const xt = token("s.chain_id", ownXproto, "tm_xt", "sc.native_symbol");
  const ifOwnXproto = (own: string, fee: string) =>
    `CASE WHEN ${ownXproto} IS NULL THEN ${fee} ELSE ${own} END`;
  // Per message: the send's and outcomes' values, the tokens' symbols and decimals.
  const values: Record<string, string> = {
    message_id: "lower(s.message_id)",
    source_contract: "s.address",
    dest_contract: "COALESCE(s.dest_contract, '')",
    source_tx_hash: "lower(s.tx_hash)",
    dest_tx_hash: "lower(COALESCE(dl.tx_hash, fl.tx_hash, ''))",
    from_address: f("s", "sender"),
    to_address: f("s", "recipient"),
    source_chain_name: "COALESCE(sc.name, '')",
    dest_chain_name: "COALESCE(dc.name, '')",
    source_token_address: f("s", "sourceToken"),
    dest_token_address: f("s", "destToken"),
    dest_bridge_token: f("s", "destBridgeToken"),
    fee_address: f("s", "sourceBridgeToken"),
    source_token_symbol: st.symbol,
    source_token_decimals: st.decimals,
    fee_symbol: sbt.symbol,
    fee_decimals: sbt.decimals,
    protocol: "s.protocol",
    xproto_fee_address: ifOwnXproto(ownXproto, f("s", "sourceBridgeToken")),
    xproto_fee_symbol: ifOwnXproto(xt.symbol, sbt.symbol),
    xproto_fee_decimals: ifOwnXproto(xt.decimals, sbt.decimals),
    dest_token_symbol: dt.symbol,
    dest_token_decimals: dt.decimals,
    dest_bridge_token_decimals: dbt.decimals,
    status:
      "CASE WHEN dl.message_id IS NOT NULL THEN 'Success'" +
      " WHEN fl.message_id IS NOT NULL OR rf.message_id IS NOT NULL OR ex.message_id IS NOT NULL" +
      " THEN 'Failed' ELSE 'Processing' END",
    start_time: d.utc("s.block_time"),
    outcome_time: "COALESCE(dl.block_time, fl.block_time, rf.block_time, ex.block_time)",
    send_units: f("s", "sendAmount"),
    min_units: f("s", "minReceiveAmount"),
    receive_units: "dl.receive_units",
    dbt_units: f("s", "destBridgeAmount"),
    xproto_units: f("s", "xprotoFee"),
    bridge_fee_units: f("s", "bridgeFee"),
    subsidy_units: f("s", "subsidy"),
  };
  const send = amount(d, "send");
  const receive = amount(d, "receive");
  const formatted: Record<string, string> = {
    send_amount: send.text,
    send_amount_key: send.key,
    min_receive_amount: amount(d, "min").text,
    // A delivery's amount; a failure or refund delivered nothing ("0"); unknown ("") while
    // Processing (decisions.md 2).
    receive_amount: `CASE WHEN up.status = 'Success' THEN ${receive.text} WHEN up.status = 'Failed' THEN '0' ELSE '' END`,
    receive_amount_key: `CASE WHEN up.status = 'Success' THEN ${receive.key} WHEN up.status = 'Failed' THEN '010' ELSE '' END`,
    dest_bridge_token_amount: amount(d, "dbt").text,
    xproto_fee: amount(d, "xproto").text,
    bridge_fee: amount(d, "bridge_fee").text,
    subsidy_amount: amount(d, "subsidy").text,
    end_time: `CASE WHEN up.outcome_time IS NULL THEN '' ELSE ${d.utc("up.outcome_time")} END`,
    source_tx_key: "up.source_tx_hash",
    dest_tx_key: "up.dest_tx_hash",
  };
  const output = DERIVED_COLUMNS.map((c) => `${formatted[c] ?? `up.${c}`} AS ${c}`);
  // Roles, never event names (src/domain/bridge-event.ts): a delivery or failure counts at the
  // send's destination contract (the one it names, else its protocol's and kind's there), a
  // refund at its own; `retrying` changes nothing.
  const outcomeMatch =
    "(o.role IN ('delivered', 'failed', 'expired') AND o.chain_id = s.dest_chain_id" +
    " AND lower(o.address) = s.dest_key) OR (o.role = 'refunded'" +
    " AND o.chain_id = s.chain_id AND lower(o.address) = lower(s.address))";
  const firstOf = (alias: string, role: string) =>
    `LEFT JOIN oc ${alias} ON ${alias}.message_id = s.message_id AND ${alias}.role = '${role}' AND ${alias}.n = 1`;
  const tokenJoin = (alias: string, chain: string, address: string) =>
    `LEFT JOIN token_metadata ${alias} ON ${alias}.chain_id = ${chain} AND ${alias}.address = lower(${address})`;

  return `WITH chains AS MATERIALIZED (${d.chainsFromJson("?")}),
bridges AS MATERIALIZED (${d.bridgesFromJson("?")}),
ev AS (SELECT r.chain_id, r.block_number, r.log_index, r.block_time, r.tx_hash, r.address,
  r.protocol, r.kind, r.role, r.message_id, ${d.json("r.args")} AS j FROM indexer_events r),
sends AS (SELECT ev.*, ROW_NUMBER() OVER (PARTITION BY ev.message_id
  ORDER BY ev.chain_id, ev.block_number, ev.log_index) AS n FROM ev WHERE ev.role = 'sent'),
s AS (SELECT sends.*, db.chain_id AS dest_chain_id, db.address AS dest_contract, db.address_key AS dest_key
  FROM sends LEFT JOIN bridges db ON db.protocol = sends.protocol
  AND db.scheme_id = ${f("sends", "destChainId")} AND (CASE WHEN ${f("sends", "destContract")} IS NULL
  THEN db.kind = sends.kind ELSE db.address_key = lower(${f("sends", "destContract")}) END)
  WHERE sends.n = 1),
oc AS (SELECT o.message_id, o.role, o.tx_hash, o.block_time, ${f("o", "receiveAmount")} AS receive_units,
  ROW_NUMBER() OVER (PARTITION BY o.message_id, o.role
  ORDER BY o.chain_id, o.block_number, o.log_index) AS n
  FROM ev o JOIN s ON s.message_id = o.message_id WHERE ${outcomeMatch}),
u AS MATERIALIZED (SELECT ${Object.entries(values)
    .map(([name, sql]) => `${sql} AS ${name}`)
    .join(",\n  ")}
  FROM s ${firstOf("dl", "delivered")} ${firstOf("fl", "failed")} ${firstOf("rf", "refunded")} ${firstOf("ex", "expired")}
  LEFT JOIN chains sc ON sc.chain_id = s.chain_id LEFT JOIN chains dc ON dc.chain_id = s.dest_chain_id
  ${tokenJoin("tm_st", "s.chain_id", f("s", "sourceToken"))} ${tokenJoin("tm_sbt", "s.chain_id", f("s", "sourceBridgeToken"))}
  ${tokenJoin("tm_dt", "s.dest_chain_id", f("s", "destToken"))} ${tokenJoin("tm_dbt", "s.dest_chain_id", f("s", "destBridgeToken"))}
  ${tokenJoin("tm_xt", "s.chain_id", ownXproto)}),
${amountSteps(d)}
SELECT up.message_id AS message_key, ${output.join(",\n  ")} FROM up`;
}
