import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createRouterFixture } from "./fixtures.js";
import { stateRequirements } from "./state-requirements.js";

describe("stateRequirements", () => {
  const f = createRouterFixture({ extraTokensPerChain: 2 });

  it("default: per chain the pairs, and per kind the token configs, liquidity and messaging fees", () => {
    const beta = stateRequirements(f.registry).find((c) => c.chainId === 71002)!;
    assert.equal(beta.pairs, f.chain("beta").dex.pairs);
    assert.equal(beta.pairs.length, 6);
    assert.deepEqual(
      beta.bridges.map((b) => ({
        kind: b.kind,
        bridge: b.bridge,
        tokenConfig: b.tokenConfigTokens.map((t) => t.symbol),
        liquidity: b.availableLiquidityTokens.map((t) => t.symbol),
        xproto: b.xprotoFeeDestinations,
      })),
      [
        {
          kind: 0,
          bridge: f.chain("beta").bridges[0],
          tokenConfig: ["DAI"],
          liquidity: ["DAI"],
          xproto: [],
        },
        {
          kind: 1,
          bridge: f.chain("beta").bridges[1],
          tokenConfig: ["USDC"],
          liquidity: ["USDC"],
          xproto: [],
        },
        {
          kind: 2,
          bridge: f.chain("beta").bridges[2],
          tokenConfig: ["USDC"],
          liquidity: [],
          xproto: [
            { chainId: 71001, bridgeChainId: "40101" },
            { chainId: 71003, bridgeChainId: "40103" },
          ],
        },
      ],
    );
  });

  it("behavior: the fixture snapshot holds exactly what the requirements list", () => {
    for (const req of stateRequirements(f.registry)) {
      const state = f.snapshot.chains.get(req.chainId)!;
      assert.deepEqual([...state.pairs.keys()].sort(), req.pairs.map((p) => p.key).sort());
      for (const b of req.bridges) {
        const bridge = state.bridges[b.kind]!;
        assert.deepEqual(
          [...bridge.tokenConfigs.keys()],
          b.tokenConfigTokens.map((t) => t.key),
        );
        if (b.kind !== 2) {
          assert.deepEqual(
            [...bridge.availableLiquidity!.keys()],
            b.availableLiquidityTokens.map((t) => t.key),
          );
        }
        if (b.kind === 2) {
          assert.deepEqual(
            [...bridge.xprotoFees!.keys()],
            b.xprotoFeeDestinations.map((d) => d.chainId),
          );
        }
      }
    }
  });
});
