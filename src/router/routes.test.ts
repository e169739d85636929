import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createRouterFixture } from "./fixtures.js";
import { createRouteIndex, enumerateRoutes } from "./routes.js";

const f = createRouterFixture();

function describeRoutes(from: [string, string], to: [string, string]) {
  return enumerateRoutes(f.registry, f.token(...from), f.token(...to)).map((r) => ({
    kind: r.kind,
    bridgeToken: r.sourceBridgeToken.symbol,
    sourceHops: r.sourcePath.length,
    destHops: r.destPath.length,
  }));
}

describe("enumerateRoutes", () => {
  it("default: every link between the chains, swaps only where the token is not the bridge token", () => {
    assert.deepEqual(describeRoutes(["alpha", "USDC"], ["beta", "USDC"]), [
      { kind: 0, bridgeToken: "DAI", sourceHops: 1, destHops: 1 },
      { kind: 1, bridgeToken: "USDC", sourceHops: 0, destHops: 0 },
      { kind: 2, bridgeToken: "USDC", sourceHops: 0, destHops: 0 },
    ]);
    assert.deepEqual(describeRoutes(["alpha", "DAI"], ["gamma", "DAI"]), [
      { kind: 0, bridgeToken: "DAI", sourceHops: 0, destHops: 0 },
      { kind: 1, bridgeToken: "USDC", sourceHops: 1, destHops: 1 },
      { kind: 2, bridgeToken: "USDC", sourceHops: 1, destHops: 1 },
    ]);
  });

  it("behavior: skips a link whose swap has no path", () => {
    // ORC -> DAI on alpha has no path (DAI has no WETH pair): kind 0 drops out.
    assert.deepEqual(describeRoutes(["alpha", "ORC"], ["gamma", "GOV"]), [
      { kind: 1, bridgeToken: "USDC", sourceHops: 2, destHops: 1 },
      { kind: 2, bridgeToken: "USDC", sourceHops: 2, destHops: 1 },
    ]);
    // native coin on both ends: WETH <-> USDC, and WETH <-> DAI has no path.
    assert.deepEqual(describeRoutes(["alpha", "ETH"], ["beta", "ETH"]), [
      { kind: 1, bridgeToken: "USDC", sourceHops: 1, destHops: 1 },
      { kind: 2, bridgeToken: "USDC", sourceHops: 1, destHops: 1 },
    ]);
  });

  it("behavior: carries the bridge contract and the destination in the kind's scheme", () => {
    const [k0, k1, k2] = enumerateRoutes(
      f.registry,
      f.token("beta", "USDC"),
      f.token("gamma", "USDC"),
    );
    assert.deepEqual(
      [k0!.destBridgeChainId, k1!.destBridgeChainId, k2!.destBridgeChainId],
      ["71003", "103", "40103"],
    );
    assert.equal(k1!.bridge, f.chain("beta").bridges[1]);
    assert.equal(k1!.destBridgeToken, f.token("gamma", "USDC"));
  });

  it("error: no routes within one chain", () => {
    assert.deepEqual(describeRoutes(["alpha", "USDC"], ["alpha", "DAI"]), []);
  });

  it("behavior: the index memoizes per token pair", () => {
    const index = createRouteIndex(f.registry);
    const a = index.routes(f.token("alpha", "USDC"), f.token("beta", "GOV"));
    assert.equal(index.routes(f.token("alpha", "USDC"), f.token("beta", "GOV")), a);
    assert.equal(a.length, 2); // kind 0 drops out: DAI -> GOV has no path on beta
    assert.ok(Object.isFrozen(a), "Object.isFrozen(a)");
  });
});
