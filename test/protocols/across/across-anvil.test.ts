/**
 * Across V3 on anvil, end to end through the seam: Across' own SpokePool (the published
 * bytecode of @across-protocol/contracts, src/devnet/protocols/across/) on two chains, deposits made and
 * filled the way a depositor and a relayer do, indexed by the real indexer into SQLite and
 * PostgreSQL: deposit -> fill -> Success with every record field checked against the chain, a
 * fill indexed before its deposit (arrival order), a reorg that removes a fill (back to
 * Processing), and a deposit whose fill deadline passes unfilled (Failed).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Abi,
  type Address,
  createPublicClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
} from "viem";
import { buildTimeline } from "../../../src/api/transfer-timeline.js";
import type { IndexerConfig } from "../../../src/config/indexer-config.js";
import { type AnvilInstance, startAnvil } from "../../../src/devnet/anvil.js";
import { loadArtifacts } from "../../../src/devnet/artifacts.js";
import { createTxSender } from "../../../src/devnet/deploy-tx.js";
import {
  type AcrossArtifacts,
  loadAcrossArtifacts,
} from "../../../src/devnet/protocols/across/fetch-artifacts.js";
import {
  type AcrossDeposit,
  deploySpokePool,
  depositArgs,
  relayData,
  spokePoolTime,
  toBytes32,
} from "../../../src/devnet/protocols/across/spoke-pool.js";
import { uniswapArtifact } from "../../../src/devnet/uniswap-artifacts.js";
import { formatUtc } from "../../../src/domain/utc-time.js";
import { createIndexer, type Indexer } from "../../../src/indexer/create-indexer.js";
import { ACROSS_PROTOCOL } from "../../../src/protocols/across/index.js";
import { acrossMessageId } from "../../../src/protocols/across/pairing.js";
import { PROTOCOLS } from "../../../src/protocols/index.js";
import { type Database, openDatabase } from "../../../src/store/index.js";
import { indexUntilIdle, memoryLogger } from "../../indexer/helpers.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../../setup/database.js";

// anvil's default accounts 0, 1, 2 (unlocked: eth_sendTransaction signs for them)
const DEPLOYER = getAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
const RELAYER = getAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
const USER = getAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
const RECIPIENT = getAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906");

interface Side {
  node: AnvilInstance;
  client: PublicClient;
  chainId: number;
  spokePool: Address;
  usdc: Address;
  /** USDC with 18 decimals (as on BNB Chain). */
  usdc18: Address;
}

async function deploySide(chainId: number, across: AcrossArtifacts): Promise<Side> {
  const node = await startAnvil({ chainId });
  try {
    return await deployOn(node, chainId, across);
  } catch (error) {
    // A failed deployment stops its node, so the test process can end and report it.
    await node.stop();
    throw error;
  }
}

async function deployOn(
  node: AnvilInstance,
  chainId: number,
  across: AcrossArtifacts,
): Promise<Side> {
  const client = createPublicClient({ transport: http(node.rpcUrl), pollingInterval: 20 });
  const ours = loadArtifacts();
  const tx = await createTxSender(client, DEPLOYER);
  const usdc = await tx.deploy("USDC", ours.get("MintableToken"), ["USD Coin", "USDC", 6]);
  const usdc18 = await tx.deploy("USDC18", ours.get("MintableToken"), [
    "USD Coin 18",
    "USDC18",
    18,
  ]);
  const weth = await tx.deploy("WETH9", uniswapArtifact("WETH9"));
  const spokePool = await deploySpokePool(tx, across, weth);
  const token = ours.get("MintableToken").abi;
  await tx.call("mint user", usdc, token, "mint", [USER, 1_000_000_000n]);
  await tx.call("mint relayer", usdc, token, "mint", [RELAYER, 1_000_000_000n]);
  await tx.call("mint relayer 18", usdc18, token, "mint", [RELAYER, 10n ** 30n]);
  await tx.flush();
  return { node, client, chainId, spokePool, usdc, usdc18 };
}

