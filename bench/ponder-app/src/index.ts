/**
 * The Ponder baseline's handlers: our derivation of the reference protocol
 * (src/store/derive-transfers-sql.ts) restated for Ponder, one event at a time. A send makes the
 * record (Processing); a delivery at the send's destination contract makes it Success, a failure
 * there or a refund at the send's own contract Failed. The first of each kind counts, a delivery
 * wins over a failure, a failure's transaction and time over a refund's. Amounts are cut at the
 * token's decimals as decimal text, times are UTC "YYYY-MM-DD HH:MM:SS", addresses EIP-55,
 * hashes lowercase. Token symbols and decimals are read from the chain once per token and kept
 * in memory (a send on one chain names tokens on another, which Ponder's per-chain client
 * cannot read, so a plain viem client per chain does).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Context, ponder } from "ponder:registry";
import { pendingOutcome, transfer } from "ponder:schema";
import { createPublicClient, getAddress, http, parseAbi } from "viem";

interface BenchApp {
  chains: { chainId: number; name: string; rpcUrl: string; nativeSymbol: string }[];
  bridges: { chainId: number; kind: number; address: string; bridgeChainId: string }[];
}

const app = JSON.parse(readFileSync(join(process.cwd(), "bench-app.json"), "utf8")) as BenchApp;
const chainById = new Map(app.chains.map((c) => [c.chainId, c]));
const chainIdByName = new Map(app.chains.map((c) => [c.name, c.chainId]));
const bridgeAt = new Map(app.bridges.map((b) => [`${b.chainId}:${b.address.toLowerCase()}`, b]));
/** A kind's contract by the chain id its scheme gives the destination. */
const bridgeOfScheme = new Map(app.bridges.map((b) => [`${b.kind}:${BigInt(b.bridgeChainId)}`, b]));

const ZERO = "0x0000000000000000000000000000000000000000";
const ERC20 = parseAbi([
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
]);
const clients = new Map(
  app.chains.map((c) => [c.chainId, createPublicClient({ transport: http(c.rpcUrl) })]),
);
const tokens = new Map<string, Promise<{ symbol: string; decimals: number }>>();

function tokenOf(chainId: number | undefined, address: string) {
  if (chainId === undefined) return Promise.resolve({ symbol: "", decimals: 0 });
  if (address.toLowerCase() === ZERO) {
    return Promise.resolve({ symbol: chainById.get(chainId)?.nativeSymbol ?? "", decimals: 18 });
  }
  const key = `${chainId}:${address.toLowerCase()}`;
  let token = tokens.get(key);
  if (token === undefined) {
    const client = clients.get(chainId)!;
    const read = { address: address as `0x${string}`, abi: ERC20 } as const;
    token = Promise.all([
      client.readContract({ ...read, functionName: "symbol" }),
      client.readContract({ ...read, functionName: "decimals" }),
    ]).then(([symbol, decimals]) => ({ symbol, decimals: Number(decimals) }));
    tokens.set(key, token);
  }
  return token;
}

/** Base units as decimal text cut at `decimals` (src/amount.ts formatBaseUnitDigits). */
function units(value: bigint | string, decimals: number): string {
  const whole = BigInt(value).toString();
  if (decimals === 0) return whole;
  const padded = whole.length > decimals ? whole : whole.padStart(decimals + 1, "0");
  const point = padded.length - decimals;
  const fraction = padded.slice(point).replace(/0+$/, "");
  return fraction === "" ? padded.slice(0, point) : `${padded.slice(0, point)}.${fraction}`;
}

const utc = (seconds: bigint) =>
  new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace("T", " ");

type Record = typeof transfer.$inferSelect;
type Role = "delivered" | "failed" | "refunded";
interface Outcome {
  chainId: number;
  address: string;
  tx: string;
  time: bigint;
  units?: string;
}

/** The changes an outcome makes to a record, or undefined when it changes nothing. */
function applyOutcome(record: Record, role: Role, o: Outcome): Partial<Record> | undefined {
  const at = (chainName: string, contract: string) =>
    o.chainId === chainIdByName.get(chainName) && o.address === contract.toLowerCase();
  if (role === "refunded") {
    if (!at(record.source_chain_name, record.source_contract)) return undefined;
    if (record.status !== "Processing") return undefined;
    return { status: "Failed", end_time: utc(o.time), receive_amount: "0" };
  }
  if (!at(record.dest_chain_name, record.dest_contract)) return undefined;
  if (record.status === "Success") return undefined;
  if (role === "delivered") {
    return {
      status: "Success",
      dest_tx_hash: o.tx,
      end_time: utc(o.time),
      receive_amount: units(o.units!, record.dest_token_decimals),
    };
  }
  if (record.status === "Failed" && record.dest_tx_hash !== "") return undefined;
  return { status: "Failed", dest_tx_hash: o.tx, end_time: utc(o.time), receive_amount: "0" };
}

