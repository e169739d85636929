/**
 * One random OFT transfer for the devnet's traffic generator: a random mesh, a source chain where
 * the account holds the mesh's token, another chain as destination, an amount with dust below the
 * shared decimals (so the dust removal shows in the records), quoted with quoteSend, approved
 * first when the source is the OFTAdapter, and sent with OFT.send (value = the native fee).
 */
import {
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  parseEventLogs,
  type Transport,
  type WalletClient,
} from "viem";
import { erc20Abi, oftAbi } from "../../../protocols/layerzero-oft/abi.js";
import { addressToBytes32 } from "../../../protocols/layerzero-oft/packet.js";
import { removeDust } from "../../../protocols/layerzero-oft/quote-math.js";
import {
  buildOftApproval,
  buildOftSendTransaction,
} from "../../../protocols/layerzero-oft/transaction.js";
import type { LayerZeroManifest, LayerZeroManifestDeployment } from "./manifest.js";

export interface OftTrafficClients {
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

export interface OftTrafficRandom {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export interface SendRandomOftParameters {
  layerzero: LayerZeroManifest;
  account: Address;
  clientsFor(chainId: number): OftTrafficClients;
  random: OftTrafficRandom;
  recipients: readonly Address[];
}

export interface OftTrafficTransfer {
  guid: Hex;
  txHash: Hex;
  from: Address;
  to: Address;
  symbol: string;
  sourceChainId: number;
  destChainId: number;
  amountLD: bigint;
  nativeFee: bigint;
  /** The source is an OFTAdapter (lock) or the destination is one (unlock). */
  adapter: boolean;
}

async function balanceOf(
  clients: OftTrafficClients,
  token: Address,
  owner: Address,
): Promise<bigint> {
  return clients.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

async function send(
  clients: OftTrafficClients,
  request: { to: Address; data: Hex; value: Hex },
): Promise<Hex> {
  const hash = await clients.walletClient.sendTransaction({
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
  });
  const receipt = await clients.publicClient.waitForTransactionReceipt({
    hash,
    pollingInterval: 100,
    timeout: 60_000,
  });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return hash;
}

/** Sends one transfer; null when the account holds none of the chosen mesh's tokens. */
export async function sendRandomOftTransfer(
  p: SendRandomOftParameters,
): Promise<OftTrafficTransfer | null> {
  const mesh = p.random.pick(p.layerzero.meshes);
  const balances = await Promise.all(
    mesh.deployments.map(async (d) => ({
      deployment: d,
      balance: await balanceOf(p.clientsFor(d.chainId), d.token, p.account),
    })),
  );
  const funded = balances.filter((b) => b.balance > 0n);
  if (funded.length === 0 || mesh.deployments.length < 2) return null;
  const { deployment: source, balance } = p.random.pick(funded);
  const dest: LayerZeroManifestDeployment = p.random.pick(
    mesh.deployments.filter((d) => d.chainId !== source.chainId),
  );
  const unit = 10n ** BigInt(mesh.decimals);
  // 1-200 whole tokens plus dust below 10^(decimals - shared), at most a quarter of the balance.
  const rate = 10n ** BigInt(mesh.decimals - mesh.sharedDecimals);
  let amountLD =
    BigInt(1 + p.random.int(200)) * unit +
    BigInt(p.random.int(1_000_000)) * (rate / 1_000_000n || 1n);
  if (amountLD > balance / 4n) amountLD = balance / 4n;
  if (removeDust(amountLD, rate) === 0n) return null;
  const to = p.random.pick(p.recipients);
  const clients = p.clientsFor(source.chainId);
  const sendParam = {
    dstEid: dest.eid,
    to: addressToBytes32(to),
    amountLD,
    minAmountLD: removeDust(amountLD, rate),
    extraOptions: "0x" as Hex,
    composeMsg: "0x" as Hex,
    oftCmd: "0x" as Hex,
  };
  const fee = await clients.publicClient.readContract({
    address: source.oft,
    abi: oftAbi,
    functionName: "quoteSend",
    args: [sendParam, false],
  });
  const approval = buildOftApproval({
    chainId: source.chainId,
    approvalRequired: source.adapter,
    token: source.token,
    oft: source.oft,
    amountLD,
  });
  if (approval !== null) await send(clients, approval.transactionRequest);
  const txHash = await send(
    clients,
    buildOftSendTransaction({
      chainId: source.chainId,
      oft: source.oft,
      dstEid: dest.eid,
      to,
      amountLD,
      minAmountLD: sendParam.minAmountLD,
      nativeFee: fee.nativeFee,
      refundAddress: p.account,
    }),
  );
  const receipt = await clients.publicClient.getTransactionReceipt({ hash: txHash });
  const [sent] = parseEventLogs({ abi: oftAbi, eventName: "OFTSent", logs: receipt.logs });
  if (sent === undefined) throw new Error(`no OFTSent in ${txHash}`);
  return {
    guid: sent.args.guid,
    txHash,
    from: p.account,
    to,
    symbol: mesh.symbol,
    sourceChainId: source.chainId,
    destChainId: dest.chainId,
    amountLD,
    nativeFee: fee.nativeFee,
    adapter: source.adapter || dest.adapter,
  };
}
