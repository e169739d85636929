/**
 * Uniswap V3 on the devnet, from Uniswap's published artifacts: the pools sit at the addresses
 * the periphery derives with POOL_INIT_CODE_HASH, and the router's bigint port of the pool math,
 * fed by the per-block reader (TickLens window), equals QuoterV2.quoteExactInputSingle to the
 * wei over random pools, directions and amounts, crossing ticks; a real SwapRouter swap pays
 * exactly what the simulation says.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { type Address, keccak256, maxUint256 } from "viem";
import { withGasHeadroom } from "../../src/devnet/chain-clients.js";
import type { ManifestV3Pool } from "../../src/devnet/deploy-uniswap-v3.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import {
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  uniswapArtifact,
} from "../../src/devnet/uniswap-artifacts.js";
import { readV3Pool } from "../../src/router/providers/uniswap-v3-reader.js";
import { simulateExactInput } from "../../src/router/uniswap-v3/pool-swap.js";
import {
  type ChainConnection,
  connectChain,
  setupDevnet,
  type TestDevnet,
} from "../setup/anvil.js";

describe("devnet: Uniswap V3 (factory, pools, QuoterV2, TickLens, SwapRouter)", () => {
  let devnet: TestDevnet;
  let manifest: DevnetManifest;
  let chains: ChainConnection[];

  before(async () => {
    devnet = await setupDevnet();
    manifest = devnet.manifest;
    chains = ["alpha", "beta", "gamma"].map((name) => connectChain(manifest, name));
  });
  after(async () => devnet?.cleanup());

  const v3 = (conn: ChainConnection) => {
    const deployed = conn.chain.uniswapV3;
    assert.ok(deployed !== undefined, `${conn.chain.name} has Uniswap V3`);
    return deployed;
  };

  const quote = async (
    conn: ChainConnection,
    pool: ManifestV3Pool,
    zeroForOne: boolean,
    amountIn: bigint,
  ) => {
    const { result } = await conn.client.simulateContract({
      address: v3(conn).quoterV2,
      abi: uniswapArtifact("QuoterV2").abi,
      functionName: "quoteExactInputSingle",
      args: [
        {
          tokenIn: zeroForOne ? pool.token0 : pool.token1,
          tokenOut: zeroForOne ? pool.token1 : pool.token0,
          amountIn,
          fee: pool.fee,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    const [amountOut, sqrtPriceX96After] = result as readonly [bigint, bigint, number, bigint];
    return { amountOut, sqrtPriceX96After };
  };

  const snapshot = async (conn: ChainConnection, pool: ManifestV3Pool) =>
    readV3Pool(conn.client, {
      pool: pool.address,
      tickLens: v3(conn).tickLens,
      blockNumber: await conn.client.getBlockNumber({ cacheTime: 0 }),
    });

  it("default: the pool creation code hashes to POOL_INIT_CODE_HASH and pools sit at its CREATE2 addresses", async () => {
    assert.equal(
      keccak256(uniswapArtifact("UniswapV3Pool").bytecode),
      UNISWAP_V3_POOL_INIT_CODE_HASH,
    );
    const allTiers: number[] = [];
    for (const conn of chains) {
      const deployed = v3(conn);
      assert.ok(deployed.pools.length >= 3, `${conn.chain.name}: several pools`);
      const tiers = new Set(deployed.pools.map((p) => p.fee));
      assert.ok(tiers.size >= 3, "several fee tiers");
      allTiers.push(...tiers);
      for (const pool of deployed.pools) {
        const address = (await conn.client.readContract({
          address: deployed.factory,
          abi: uniswapArtifact("UniswapV3Factory").abi,
          functionName: "getPool",
          args: [pool.token0, pool.token1, pool.fee],
        })) as Address;
        assert.equal(address, pool.address, `${conn.chain.name} pool ${pool.fee}`);
        const state = await snapshot(conn, pool);
        assert.ok(state.liquidity > 0n, "liquidity in range");
        assert.ok(state.ticks.length >= 4, "several initialized ticks");
      }
    }
    assert.deepEqual(
      [...new Set(allTiers)].sort((a, b) => a - b),
      [100, 500, 3000, 10000],
    );
  });

  it("behavior: the simulation from a snapshot equals QuoterV2 to the wei, crossing ticks", async () => {
    let crossed = 0;
    let compared = 0;
    let outside = 0;
    // A share of the pool's own balance of the input token: from a millionth (no tick crossed)
    // through a few percent (crossing the narrow ranges) to 1.5 times it (leaving the window).
    const share = fc.tuple(fc.integer({ min: 1, max: 1500 }), fc.integer({ min: 0, max: 3 }));
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        share,
        async (chainPick, poolPick, zeroForOne, [permille, exponent]) => {
          const conn = chains[chainPick % chains.length]!;
          const pools = v3(conn).pools;
          const pool = pools[poolPick % pools.length]!;
          const balance = await conn.balanceOf(
            zeroForOne ? pool.token0 : pool.token1,
            pool.address,
          );
          const amountIn = (balance * BigInt(permille)) / 1000n / 10n ** BigInt(exponent) + 1n;
          const state = await snapshot(conn, pool);
          const simulated = simulateExactInput(state, zeroForOne, amountIn);
          if (!simulated.ok) {
            // Only a swap that leaves the loaded words is refused; it is never guessed.
            assert.equal(simulated.reason, "outsideWindow", `refused: ${simulated.reason}`);
            outside++;
            return;
          }
          const quoted = await quote(conn, pool, zeroForOne, amountIn);
          assert.equal(
            simulated.amountOut,
            quoted.amountOut,
            `amountOut ${pool.fee} ${zeroForOne} ${amountIn}`,
          );
          assert.equal(simulated.sqrtPriceX96After, quoted.sqrtPriceX96After, "price after");
          compared++;
          if (simulated.ticksCrossed > 0) crossed++;
        },
      ),
      { numRuns: 150 },
    );
    const counts = `compared ${compared}, crossed ticks in ${crossed}, outside ${outside}`;
    assert.ok(compared >= 40, counts);
    assert.ok(crossed >= 15, counts);
    assert.ok(outside >= 1, counts);
  });

  it("behavior: a SwapRouter swap pays exactly the simulated amount, then state moves", async () => {
    const conn = chains[0]!;
    const deployed = v3(conn);
    const user = manifest.accounts[0]!;
    const wallet = conn.wallet(user);
    const erc20 = uniswapArtifact("WETH9").abi;
    for (const pool of deployed.pools.slice(0, 3)) {
      for (const zeroForOne of [true, false]) {
        const tokenIn = zeroForOne ? pool.token0 : pool.token1;
        const tokenOut = zeroForOne ? pool.token1 : pool.token0;
        const balance = await conn.balanceOf(tokenIn, user.address);
        const amountIn = balance / 20n;
        const state = await snapshot(conn, pool);
        const simulated = simulateExactInput(state, zeroForOne, amountIn);
        assert.ok(simulated.ok, `simulated ${pool.fee}`);
        const approve = await wallet.writeContract({
          address: tokenIn,
          abi: erc20,
          functionName: "approve",
          args: [deployed.swapRouter, maxUint256],
        });
        await conn.client.waitForTransactionReceipt({ hash: approve });
        const before = await conn.balanceOf(tokenOut, user.address);
        const swap = {
          address: deployed.swapRouter,
          abi: uniswapArtifact("SwapRouter").abi,
          functionName: "exactInputSingle",
          args: [
            {
              tokenIn,
              tokenOut,
              fee: pool.fee,
              recipient: user.address,
              deadline: maxUint256,
              amountIn,
              amountOutMinimum: simulated.amountOut,
              sqrtPriceLimitX96: 0n,
            },
          ],
        } as const;
        // Estimated in the latest block, where a pool swapped in that block skips its oracle
        // write that the next block makes: the devnet's headroom (chain-clients.ts).
        const estimate = await conn.client.estimateContractGas({ ...swap, account: user.address });
        const hash = await wallet.writeContract({ ...swap, gas: withGasHeadroom(estimate) });
        const receipt = await conn.client.waitForTransactionReceipt({ hash });
        assert.equal(receipt.status, "success", "swap");
        assert.equal((await conn.balanceOf(tokenOut, user.address)) - before, simulated.amountOut);
        const after = await snapshot(conn, pool);
        assert.equal(after.sqrtPriceX96, simulated.sqrtPriceX96After, "price after the swap");
        assert.equal(after.tick, simulated.tickAfter, "tick after the swap");
      }
    }
  });
});
