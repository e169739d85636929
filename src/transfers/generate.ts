/**
 * Realistic synthetic bridge transactions for demos and benchmarks, deterministic from a seed.
 *
 * Invariants of every generated record (tested): it passes parseTransferRecord unchanged (it is
 * already canonical: EIP-55 addresses, lowercase hashes, canonical amounts); message ids and
 * transaction hashes are unique within one run; start_time never decreases from one record to the
 * next; Processing records have no dest_tx_hash, receive_amount or end_time.
 *
 * Records are produced one at a time by an iterator, so a run of any size uses constant memory
 * apart from the address pool's checksum cache.
 */
import { convertDecimals, formatAmount } from "../amount.js";
import type { BridgeTransaction, TransferStatus } from "../domain/bridge-transaction.js";
import { createPrng, mix32, type Prng } from "./prng.js";
import {
  type CatalogChain,
  type CatalogToken,
  createSyntheticCatalog,
  derivedEvmAddress,
  FAMILY_BRIDGE_SYMBOL,
  FAMILY_USD_PRICE,
  FAMILY_WEIGHTS,
  type TokenFamily,
} from "./synthetic-catalog.js";

export interface GenerateTransfersOptions {
  count: number;
  /** Default 1. The same seed and options always give the same records. */
  seed?: number;
  /** Addresses that take part in a large share of all transfers. Default 2. */
  hotAddresses?: number;
  /** Share of records (0..1) that involve one of the hot addresses. Default 0.25. */
  hotShare?: number;
  /** Unix seconds of the first start_time. Default 2025-01-01 00:00:00 UTC. */
  startTime?: number;
  /** Mean seconds between consecutive start_times. Default 30. */
  meanSpacingSeconds?: number;
}

export interface TransferGenerator {
  /** The hot addresses (EIP-55), hottest share split evenly among them. */
  readonly hotAddresses: readonly string[];
  /** Yields `count` records in start_time order. Each call starts again from the seed. */
  records(): Generator<BridgeTransaction>;
}

export const GENERATE_DEFAULTS = {
  seed: 1,
  hotAddresses: 2,
  hotShare: 0.25,
  startTime: Date.UTC(2025, 0, 1) / 1000,
  meanSpacingSeconds: 30,
} as const;

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** Offsets that keep the unique first word of each id kind in its own range (count < 2^30). */
const ID_KIND = { message: 0, sourceTx: 1 << 30, destTx: 2 ** 31 } as const;

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));

/**
 * Returns a formatter of Unix seconds as "YYYY-MM-DD HH:MM:SS" UTC. It runs four times per
 * generated record, so the date part is cached per day (times mostly increase) and the clock part
 * is built from a table.
 */
