/**
 * LayerZero V2 message options of type 3, byte for byte as OptionsBuilder (oapp-evm
 * `contracts/oapp/libs/OptionsBuilder.sol`) builds them and ExecutorOptions
 * (lz-evm-protocol-v2 `contracts/messagelib/libs/ExecutorOptions.sol`) reads them. Pure.
 *
 * options        = uint16 3 | option*
 * executor option = uint8 workerId (1) | uint16 size (option bytes + 1) | uint8 optionType | option
 * DVN option      = uint8 workerId (2) | uint16 size (option bytes + 2) | uint8 dvnIdx | uint8 optionType | option
 *
 * Executor option bodies (a zero value is left out, as encodeLzReceiveOption /
 * encodeLzComposeOption do):
 * - lzReceive (1): uint128 gas [uint128 value]
 * - nativeDrop (2): uint128 amount | bytes32 receiver
 * - lzCompose (3): uint16 index | uint128 gas [uint128 value]
 * - orderedExecution (4): empty
 */
import { concat, type Hex, numberToHex, size, slice } from "viem";

export const OPTIONS_TYPE_3 = 3;
export const EXECUTOR_WORKER_ID = 1;
export const DVN_WORKER_ID = 2;
export const OPTION_TYPE_LZRECEIVE = 1;
export const OPTION_TYPE_NATIVE_DROP = 2;
export const OPTION_TYPE_LZCOMPOSE = 3;
export const OPTION_TYPE_ORDERED_EXECUTION = 4;

const UINT128_MAX = (1n << 128n) - 1n;

export class LayerZeroOptionsError extends Error {
  override name = "LayerZeroOptionsError";
}

/** What executor options a message asks for (the parts our devnet executor honours). */
export interface ExecutorOptionsSpec {
  /** Gas (and native value) for the destination OApp's lzReceive. */
  lzReceive?: { gas: bigint; value?: bigint };
  /** Gas (and native value) for each lzCompose, by compose index (the OFT composes index 0). */
  lzCompose?: ReadonlyArray<{ index: number; gas: bigint; value?: bigint }>;
}

export interface DecodedExecutorOptions {
  lzReceive: { gas: bigint; value: bigint } | null;
  lzCompose: Array<{ index: number; gas: bigint; value: bigint }>;
  nativeDrops: Array<{ amount: bigint; receiver: Hex }>;
  orderedExecution: boolean;
}

const u128 = (value: bigint, what: string): Hex => {
  if (value < 0n || value > UINT128_MAX) {
    throw new LayerZeroOptionsError(`${what} must fit in uint128, got ${value}`);
  }
  return numberToHex(value, { size: 16 });
};

const u16 = (value: number, what: string): Hex => {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new LayerZeroOptionsError(`${what} must fit in uint16, got ${value}`);
  }
  return numberToHex(value, { size: 2 });
};

/** OptionsBuilder.addExecutorOption: appends one executor option to `options`. */
function addExecutorOption(options: Hex, optionType: number, option: Hex): Hex {
  return concat([
    options,
    numberToHex(EXECUTOR_WORKER_ID, { size: 1 }),
    u16(size(option) + 1, "option size"),
    numberToHex(optionType, { size: 1 }),
    option,
  ]);
}

/**
 * Type-3 options with the executor's lzReceive option first (when given), then one lzCompose
 * option per entry: what `OptionsBuilder.newOptions().addExecutorLzReceiveOption(gas, value)
 * .addExecutorLzComposeOption(index, gas, value)` returns. An empty spec gives "0x0003".
 */
export function buildExecutorOptions(spec: ExecutorOptionsSpec): Hex {
  let options = numberToHex(OPTIONS_TYPE_3, { size: 2 });
  if (spec.lzReceive !== undefined) {
    const { gas, value = 0n } = spec.lzReceive;
    const body =
      value === 0n
        ? u128(gas, "lzReceive gas")
        : concat([u128(gas, "lzReceive gas"), u128(value, "lzReceive value")]);
    options = addExecutorOption(options, OPTION_TYPE_LZRECEIVE, body);
  }
  for (const { index, gas, value = 0n } of spec.lzCompose ?? []) {
    const head = concat([u16(index, "compose index"), u128(gas, "lzCompose gas")]);
    const body = value === 0n ? head : concat([head, u128(value, "lzCompose value")]);
    options = addExecutorOption(options, OPTION_TYPE_LZCOMPOSE, body);
  }
  return options;
}

