/**
 * The setup the bridge contract suites share (contracts-lockmint, contracts-pool,
 * contracts-messaging .test.ts): a fresh devnet, a connection to each chain, the suite's own
 * sender and recipient accounts (so the suites could share one devnet without meeting), the
 * bridge's tokenConfig for the suite's token, and direct params (no swap on either side) with
 * the fee exactly as the router quotes it.
 */
import type { DevnetManifest, ManifestAccount } from "../../src/devnet/manifest.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";
import {
  type BridgeParamsValue,
  bridgeFeeOf,
  type ChainConnection,
  connectChain,
  readBridge,
  setupDevnet,
  type TestDevnet,
} from "../setup/anvil.js";

/** tokenConfig: fee in basis points, flat fee, minimum and cap, in the token's base units. */
export type TokenConfig = readonly [bigint, bigint, bigint, bigint];

export interface BridgeSuite {
  devnet: TestDevnet;
  manifest: DevnetManifest;
  alpha: ChainConnection;
  beta: ChainConnection;
  gamma: ChainConnection;
  user: ManifestAccount;
  recipient: ManifestAccount;
  /** The bridge's tokenConfig for the suite's token on alpha. */
  config: TokenConfig;
  /**
   * `amount` of the suite's token from `from` to `to`, to the recipient, without swaps; the fee
   * is the bridge fee plus `extraFee` (kind 2's messaging fee), the minimum out what is left.
   */
  directParams(
    from: ChainConnection,
    to: ChainConnection,
    amount: bigint,
    extraFee?: bigint,
  ): BridgeParamsValue;
}

export interface BridgeSuiteParameters {
  kind: BridgeKind;
  token: string;
  /** Indexes into the manifest's accounts. */
  userAccount: number;
  recipientAccount: number;
}

export async function setupBridgeSuite(parameters: BridgeSuiteParameters): Promise<BridgeSuite> {
  const { kind, token } = parameters;
  const devnet = await setupDevnet();
  try {
    const { manifest } = devnet;
    const alpha = connectChain(manifest, "alpha");
    const recipient = manifest.accounts[parameters.recipientAccount]!;
    const config = await readBridge<TokenConfig>(manifest, alpha, kind, "tokenConfig", [
      alpha.token(token),
    ]);
    return {
      devnet,
      manifest,
      alpha,
      beta: connectChain(manifest, "beta"),
      gamma: connectChain(manifest, "gamma"),
      user: manifest.accounts[parameters.userAccount]!,
      recipient,
      config,
      directParams(from, to, amount, extraFee = 0n) {
        const fee = bridgeFeeOf(config, amount) + extraFee;
        return {
          destChainId: BigInt(to.chain.bridgeChainIds[`${kind}`]),
          sourceToken: from.token(token),
          destToken: to.token(token),
          amount,
          fee,
          to: recipient.address,
          sourceSwap: false,
          sourceSwapFee: 0n,
          sourceBridgeToken: from.token(token),
          sourceMinAmount: amount,
          destSwap: false,
          destSwapFee: 0n,
          destBridgeToken: to.token(token),
          destMinAmount: amount - fee,
        };
      },
    };
  } catch (error) {
    await devnet.cleanup();
    throw error;
  }
}
