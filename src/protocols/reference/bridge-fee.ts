/**
 * Bridge fees as the contracts charge them (docs/protocol.md step 4), in base units of the source
 * bridge token.
 */

/** A token's fee settings on a reference bridge (the router's TokenConfig carries them). */
export interface BridgeFeeConfig {
  flatFee: bigint;
  feeBps: bigint;
}

/** bridgeFee(x) = flatFee + x * feeBps / 10000, floor. */
export function bridgeFee(bridgeAmount: bigint, config: BridgeFeeConfig): bigint {
  return config.flatFee + (bridgeAmount * config.feeBps) / 10000n;
}

/**
 * The quoted total fee: bridgeFee(bridgeAmount) + xprotoFee (0n for kinds 0 and 1). Quoting on
 * the EXPECTED bridgeAmount makes it >= the contract's requirement bridgeFee(sourceMinAmount) +
 * xprotoFee (sourceMinAmount <= expected, the fee is monotone), and the contract never charges
 * more than the quoted fee.
 */
export function totalFee(bridgeAmount: bigint, config: BridgeFeeConfig, xprotoFee: bigint): bigint {
  return bridgeFee(bridgeAmount, config) + xprotoFee;
}
