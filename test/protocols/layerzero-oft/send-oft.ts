/**
 * An OFT send made the way an integrator makes one: the pure quote over state read at the
 * current block (quote-math.ts, state.ts), the adapter's approval and OFT.send built by
 * transaction.ts, signed by `sender`. Shared by the LayerZero devnet suites.
 */
import assert from "node:assert/strict";
import { type Address, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import type { DevnetManifest, ManifestAccount } from "../../../src/devnet/manifest.js";
import type {
  LayerZeroManifest,
  LayerZeroManifestChain,
  LayerZeroManifestDeployment,
} from "../../../src/devnet/protocols/layerzero-oft/manifest.js";
import { devnetOftAbi, oftAbi } from "../../../src/protocols/layerzero-oft/abi.js";
import { quoteOftSend } from "../../../src/protocols/layerzero-oft/quote-math.js";
import { readOftState } from "../../../src/protocols/layerzero-oft/state.js";
import {
  buildOftApproval,
  buildOftSendTransaction,
} from "../../../src/protocols/layerzero-oft/transaction.js";
import { type ChainConnection, connectChain } from "../../setup/anvil.js";

export interface SentOft {
  receipt: TransactionReceipt;
  quote: { amountSentLD: bigint; amountReceivedLD: bigint; nativeFee: bigint };
}

export async function sendOftFrom(
  connection: ChainConnection,
  source: LayerZeroManifestDeployment,
  dest: LayerZeroManifestDeployment,
  sender: ManifestAccount,
  recipient: Address,
  amountLD: bigint,
): Promise<SentOft> {
  const state = await readOftState(connection.client, { oft: source.oft, dstEids: [dest.eid] });
  const quote = quoteOftSend(state, { dstEid: dest.eid, amountLD, minAmountLD: 0n });
  assert.ok(
    quote.ok,
    JSON.stringify(quote, (_, v) => (typeof v === "bigint" ? String(v) : v)),
  );
  const wallet = connection.wallet(sender);
  const approval = buildOftApproval({
    chainId: connection.chain.chainId,
    approvalRequired: state.approvalRequired,
    token: state.token,
    oft: source.oft,
    amountLD,
  });
  assert.equal(approval !== null, source.adapter, "an approval exactly for the adapter");
  if (approval !== null) {
    const hash = await wallet.sendTransaction({
      to: approval.transactionRequest.to,
      data: approval.transactionRequest.data,
    });
    await connection.client.waitForTransactionReceipt({ hash });
  }
  const request = buildOftSendTransaction({
    chainId: connection.chain.chainId,
    oft: source.oft,
    dstEid: dest.eid,
    to: recipient,
    amountLD,
    minAmountLD: quote.amountReceivedLD,
    nativeFee: quote.nativeFee,
    refundAddress: sender.address,
  });
  const hash = await wallet.sendTransaction({
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
  });
  const receipt = await connection.client.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, "success");
  return { receipt, quote };
}

/** The guid (the record's message_id) of a receipt's one OFTSent. */
export function guidOf(receipt: TransactionReceipt): Hex {
  const [sent, ...more] = parseEventLogs({ abi: oftAbi, eventName: "OFTSent", logs: receipt.logs });
  assert.ok(sent !== undefined && more.length === 0, "one OFTSent in the receipt");
  return sent.args.guid.toLowerCase() as Hex;
}

/** A LayerZero devnet as the suites look at it: chains by name, users, OFT deployments. */
export interface LayerZeroDevnetView {
  lz: LayerZeroManifest;
  chain(name: string): ChainConnection;
  user(index: number): ManifestAccount;
  /** The mesh `symbol`'s OFT or adapter on chain `name`. */
  deployment(symbol: string, name: string): LayerZeroManifestDeployment;
  /** Chain `name`'s LayerZero entry (eid, endpoint, message library, fee). */
  lzChain(name: string): LayerZeroManifestChain;
}

export function viewLayerZeroDevnet(manifest: DevnetManifest): LayerZeroDevnetView {
  const lz = manifest.layerzero;
  assert.ok(lz !== undefined, "the manifest has a layerzero section");
  const chains = new Map(manifest.chains.map((c) => [c.name, connectChain(manifest, c.name)]));
  const chain = (name: string): ChainConnection => {
    const found = chains.get(name);
    if (found === undefined) throw new Error(`no chain ${name}`);
    return found;
  };
  return {
    lz,
    chain,
    user: (index) => {
      const account = manifest.accounts[index];
      if (account === undefined) throw new Error(`no user ${index}`);
      return account;
    },
    deployment: (symbol, name) => {
      const mesh = lz.meshes.find((m) => m.symbol === symbol);
      const found = mesh?.deployments.find((d) => d.chainId === chain(name).chain.chainId);
      if (found === undefined) throw new Error(`no ${symbol} on ${name}`);
      return found;
    },
    lzChain: (name) => {
      const found = lz.chains.find((c) => c.chainId === chain(name).chain.chainId);
      if (found === undefined) throw new Error(`no LayerZero chain ${name}`);
      return found;
    },
  };
}

/** Pauses (or resumes) an OFT's lzReceive as its owner, the devnet deployer (a devnet knob). */
export async function setReceivePaused(
  manifest: DevnetManifest,
  connection: ChainConnection,
  oft: Address,
  paused: boolean,
): Promise<void> {
  const hash = await connection.wallet(manifest.deployer).writeContract({
    address: oft,
    abi: devnetOftAbi,
    functionName: "setReceivePaused",
    args: [paused],
  });
  await connection.client.waitForTransactionReceipt({ hash });
}