export function createTimeFormatter(): (unixSeconds: number) => string {
  let cachedDay = Number.NaN;
  let cachedDayText = "";
  return (unixSeconds) => {
    const day = Math.floor(unixSeconds / 86400);
    if (day !== cachedDay) {
      cachedDay = day;
      cachedDayText = new Date(day * 86400_000).toISOString().slice(0, 11).replace("T", " ");
    }
    const second = unixSeconds - day * 86400;
    const hh = Math.floor(second / 3600);
    const mm = Math.floor((second % 3600) / 60);
    return `${cachedDayText}${TWO_DIGITS[hh]}:${TWO_DIGITS[mm]}:${TWO_DIGITS[second % 60]}`;
  };
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
function hex8(value: number): string {
  return (
    (HEX_BYTE[value >>> 24] as string) +
    HEX_BYTE[(value >>> 16) & 255] +
    HEX_BYTE[(value >>> 8) & 255] +
    HEX_BYTE[value & 255]
  );
}

export function createTransferGenerator(options: GenerateTransfersOptions): TransferGenerator {
  const seed = options.seed ?? GENERATE_DEFAULTS.seed;
  const hotCount = options.hotAddresses ?? GENERATE_DEFAULTS.hotAddresses;
  const hotShare = hotCount === 0 ? 0 : (options.hotShare ?? GENERATE_DEFAULTS.hotShare);
  const startTime = options.startTime ?? GENERATE_DEFAULTS.startTime;
  const spacing = options.meanSpacingSeconds ?? GENERATE_DEFAULTS.meanSpacingSeconds;
  const { count } = options;
  if (!Number.isInteger(count) || count < 0 || count >= 2 ** 30) {
    throw new RangeError("count must be an integer from 0 to 2^30 - 1");
  }
  if (!(hotShare >= 0 && hotShare <= 1)) throw new RangeError("hotShare must be from 0 to 1");

  const catalog = createSyntheticCatalog();
  const formatTime = createTimeFormatter();
  const hotAddresses = Array.from({ length: hotCount }, (_, i) =>
    derivedEvmAddress(`hot:${seed}:${i}`),
  );
  // Ordinary users: a pool a quarter the size of the run, drawn with a skew so that some
  // addresses recur often and most rarely.
  const poolSize = Math.max(64, Math.floor(count / 4));
  const seedMix = mix32(seed);
  const evmPoolCache = new Map<number, string>();
  const poolEvmAddress = (index: number): string => {
    let address = evmPoolCache.get(index);
    if (address === undefined) {
      address = derivedEvmAddress(`user:${seed}:${index}`);
      evmPoolCache.set(index, address);
    }
    return address;
  };
  const poolBase58Address = (index: number): string => {
    let out = "";
    for (let k = 0; out.length < 44; k++) {
      let word = mix32(seedMix ^ mix32(index * 8 + k));
      for (let j = 0; j < 5 && out.length < 44; j++) {
        out += BASE58[word % 58];
        word = Math.floor(word / 58);
      }
    }
    return out;
  };

  function records(): Generator<BridgeTransaction> {
    return generateRecords();
  }

  function* generateRecords(): Generator<BridgeTransaction> {
    const prng = createPrng(seed);
    let time = startTime;
    // The newest transfers are the ones still in flight.
    const recentFrom = count - Math.min(500, Math.ceil(count / 100));
    for (let index = 0; index < count; index++) {
      time += Math.floor(-Math.log(1 - prng.float()) * spacing);
      yield makeRecord(prng, index, time, index >= recentFrom);
    }
  }

  /** A unique 32-byte hex id: the first word is a bijection of (kind, index), the rest random. */
  function uniqueHex(prng: Prng, kind: number, index: number): string {
    let out = `0x${hex8(mix32((kind + index) ^ seedMix))}`;
    for (let i = 0; i < 7; i++) out += hex8(prng.u32());
    return out;
  }

  /** A unique 88-character base58 signature, for transactions on the non-EVM chain. */
  function uniqueBase58(prng: Prng, kind: number, index: number): string {
    let unique = mix32((kind + index) ^ seedMix);
    let out = "";
    // 6 base58 digits cover all 2^32 values, so this prefix alone is unique.
    for (let j = 0; j < 6; j++) {
      out += BASE58[unique % 58];
      unique = Math.floor(unique / 58);
    }
    while (out.length < 88) out += BASE58[prng.int(58)];
    return out;
  }

  function userAddress(prng: Prng, chain: CatalogChain): string {
    // u^1.5: the busiest ordinary address gets about poolSize^(-2/3) of all picks, far below
    // the hot addresses' share.
    const u = prng.float();
    const index = Math.floor(poolSize * u * Math.sqrt(u));
    return chain.evm ? poolEvmAddress(index) : poolBase58Address(index);
  }

  function pickChain(prng: Prng, family: TokenFamily, other?: CatalogChain): CatalogChain {
    const candidates = catalog.filter(
      (chain) => chain !== other && chain.tokens.some((t) => t.family === family),
    );
    return prng.weighted(candidates);
  }

  function pickToken(prng: Prng, chain: CatalogChain, family: TokenFamily): CatalogToken {
    return prng.pick(chain.tokens.filter((t) => t.family === family));
  }

  function bridgeToken(chain: CatalogChain, family: TokenFamily): CatalogToken {
    const symbols = FAMILY_BRIDGE_SYMBOL[family];
    const token =
      chain.tokens.find((t) => symbols.includes(t.symbol)) ??
      chain.tokens.find((t) => t.family === family);
    if (token === undefined) throw new Error(`no ${family} token on ${chain.name}`);
    return token;
  }

  /** A human-looking amount worth `usd`, rounded to a few significant decimals. */
  function amountFor(usd: number, family: TokenFamily, decimals: number): bigint {
    const shown = Math.min(decimals, family === "USD" ? 2 : family === "ETH" ? 4 : 6);
    const units = Math.max(1, Math.round((usd / FAMILY_USD_PRICE[family]) * 10 ** shown));
    return BigInt(units) * 10n ** BigInt(decimals - shown);
  }

  function status(prng: Prng, recent: boolean): TransferStatus {
    if (recent) return prng.chance(0.6) ? "Processing" : "Success";
    const r = prng.float();
    return r < 0.003 ? "Processing" : r < 0.028 ? "Failed" : "Success";
  }

  function makeRecord(prng: Prng, index: number, time: number, recent: boolean): BridgeTransaction {
    const family = prng.weighted(FAMILY_WEIGHTS).family;
    const source = pickChain(prng, family);
    const dest = pickChain(prng, family, source);
    const sourceToken = pickToken(prng, source, family);
    const destBridge = bridgeToken(dest, family);
    // Most transfers keep the token; some swap to another token of the family on arrival.
    const destToken = prng.chance(0.8)
      ? (dest.tokens.find((t) => t.symbol === sourceToken.symbol) ?? destBridge)
      : pickToken(prng, dest, family);
    const kind = prng.weighted([
      { kind: 0, weight: 3 },
      { kind: 1, weight: 5 },
      { kind: 2, weight: 2 },
    ]).kind;

    let from = userAddress(prng, source);
    let to = prng.chance(0.6) && source.evm === dest.evm ? from : userAddress(prng, dest);
    if (hotAddresses.length > 0 && prng.chance(hotShare)) {
      const hot = hotAddresses[prng.int(hotAddresses.length)] as string;
      // Hot addresses are EVM accounts; on the non-EVM side they keep the pool address.
      const role = prng.float();
      if (role < 0.7 && source.evm) {
        from = hot;
        if (dest.evm && prng.chance(0.6)) to = hot;
      } else if (dest.evm) {
        to = hot;
      } else if (source.evm) {
        from = hot;
      }
    }

    // Log-uniform value between $5 and $250,000.
    const usd = 5 * Math.exp(prng.float() * Math.log(50_000));
    const send = amountFor(usd, family, sourceToken.decimals);
    const bridgeFee = send / 2000n; // 5 bps
    const xprotoFee = kind === 2 ? amountFor(0.2 + prng.float(), family, sourceToken.decimals) : 0n;
    const subsidised = prng.chance(0.05);
    const afterFees = send - bridgeFee - xprotoFee > 0n ? send - bridgeFee - xprotoFee : send;
    const swapped = sourceToken.symbol !== destBridge.symbol;
    const bridged = convertDecimals(
      swapped ? (afterFees * 997n) / 1000n : afterFees,
      sourceToken.decimals,
      destBridge.decimals,
    );
    const bridgeAmount = bridged > 0n ? bridged : 1n;
    // Paid to the recipient with the delivery, in the destination bridge token (IBridge.sol).
    const subsidy = subsidised ? bridgeAmount / 4000n : 0n;
    const expected = convertDecimals(
      destToken.symbol !== destBridge.symbol ? (bridgeAmount * 997n) / 1000n : bridgeAmount,
      destBridge.decimals,
      destToken.decimals,
    );
    const minReceive = (expected * 995n) / 1000n > 0n ? (expected * 995n) / 1000n : 1n;

    const state = status(prng, recent);
    const createdAt = time + 5 + prng.int(55);
    const endTime = time + 60 + prng.int(1740);
    let receive = "";
    let destTx = "";
    if (state === "Success") {
      const slack = expected > minReceive ? expected - minReceive : 0n;
      receive = formatAmount(
        minReceive + (slack * BigInt(prng.int(1001))) / 1000n,
        destToken.decimals,
      );
      destTx = dest.evm
        ? uniqueHex(prng, ID_KIND.destTx, index)
        : uniqueBase58(prng, ID_KIND.destTx, index);
    } else if (state === "Failed") {
      receive = "0";
      // A failure reported on the destination has a transaction there; a refund does not.
      if (prng.chance(0.7)) {
        destTx = dest.evm
          ? uniqueHex(prng, ID_KIND.destTx, index)
          : uniqueBase58(prng, ID_KIND.destTx, index);
      }
    }
    const final = state !== "Processing";

    return {
      message_id: uniqueHex(prng, ID_KIND.message, index),
      source_contract: source.bridges[kind] as string,
      dest_contract: dest.bridges[kind] as string,
      source_tx_hash: source.evm
        ? uniqueHex(prng, ID_KIND.sourceTx, index)
        : uniqueBase58(prng, ID_KIND.sourceTx, index),
      dest_tx_hash: destTx,
      from_address: from,
      to_address: to,
      send_amount: formatAmount(send, sourceToken.decimals),
      min_receive_amount: formatAmount(minReceive, destToken.decimals),
      receive_amount: receive,
      source_chain_name: source.name,
      dest_chain_name: dest.name,
      source_token_address: sourceToken.address,
      source_token_decimals: sourceToken.decimals,
      source_token_symbol: sourceToken.symbol,
      dest_token_address: destToken.address,
      dest_token_decimals: destToken.decimals,
      dest_token_symbol: destToken.symbol,
      dest_bridge_token: destBridge.address,
      dest_bridge_token_decimals: destBridge.decimals,
      dest_bridge_token_amount: formatAmount(bridgeAmount, destBridge.decimals),
      fee_address: sourceToken.address,
      fee_decimals: sourceToken.decimals,
      fee_symbol: sourceToken.symbol,
      xproto_fee: formatAmount(xprotoFee, sourceToken.decimals),
      bridge_fee: formatAmount(bridgeFee, sourceToken.decimals),
      status: state,
      subsidy_amount: formatAmount(subsidy, destBridge.decimals),
      start_time: formatTime(time),
      end_time: final ? formatTime(endTime) : "",
      created_at: formatTime(createdAt),
      updated_at: formatTime(final ? endTime + 5 + prng.int(25) : createdAt),
      protocol: "reference",
      xproto_fee_address: sourceToken.address,
      xproto_fee_decimals: sourceToken.decimals,
      xproto_fee_symbol: sourceToken.symbol,
    };
  }

  return { hotAddresses, records };
}