/**
 * The executor's part of type-3 options (DVN options are skipped); "0x" gives nothing. Several
 * lzReceive options are summed, as the executor does. Legacy types 1 and 2 are refused.
 */
export function decodeExecutorOptions(options: Hex): DecodedExecutorOptions {
  const decoded: DecodedExecutorOptions = {
    lzReceive: null,
    lzCompose: [],
    nativeDrops: [],
    orderedExecution: false,
  };
  const length = size(options);
  if (length === 0) return decoded;
  if (length < 2) throw new LayerZeroOptionsError("options shorter than their type");
  const type = Number(BigInt(slice(options, 0, 2)));
  if (type !== OPTIONS_TYPE_3) throw new LayerZeroOptionsError(`options of type ${type}, not 3`);
  const uint = (start: number, end: number): bigint => BigInt(slice(options, start, end));
  let cursor = 2;
  while (cursor < length) {
    if (cursor + 3 > length) throw new LayerZeroOptionsError(`truncated option at byte ${cursor}`);
    const worker = Number(uint(cursor, cursor + 1));
    const optionSize = Number(uint(cursor + 1, cursor + 3));
    const end = cursor + 3 + optionSize;
    if (optionSize === 0 || end > length) {
      throw new LayerZeroOptionsError(`option at byte ${cursor} runs past the end`);
    }
    if (worker === EXECUTOR_WORKER_ID) {
      const optionType = Number(uint(cursor + 3, cursor + 4));
      const start = cursor + 4;
      const bodySize = end - start;
      if (optionType === OPTION_TYPE_LZRECEIVE) {
        if (bodySize !== 16 && bodySize !== 32)
          throw new LayerZeroOptionsError("lzReceive option of 16 or 32 bytes");
        const gas = uint(start, start + 16);
        const value = bodySize === 32 ? uint(start + 16, end) : 0n;
        decoded.lzReceive = {
          gas: (decoded.lzReceive?.gas ?? 0n) + gas,
          value: (decoded.lzReceive?.value ?? 0n) + value,
        };
      } else if (optionType === OPTION_TYPE_LZCOMPOSE) {
        if (bodySize !== 18 && bodySize !== 34)
          throw new LayerZeroOptionsError("lzCompose option of 18 or 34 bytes");
        decoded.lzCompose.push({
          index: Number(uint(start, start + 2)),
          gas: uint(start + 2, start + 18),
          value: bodySize === 34 ? uint(start + 18, end) : 0n,
        });
      } else if (optionType === OPTION_TYPE_NATIVE_DROP) {
        if (bodySize !== 48) throw new LayerZeroOptionsError("nativeDrop option of 48 bytes");
        decoded.nativeDrops.push({
          amount: uint(start, start + 16),
          receiver: slice(options, start + 16, end),
        });
      } else if (optionType === OPTION_TYPE_ORDERED_EXECUTION) {
        decoded.orderedExecution = true;
      } else {
        throw new LayerZeroOptionsError(`unknown executor option type ${optionType}`);
      }
    } else if (worker !== DVN_WORKER_ID) {
      throw new LayerZeroOptionsError(`unknown worker id ${worker}`);
    }
    cursor = end;
  }
  return decoded;
}

/** Gas the options give lzCompose at `index` (several options for one index are summed); null: none. */
export function composeGasOf(options: DecodedExecutorOptions, index = 0): bigint | null {
  const matching = options.lzCompose.filter((o) => o.index === index);
  return matching.length === 0 ? null : matching.reduce((sum, o) => sum + o.gas, 0n);
}