ponder.on("Bridge:TransferSent", async ({ event, context }) => {
  const chainId = context.network.chainId;
  const a = event.args;
  const messageId = a.messageId.toLowerCase();
  const here = bridgeAt.get(`${chainId}:${event.log.address.toLowerCase()}`)!;
  const dest = bridgeOfScheme.get(`${here.kind}:${a.destChainId}`);
  const destChainId = dest?.chainId;
  const [st, sbt, dt, dbt] = await Promise.all([
    tokenOf(chainId, a.sourceToken),
    tokenOf(chainId, a.sourceBridgeToken),
    tokenOf(destChainId, a.destToken),
    tokenOf(destChainId, a.destBridgeToken),
  ]);
  let record: Record = {
    message_id: messageId,
    source_contract: getAddress(event.log.address),
    dest_contract: dest === undefined ? "" : getAddress(dest.address),
    source_tx_hash: event.transaction.hash.toLowerCase(),
    dest_tx_hash: "",
    from_address: a.sender,
    to_address: a.recipient,
    send_amount: units(a.sendAmount, st.decimals),
    min_receive_amount: units(a.minReceiveAmount, dt.decimals),
    receive_amount: "",
    source_chain_name: chainById.get(chainId)?.name ?? "",
    dest_chain_name: destChainId === undefined ? "" : (chainById.get(destChainId)?.name ?? ""),
    source_token_address: a.sourceToken,
    source_token_decimals: st.decimals,
    source_token_symbol: st.symbol,
    dest_token_address: a.destToken,
    dest_token_decimals: dt.decimals,
    dest_token_symbol: dt.symbol,
    dest_bridge_token: a.destBridgeToken,
    dest_bridge_token_decimals: dbt.decimals,
    dest_bridge_token_amount: units(a.destBridgeAmount, dbt.decimals),
    fee_address: a.sourceBridgeToken,
    fee_decimals: sbt.decimals,
    fee_symbol: sbt.symbol,
    xproto_fee: units(a.xprotoFee, sbt.decimals),
    bridge_fee: units(a.bridgeFee, sbt.decimals),
    status: "Processing",
    subsidy_amount: units(a.subsidy, dbt.decimals),
    start_time: utc(event.block.timestamp),
    end_time: "",
    protocol: "reference",
    xproto_fee_address: a.sourceBridgeToken,
    xproto_fee_decimals: sbt.decimals,
    xproto_fee_symbol: sbt.symbol,
  };
  // Outcomes Ponder processed before this send, in the order the derivation ranks them.
  const pending = await context.db.find(pendingOutcome, { message_id: messageId });
  if (pending !== null) {
    for (const role of ["delivered", "failed", "refunded"] as const) {
      const tx = pending[`${role}_tx`];
      if (tx === null) continue;
      const changes = applyOutcome(record, role, {
        chainId: pending[`${role}_chain`]!,
        address: pending[`${role}_address`]!,
        tx,
        time: pending[`${role}_time`]!,
        units: pending.delivered_units ?? undefined,
      });
      if (changes !== undefined) record = { ...record, ...changes };
    }
  }
  await context.db.insert(transfer).values(record).onConflictDoNothing();
});

async function onOutcome(role: Role, messageId: string, o: Outcome, db: Context["db"]) {
  const record = await db.find(transfer, { message_id: messageId });
  if (record !== null) {
    const changes = applyOutcome(record, role, o);
    if (changes !== undefined) await db.update(transfer, { message_id: messageId }).set(changes);
    return;
  }
  const fields = {
    [`${role}_chain`]: o.chainId,
    [`${role}_address`]: o.address,
    [`${role}_tx`]: o.tx,
    [`${role}_time`]: o.time,
    ...(role === "delivered" ? { delivered_units: o.units } : {}),
  };
  await db
    .insert(pendingOutcome)
    .values({ message_id: messageId, ...fields })
    .onConflictDoUpdate((row) => (row[`${role}_tx`] === null ? fields : {}));
}

const outcomeOf = (
  event: { log: { address: string }; transaction: { hash: string }; block: { timestamp: bigint } },
  chainId: number,
  receiveAmount?: bigint,
): Outcome => ({
  chainId,
  address: event.log.address.toLowerCase(),
  tx: event.transaction.hash.toLowerCase(),
  time: event.block.timestamp,
  ...(receiveAmount === undefined ? {} : { units: receiveAmount.toString() }),
});

ponder.on("Bridge:TransferDelivered", async ({ event, context }) => {
  const o = outcomeOf(event, context.network.chainId, event.args.receiveAmount);
  await onOutcome("delivered", event.args.messageId.toLowerCase(), o, context.db);
});

ponder.on("Bridge:TransferFailed", async ({ event, context }) => {
  const o = outcomeOf(event, context.network.chainId);
  await onOutcome("failed", event.args.messageId.toLowerCase(), o, context.db);
});

ponder.on("Bridge:TransferRefunded", async ({ event, context }) => {
  const o = outcomeOf(event, context.network.chainId);
  await onOutcome("refunded", event.args.messageId.toLowerCase(), o, context.db);
});
