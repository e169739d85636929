/**
 * Transfers for the indexer suites, made exactly as an integrator and the relayer make them,
 * returning what the contracts emitted so tests can check every record field against it.
 */
import type { Hex, TransactionReceipt } from "viem";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { createLayerZeroRelayer } from "../../src/devnet/protocols/layerzero-oft/relayer.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";
import { guidOf, sendOftFrom } from "../protocols/layerzero-oft/send-oft.js";
import {
  type BridgeParamsValue,
  bridgeAbiOf,
  bridgeFeeOf,
  type ChainConnection,
  readBridge,
  relay,
  sendBridge,
  type TransferSentValue,
} from "../setup/anvil.js";
import { mine } from "./chain-control.js";

export interface MadeTransfer {
  kind: BridgeKind;
  source: ChainConnection;
  dest: ChainConnection;
  sent: TransferSentValue;
  receipt: TransactionReceipt;
}

const TOKEN_OF_KIND: Record<BridgeKind, string> = { 0: "DAI", 1: "USDC", 2: "USDC" };

/**
 * Sends `units` whole tokens of the kind's bridge token from `source` to `dest`, no source swap.
 * `failing`: asks for a destination swap into WETH with an impossible minimum, so the delivery
 * emits TransferFailed.
 */
export async function sendTransfer(
  manifest: DevnetManifest,
  source: ChainConnection,
  dest: ChainConnection,
  kind: BridgeKind,
  units: bigint,
  options: { userIndex?: number; recipientIndex?: number; failing?: boolean } = {},
): Promise<MadeTransfer> {
  const symbol = TOKEN_OF_KIND[kind];
  const decimals = source.chain.tokens.find((t) => t.symbol === symbol)!.decimals;
  const amount = units * 10n ** BigInt(decimals);
  const sourceToken = source.token(symbol);
  const config = await readBridge<readonly [bigint, bigint, bigint, bigint]>(
    manifest,
    source,
    kind,
    "tokenConfig",
    [sourceToken],
  );
  const destChainId = BigInt(dest.chain.bridgeChainIds[`${kind}`]);
  const xproto =
    kind === 2 ? await readBridge<bigint>(manifest, source, kind, "xprotoFee", [destChainId]) : 0n;
  const fee = bridgeFeeOf(config, amount) + xproto;
  const failing = options.failing === true;
  const params: BridgeParamsValue = {
    destChainId,
    sourceToken,
    destToken: failing ? dest.token("WETH") : dest.token(symbol),
    amount,
    fee,
    to: manifest.accounts[options.recipientIndex ?? 1]!.address,
    sourceSwap: false,
    sourceSwapFee: 0n,
    sourceBridgeToken: sourceToken,
    sourceMinAmount: amount,
    destSwap: failing,
    destSwapFee: 0n,
    destBridgeToken: dest.token(symbol),
    destMinAmount: failing ? 10n ** 40n : amount - fee,
  };
  const user = manifest.accounts[options.userIndex ?? 0]!;
  const { receipt, sent } = await sendBridge(manifest, source, user, kind, params);
  return { kind, source, dest, sent, receipt };
}

export async function deliver(
  manifest: DevnetManifest,
  t: MadeTransfer,
): Promise<TransactionReceipt> {
  const receipt = await relay(manifest, t.source, t.dest, t.kind, t.receipt, t.sent);
  if (receipt.status !== "success") throw new Error("delivery reverted");
  return receipt;
}

export async function refund(
  manifest: DevnetManifest,
  t: MadeTransfer,
): Promise<TransactionReceipt> {
  const wallet = t.source.wallet(manifest.relayer);
  const hash = await wallet.writeContract({
    address: t.source.chain.bridges[`${t.kind}`],
    abi: bridgeAbiOf(manifest, t.kind),
    functionName: "refund",
    args: [t.sent.messageId as Hex],
  } as never);
  return t.source.client.waitForTransactionReceipt({ hash });
}

/**
 * New work for round `round` of the kill loops: a transfer each way (kind and users vary with
 * the round), one of them delivered, then 12 blocks per chain (about 6 two-block batches each).
 */
export async function addRoundOfWork(
  manifest: DevnetManifest,
  alpha: ChainConnection,
  beta: ChainConnection,
  round: number,
): Promise<void> {
  const out = await sendTransfer(manifest, alpha, beta, (round % 3) as BridgeKind, 10n, {
    userIndex: round % 8,
  });
  const back = await sendTransfer(manifest, beta, alpha, 1, 20n, {
    userIndex: (round + 3) % 8,
  });
  await deliver(manifest, round % 2 === 0 ? out : back);
  // An OFT send through LayerZero's real contracts; every other round the devnet's DVN and
  // executor deliver what is pending (a relayer decides from chain state alone).
  await sendOmni(manifest, round % 2 === 0 ? alpha : beta, round % 2 === 0 ? beta : alpha, round);
  if (round % 2 === 1) await deliverOftPackets(manifest);
  await mine(alpha, 12);
  await mine(beta, 12);
}

/** An OMNI send (LayerZero OFT) of a few tokens from `source` to `dest`; returns its guid. */
export async function sendOmni(
  manifest: DevnetManifest,
  source: ChainConnection,
  dest: ChainConnection,
  round: number,
): Promise<Hex> {
  const mesh = manifest.layerzero?.meshes.find((m) => m.symbol === "OMNI");
  const on = (c: ChainConnection) => {
    const found = mesh?.deployments.find((d) => d.chainId === c.chain.chainId);
    if (found === undefined) throw new Error(`no OMNI on ${c.chain.name}`);
    return found;
  };
  const user = manifest.accounts[(round + 5) % 8]!;
  const amount = BigInt(round + 1) * 10n ** 18n + 123n; // with dust
  const sent = await sendOftFrom(source, on(source), on(dest), user, user.address, amount);
  return guidOf(sent.receipt);
}

/** Delivers every pending LayerZero packet of the devnet once (DVN + executor). */
export async function deliverOftPackets(manifest: DevnetManifest): Promise<void> {
  if (manifest.layerzero === undefined) throw new Error("the devnet runs no LayerZero");
  const relayer = createLayerZeroRelayer({
    layerzero: manifest.layerzero,
    chains: manifest.chains,
    retryDelayMs: 0,
  });
  try {
    await relayer.poll();
  } finally {
    await relayer.stop();
  }
}
