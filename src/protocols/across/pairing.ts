/**
 * Across' pairing and fee rules, pure.
 *
 * message_id: a deposit is identified on Across by (origin chain id, deposit id): the SpokePool
 * of the origin chain numbers its deposits, and a fill on the destination names both
 * (`FilledRelay.originChainId`, `.depositId`). Our message id is
 * `keccak256(abi.encode(uint256 originChainId, uint256 depositId))`, lowercase: the deposit and
 * its fill compute the same key from their own events, the legacy V3 events (uint32 deposit ids)
 * the same one as the current events. Across' own relay hash (`getV3RelayHash`) is not used: it
 * covers every relay field, so a fill with an updated recipient or output would not match.
 */
import { encodeAbiParameters, type Hex, keccak256 } from "viem";

export function acrossMessageId(originChainId: bigint | string, depositId: bigint | string): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }],
      [BigInt(originChainId), BigInt(depositId)],
    ),
  ).toLowerCase() as Hex;
}

/**
 * What the depositor pays the relayer: input minus output amount, in the input token's base
 * units (the record's fee token). Input and output tokens may differ in decimals (USDC 6 on
 * most chains, 18 on BNB Chain): the output is first brought to the input's decimals (rounded
 * down when it has more). An output worth more than the input (a subsidised deposit) is no fee:
 * the difference is the subsidy, in the output token's base units.
 */
export function acrossFee(
  inputAmount: bigint,
  outputAmount: bigint,
  inputDecimals: number,
  outputDecimals: number,
): { bridgeFee: bigint; subsidy: bigint } {
  const outputInInput = rescale(outputAmount, outputDecimals, inputDecimals);
  if (outputInInput <= inputAmount) return { bridgeFee: inputAmount - outputInInput, subsidy: 0n };
  const inputInOutput = rescale(inputAmount, inputDecimals, outputDecimals);
  return { bridgeFee: 0n, subsidy: outputAmount - inputInOutput };
}

function rescale(amount: bigint, from: number, to: number): bigint {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < 0) {
    throw new Error(`token decimals must be non-negative integers: ${from}, ${to}`);
  }
  if (from === to) return amount;
  return from < to ? amount * 10n ** BigInt(to - from) : amount / 10n ** BigInt(from - to);
}

/**
 * A bytes32 address field of the current events as an EVM address; undefined when its upper 12
 * bytes are not zero (a non-EVM address, e.g. a Solana account: not a chain this service knows).
 */
export function bytes32ToAddress(value: Hex): Hex | undefined {
  const hex = value.toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(hex) || !hex.startsWith("0x000000000000000000000000")) {
    return undefined;
  }
  return `0x${hex.slice(26)}` as Hex;
}
