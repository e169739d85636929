/**
 * The router route writes a quote's added fields itself (src/api/quote-extensions-json.ts):
 * byte for byte what the route's documented response schema serialises, for quotes of every
 * shape (ERC-20 and native source, with and without an estimate).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { quoteExtensionsJson } from "../../src/api/quote-extensions-json.js";
import {
  routerQuoteRouteSchema,
  routerQuoteSpecOnlyRouteSchema,
} from "../../src/api/schemas/router-quote.js";
import { registerSharedSchemas } from "../../src/api/schemas/shared.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import type { QuoteExtensions } from "../../src/router/quote-extensions.js";
import type { RouteQuoteData } from "../../src/router/quote-response.js";

describe("quote extensions JSON", () => {
  it("default: the spec's serialiser plus the written fields equal the full schema's serialiser", async () => {
    const f = createRouterFixture({ extraTokensPerChain: 2, readAtMs: 1_700_000_000_000 });
    const app = Fastify();
    registerSharedSchemas(app);
    const serializers: Record<string, (payload: object) => string> = {};
    app.get("/", (_request, reply) => {
      serializers.full = (p) =>
        reply.compileSerializationSchema(routerQuoteRouteSchema.response[200], "200")(p as never);
      serializers.spec = (p) =>
        reply.compileSerializationSchema(
          routerQuoteSpecOnlyRouteSchema.response[200],
          "200",
        )(p as never);
      return reply.send("ok");
    });
    await app.inject({ url: "/" });
    let checked = 0;
    let withEstimate = 0;
    const router = createRouter({
      registry: f.registry,
      extensions: {
        ttlSeconds: 30,
        // Some routes have an estimate, others none.
        estimatedDuration: (route) =>
          route.sourceToken.symbol.length % 2 === 0
            ? { p50Seconds: 12, p90Seconds: 345, samples: 7 }
            : null,
      },
    });
    // Every token of alpha to every token of beta: direct and swap routes, the native coin in.
    const bodies = f.chain("alpha").tokens.flatMap((source) =>
      f.chain("beta").tokens.map((dest) => ({
        sourceChain: "71001",
        sourceToken: source.address,
        destChain: "71002",
        destToken: dest.address,
        amount: "250",
        to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      })),
    );
    for (const body of bodies) {
      const result = router.quote(body, f.snapshot);
      if (!result.ok) continue;
      const envelope = { code: 0, msg: "success", data: result.data };
      const written = `${serializers.spec!(envelope).slice(0, -2)}${quoteExtensionsJson(
        result.data as RouteQuoteData & QuoteExtensions,
      )}}}`;
      assert.equal(written, serializers.full!(envelope));
      checked++;
      if (result.data.estimatedDuration !== null) withEstimate++;
    }
    assert.ok(
      checked >= 20 && withEstimate > 0 && withEstimate < checked,
      `${checked}, ${withEstimate}`,
    );
    await app.close();
  });

  it("behavior: a shared (frozen) part's text is kept, an object that can still change is written afresh", () => {
    const extensions: QuoteExtensions = {
      transactionRequest: {
        chainId: 1,
        to: "0x0000000000000000000000000000000000000001",
        data: "0x",
        value: "0x0",
      },
      approval: null,
      stateBlocks: { "1": 5, "2": 6 },
      expiresAt: "2026-11-26 12:00:00",
      estimatedDuration: { p50Seconds: 1, p90Seconds: 2, samples: 5 },
    };
    const frozen = { ...extensions, stateBlocks: Object.freeze({ "1": 5, "2": 6 }) };
    assert.match(quoteExtensionsJson(frozen), /"stateBlocks":\{"1":5,"2":6\}/);
    assert.match(quoteExtensionsJson(frozen), /"stateBlocks":\{"1":5,"2":6\}/);
    assert.match(quoteExtensionsJson(extensions), /"samples":5\}$/);
    (extensions.stateBlocks as Record<string, number>)["1"] = 7;
    extensions.estimatedDuration!.samples = 6;
    const written = quoteExtensionsJson(extensions);
    assert.match(written, /"stateBlocks":\{"1":7,"2":6\}/);
    assert.match(written, /"samples":6\}$/);
  });
});