async function send(
  side: Side,
  from: Address,
  abi: Abi,
  to: Address,
  functionName: string,
  args: readonly unknown[],
) {
  const tx = await createTxSender(side.client, from);
  const hash = await tx.call(functionName, to, abi, functionName, args);
  await tx.flush();
  return side.client.getTransactionReceipt({ hash });
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`Across V3 on anvil (${backend})`, () => {
    let across: AcrossArtifacts;
    let spokeAbi: Abi;
    let alpha: Side;
    let beta: Side;
    let db: IsolatedDatabase;
    let store: Database;
    let indexer: Indexer;
    const deposits: {
      deposit: AcrossDeposit;
      id: bigint;
      receipt: { transactionHash: Hex; blockNumber: bigint };
    }[] = [];

    async function deposit(outputAmount: bigint, fillSeconds: number, outputToken?: Address) {
      const now = await spokePoolTime(alpha.client, alpha.spokePool, spokeAbi);
      const d: AcrossDeposit = {
        depositor: USER,
        recipient: RECIPIENT,
        inputToken: alpha.usdc,
        outputToken: outputToken ?? beta.usdc,
        inputAmount: 25_000_000n,
        outputAmount,
        destinationChainId: BigInt(beta.chainId),
        quoteTimestamp: now,
        fillDeadline: now + fillSeconds,
      };
      await send(alpha, USER, erc20Abi, alpha.usdc, "approve", [alpha.spokePool, maxUint256]);
      const receipt = await send(alpha, USER, spokeAbi, alpha.spokePool, "deposit", depositArgs(d));
      assert.equal(receipt.status, "success", "the deposit is accepted");
      const entry = { deposit: d, id: BigInt(deposits.length), receipt };
      deposits.push(entry);
      return entry;
    }

    async function fill(entry: (typeof deposits)[number]) {
      await send(beta, RELAYER, erc20Abi, entry.deposit.outputToken, "approve", [
        beta.spokePool,
        maxUint256,
      ]);
      return send(beta, RELAYER, spokeAbi, beta.spokePool, "fillRelay", [
        relayData(entry.deposit, BigInt(alpha.chainId), entry.id),
        BigInt(beta.chainId),
        toBytes32(RELAYER),
      ]);
    }

    before(async () => {
      across = loadAcrossArtifacts();
      spokeAbi = across.contracts.Ethereum_SpokePool.abi;
      const base = backend === "sqlite" ? 73_100 : 73_200;
      const sides = await Promise.allSettled([
        deploySide(base + 1, across),
        deploySide(base + 2, across),
      ]);
      const failed = sides.find((s) => s.status === "rejected");
      if (failed !== undefined) {
        for (const s of sides) if (s.status === "fulfilled") await s.value.node.stop();
        throw failed.reason;
      }
      [alpha, beta] = sides.map((s) => (s as PromiseFulfilledResult<Side>).value) as [Side, Side];
      const chain = (name: string, side: Side) => ({
        name,
        chainId: side.chainId,
        nativeSymbol: "ETH",
        rpcUrl: side.node.rpcUrl,
        startBlock: 0,
        confirmations: 0,
        finalityDepth: 64,
      });
      const config: IndexerConfig = {
        chains: [chain("alpha", alpha), chain("beta", beta)],
        bridges: [alpha, beta].map((side) => ({
          protocol: ACROSS_PROTOCOL,
          kind: 1 as const,
          chainId: side.chainId,
          address: side.spokePool,
          bridgeChainId: String(side.chainId),
        })),
        pollIntervalMs: 20,
        maxBlockRange: 1000,
        rpcTimeoutMs: 5000,
      };
      db = await setupIsolatedDatabase(backend);
      store = await openDatabase(db.databaseUrl);
      indexer = createIndexer({ config, store, logger: memoryLogger(), protocols: PROTOCOLS });
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
      await Promise.all([alpha?.node.stop(), beta?.node.stop()]);
    });

    const betaIndexer = () => indexer.chains[1]!;

    it("behavior: a fill indexed before its deposit waits, then pairs: Success, every field from the chain", async () => {
      const entry = await deposit(24_990_000n, 3600);
      const filled = await fill(entry);
      assert.equal(filled.status, "success", "the relayer's fill is accepted");
      const key = acrossMessageId(BigInt(alpha.chainId), entry.id);

      await indexUntilIdle([betaIndexer()]);
      assert.equal(await store.transfers.getTransfer(key), undefined, "no deposit, no record");

      await indexUntilIdle(indexer.chains);
      const record = await store.transfers.getTransfer(key);
      assert.ok(record !== undefined, "the deposit made the record");
      const sourceBlock = await alpha.client.getBlock({ blockNumber: entry.receipt.blockNumber });
      const destBlock = await beta.client.getBlock({ blockNumber: filled.blockNumber });
      const received = await beta.client.readContract({
        address: beta.usdc,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [RECIPIENT],
      });
      assert.equal(received, 24_990_000n, "the recipient got the output amount from the relayer");
      const { created_at: _c, updated_at: _u, ...fields } = record;
      assert.deepEqual(fields, {
        message_id: key,
        source_contract: alpha.spokePool,
        dest_contract: beta.spokePool,
        source_tx_hash: entry.receipt.transactionHash.toLowerCase(),
        dest_tx_hash: filled.transactionHash.toLowerCase(),
        from_address: USER,
        to_address: RECIPIENT,
        send_amount: "25",
        min_receive_amount: "24.99",
        receive_amount: "24.99",
        source_chain_name: "alpha",
        dest_chain_name: "beta",
        source_token_address: alpha.usdc,
        source_token_decimals: 6,
        source_token_symbol: "USDC",
        dest_token_address: beta.usdc,
        dest_token_decimals: 6,
        dest_token_symbol: "USDC",
        dest_bridge_token: beta.usdc,
        dest_bridge_token_decimals: 6,
        dest_bridge_token_amount: "24.99",
        fee_address: alpha.usdc,
        fee_decimals: 6,
        fee_symbol: "USDC",
        xproto_fee: "0",
        bridge_fee: "0.01",
        status: "Success",
        subsidy_amount: "0",
        start_time: formatUtc(Number(sourceBlock.timestamp)),
        end_time: formatUtc(Number(destBlock.timestamp)),
        protocol: ACROSS_PROTOCOL,
        xproto_fee_address: alpha.usdc,
        xproto_fee_decimals: 6,
        xproto_fee_symbol: "USDC",
      });
    });

    it("behavior: a reorg that removes the fill returns the record to Processing", async () => {
      const entry = await deposit(24_000_000n, 3600);
      const key = acrossMessageId(BigInt(alpha.chainId), entry.id);
      await indexUntilIdle(indexer.chains);
      assert.equal((await store.transfers.getTransfer(key))?.status, "Processing");

      const snapshot = (await beta.client.request({ method: "evm_snapshot" } as never)) as Hex;
      await fill(entry);
      await indexUntilIdle(indexer.chains);
      assert.equal((await store.transfers.getTransfer(key))?.status, "Success");

      await beta.client.request({ method: "evm_revert", params: [snapshot] } as never);
      await beta.client.request({ method: "anvil_mine", params: ["0x4"] } as never);
      await indexUntilIdle(indexer.chains);
      const record = await store.transfers.getTransfer(key);
      assert.equal(record?.status, "Processing", "the fill's block is gone");
      assert.equal(record?.dest_tx_hash, "");
      assert.equal(record?.receive_amount, "");
    });
    it("behavior: a deposit whose fill deadline passes unfilled is Failed; a reorg back before the deadline makes it Processing again", async () => {
      const entry = await deposit(24_500_000n, 60);
      const key = acrossMessageId(BigInt(alpha.chainId), entry.id);
      await indexUntilIdle(indexer.chains);
      assert.equal((await store.transfers.getTransfer(key))?.status, "Processing");

      const beforeDeadline = (await beta.client.request({
        method: "evm_snapshot",
      } as never)) as Hex;
      const headBefore = await beta.client.getBlock();
      const pastDeadline = entry.deposit.fillDeadline + 1;
      await beta.client.request({
        method: "evm_setNextBlockTimestamp",
        params: [`0x${pastDeadline.toString(16)}`],
      } as never);
      await beta.client.request({ method: "anvil_mine", params: ["0x1"] } as never);
      const late = await fill(entry).catch((error: unknown) => error);
      assert.ok(
        late instanceof Error || (late as { status?: string }).status === "reverted",
        "a fill after the deadline reverts",
      );
      await indexUntilIdle(indexer.chains);
      const failed = await store.transfers.getTransfer(key);
      const head = await beta.client.getBlock();
      assert.equal(failed?.status, "Failed");
      assert.equal(failed?.dest_tx_hash, "", "an expiry has no destination transaction");
      assert.equal(failed?.receive_amount, "0");
      assert.equal(failed?.end_time, formatUtc(Number(head.timestamp)));
      const events = await store.transfers.transferEvents(key);
      assert.deepEqual(
        events.map((e) => [e.chainId, e.role]),
        [
          [alpha.chainId, "sent"],
          [beta.chainId, "expired"],
        ],
      );
      const failedStep = buildTimeline(failed!, events).steps[1];
      assert.equal(failedStep?.step, "failed", "the timeline shows the expiry as the failure");
      assert.equal(failedStep?.txHash, "");
      assert.match(failedStep?.reason ?? "", /^fill deadline .* passed unfilled$/);

      await beta.client.request({ method: "evm_revert", params: [beforeDeadline] } as never);
      await beta.client.request({
        method: "evm_setNextBlockTimestamp",
        params: [`0x${(Number(headBefore.timestamp) + 1).toString(16)}`],
      } as never);
      await beta.client.request({ method: "anvil_mine", params: ["0x3", "0x0"] } as never);
      assert.ok(
        (await beta.client.getBlock()).timestamp <= BigInt(entry.deposit.fillDeadline),
        "the replacement chain's time is not past the deadline",
      );
      await indexUntilIdle(indexer.chains);
      const back = await store.transfers.getTransfer(key);
      assert.equal(back?.status, "Processing", "the chain's time is before the deadline again");
      assert.equal(back?.end_time, "");
    });
    it("behavior: a 6-decimal input filled with an 18-decimal output: the fee in the input's units", async () => {
      const entry = await deposit(24_990_000_000_000_000_000n, 3600, beta.usdc18);
      const filled = await fill(entry);
      assert.equal(filled.status, "success", "the fill is accepted");
      await indexUntilIdle(indexer.chains);
      const record = await store.transfers.getTransfer(
        acrossMessageId(BigInt(alpha.chainId), entry.id),
      );
      assert.equal(record?.status, "Success");
      assert.equal(record?.bridge_fee, "0.01", "25 USDC in, 24.99 USDC18 out");
      assert.equal(record?.fee_decimals, 6);
      assert.equal(record?.dest_token_decimals, 18);
      assert.equal(record?.min_receive_amount, "24.99");
      assert.equal(record?.receive_amount, "24.99");
    });
  });
}
