/**
 * The chain state provider against fake RPC clients: what it reads (exactly the registry's
 * requirements, at one block), when it reads (new blocks only; an idle chain is confirmed, not
 * re-read), immutability of published snapshots, last good state and backoff on errors with
 * redacted logs, status() for /readyz, and no RPC call from current().
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { routerReadinessCheck } from "../../src/api/routes/router-quote.js";
import { ApiError } from "../../src/errors.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import { prepareRoute } from "../../src/router/price-route.js";
import { createChainStateProvider } from "../../src/router/providers/chain-state-provider.js";
import { enumerateRoutes } from "../../src/router/routes.js";
import { coupleKey } from "../../src/router/state.js";
import { stateRequirements } from "../../src/router/state-requirements.js";
import { type FakeChain, fakeChain } from "./fake-state-client.js";

const fixture = createRouterFixture();

function setup(options: { confirmAfterMs?: number } = {}) {
  let now = 1_000_000;
  const fakes = new Map(
    fixture.registry.chains.map((c) => [c.chainId, fakeChain(fixture, c.chainId)]),
  );
  const logs: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const provider = createChainStateProvider({
    registry: fixture.registry,
    maxStateAgeMs: 10_000,
    clients: new Map([...fakes].map(([id, f]) => [id, f.client])),
    pollIntervalMs: 60_000, // the tests drive polls with refresh()
    confirmAfterMs: options.confirmAfterMs ?? 2000,
    backoffBaseMs: 1000,
    backoffMaxMs: 8000,
    random: () => 1,
    now: () => now,
    logger: {
      info: (fields, msg) => logs.push({ level: "info", fields: fields as never, msg }),
      warn: (fields, msg) => logs.push({ level: "warn", fields: fields as never, msg }),
    },
  });
  return {
    provider,
    fakes,
    logs,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const totalCalls = (fakes: Map<number, FakeChain>) =>
  [...fakes.values()].reduce((n, f) => n + f.calls.length, 0);

describe("createChainStateProvider", () => {
  it("behavior: a pair created beyond the registry is found, read and swapped through, as the contracts do", async () => {
    const { provider, fakes, logs } = setup();
    await provider.start();
    const orc = fixture.token("alpha", "ORC");
    const usdc = fixture.token("alpha", "USDC");
    const route = enumerateRoutes(fixture.registry, orc, fixture.token("beta", "USDC")).find(
      (r) => r.kind === 1,
    )!;
    assert.equal(route.sourcePath.length, 2, "the registry has no ORC/USDC pair: via WETH");
    const before = prepareRoute(route, provider.current());
    assert.ok(
      before.ok && before.prepared.sourceHops.length === 2,
      "before.ok && before.prepared.sourceHops.length === 2",
    );

    // Someone creates ORC/USDC on alpha: the factory's pair count moves, the next read finds it.
    const address = "0x00000000000000000000000000000000000c0ffe";
    fakes.get(71001)!.addPair(orc.key, usdc.key, address, 10n ** 12n, 15n * 10n ** 10n);
    fakes.get(71001)!.head += 1n;
    await provider.refresh();
    await provider.stop();
    const state = provider.current().chains.get(71001)!;
    assert.equal(state.directPairs?.get(coupleKey(orc.key, usdc.key)), address);
    const after = prepareRoute(route, provider.current());
    assert.ok(after.ok, "after.ok");
    const [token0] = [orc.key, usdc.key].sort();
    const orcIs0 = token0 === orc.key;
    assert.deepEqual(after.prepared.sourceHops, [
      {
        reserveIn: orcIs0 ? 10n ** 12n : 15n * 10n ** 10n,
        reserveOut: orcIs0 ? 15n * 10n ** 10n : 10n ** 12n,
      },
    ]);
    assert.ok(
      logs.some((l) => l.msg.includes("is not in the registry")),
      'logs.some((l) => l.msg.includes("is not in the registry"))',
    );
  });

  it("default: reads exactly the registry's requirements at one block and prices like the fixture", async () => {
    const { provider, fakes } = setup();
    await provider.start();
    await provider.stop();
    for (const req of stateRequirements(fixture.registry)) {
      const fake = fakes.get(req.chainId)!;
      const tokens = req.swapTokens.length;
      const expected =
        1 +
        1 +
        // the factory: its pair count, getPair for every couple of tokens, each pair's token0
        1 +
        (tokens * (tokens - 1)) / 2 +
        req.pairs.length +
        req.pairs.length +
        req.bridges.reduce(
          (n, b) =>
            n +
            b.tokenConfigTokens.length +
            b.availableLiquidityTokens.length +
            b.xprotoFeeDestinations.length,
          0,
        );
      assert.equal(fake.calls.length, expected, `chain ${req.chainId}: one call per requirement`);
      const blocks = new Set(
        fake.calls.filter((c) => c.blockNumber !== undefined).map((c) => c.blockNumber),
      );
      assert.deepEqual([...blocks], [100n], "every view read at the head block");
      const state = provider.current().chains.get(req.chainId)!;
      const want = fixture.snapshot.chains.get(req.chainId)!;
      assert.equal(state.blockNumber, 100n);
      assert.equal(state.blockTimestamp, 1_700_000_100n);
      assert.deepEqual(state.pairs, want.pairs);
      assert.deepEqual(state.bridges, want.bridges);
    }
    // The same quote as from the fixture itself (the spec's fields: the added ones name the
    // read time, which differs).
    const router = createRouter({ registry: fixture.registry, extensions: false });
    const body = {
      sourceChain: "71001",
      sourceToken: fixture.token("alpha", "WETH").address,
      destChain: "71003",
      destToken: fixture.token("gamma", "GOV").address,
      amount: "2",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    };
    const fromChain = router.quote(body, provider.current());
    const fromFixture = router.quote(body, fixture.snapshot);
    assert.ok(fromChain.ok && fromFixture.ok, "fromChain.ok && fromFixture.ok");
    assert.deepEqual(fromChain.data, fromFixture.data);
  });

  it("behavior: a new block publishes a new snapshot; the old one is never changed", async () => {
    const { provider, fakes, advance } = setup();
    await provider.refresh();
    const first = provider.current();
    const firstAlpha = first.chains.get(71001)!;
    const reserveBefore = [...firstAlpha.pairs.values()][0]!.reserve0;
    const alpha = fakes.get(71001)!;
    alpha.head = 101n;
    alpha.bump = 5n;
    advance(500);
    await provider.refresh();
    const second = provider.current();
    assert.notEqual(second, first);
    assert.equal(second.chains.get(71001)!.blockNumber, 101n);
    assert.equal([...second.chains.get(71001)!.pairs.values()][0]!.reserve0, reserveBefore + 5n);
    assert.equal(first.chains.get(71001), firstAlpha, "old snapshot untouched");
    assert.equal([...firstAlpha.pairs.values()][0]!.reserve0, reserveBefore);
    assert.equal(firstAlpha.blockNumber, 100n);
    assert.equal(second.chains.get(71002), first.chains.get(71002), "unchanged chains are shared");
    assert.ok(
      Object.isFrozen(second) && Object.isFrozen(second.chains.get(71001)),
      "Object.isFrozen(second) && Object.isFrozen(second.chains.get(71001))",
    );
  });

  it("behavior: an idle chain is confirmed by eth_blockNumber alone and stays fresh", async () => {
    const { provider, fakes, advance, now } = setup({ confirmAfterMs: 2000 });
    await provider.refresh();
    const calls = totalCalls(fakes);
    const first = provider.current();
    advance(1000);
    await provider.refresh();
    assert.equal(totalCalls(fakes) - calls, 3, "one eth_blockNumber per chain, no re-read");
    assert.equal(provider.current(), first, "not yet republished");
    advance(1500);
    await provider.refresh();
    assert.equal(totalCalls(fakes) - calls, 6);
    const confirmed = provider.current();
    assert.notEqual(confirmed, first);
    assert.equal(confirmed.chains.get(71001)!.readAtMs, now());
    assert.equal(confirmed.chains.get(71001)!.pairs, first.chains.get(71001)!.pairs);
    assert.equal(first.chains.get(71001)!.readAtMs, now() - 2500, "old snapshot keeps its time");
  });

  it("behavior: current() and status() make no RPC call", async () => {
    const { provider, fakes } = setup();
    await provider.refresh();
    const calls = totalCalls(fakes);
    for (let i = 0; i < 1000; i++) provider.current();
    provider.status();
    assert.equal(totalCalls(fakes), calls);
  });

  it("error: RPC failures keep the last good state, back off, log once redacted, and recover", async () => {
    const { provider, fakes, logs, advance } = setup();
    await provider.refresh();
    const good = provider.current();
    const beta = fakes.get(71002)!;
    beta.fail = new Error(
      "HTTP request failed. URL: https://user:s3cret-pass@rpc.example/v3/abcdefghijklmnop0123",
    );
    beta.head = 101n;
    advance(100);
    await provider.refresh();
    assert.equal(provider.current().chains.get(71002), good.chains.get(71002), "last good state");
    const warn = logs.filter((l) => l.level === "warn");
    assert.equal(warn.length, 1);
    // A client given by the caller has no URL to redact with; the default one redacts (below).
    const callsAfterFailure = beta.calls.length;
    advance(500); // backoff 1000 ms (random 1): too early
    await provider.refresh();
    assert.equal(beta.calls.length, callsAfterFailure, "no call during the backoff");
    let status = provider.status().find((s) => s.chainId === 71002)!;
    assert.equal(status.consecutiveFailures, 1);
    assert.match(status.lastError!, /HTTP request failed/);
    advance(600);
    beta.fail = undefined;
    await provider.refresh();
    status = provider.status().find((s) => s.chainId === 71002)!;
    assert.equal(status.consecutiveFailures, 0);
    assert.equal(status.blockNumber, "101");
    assert.ok(
      logs.some((l) => l.level === "info" && /reads again/.test(l.msg)),
      'logs.some((l) => l.level === "info" && /reads again/.test(l.msg))',
    );
  });

  it("error: the default client never logs its RPC credentials", async () => {
    const registryJson = structuredClone(fixture.registryJson) as {
      chains: { rpcUrl?: string }[];
    };
    // Nothing listens on port 9: every read fails fast.
    registryJson.chains.forEach((c, i) => {
      c.rpcUrl = `http://user:s3cret-pass@127.0.0.1:9/v3/abcdefghijklmnop012${i}?apikey=topsecretkey`;
    });
    const { parseRegistry } = await import("../../src/domain/registry.js");
    const logs: string[] = [];
    const provider = createChainStateProvider({
      registry: parseRegistry(registryJson),
      maxStateAgeMs: 10_000,
      timeoutMs: 1000,
      logger: {
        info: (f, m) => logs.push(JSON.stringify(f) + m),
        warn: (f, m) => logs.push(JSON.stringify(f) + m),
      },
    });
    await provider.start();
    await provider.stop();
    const text = logs.join("\n") + JSON.stringify(provider.status());
    assert.ok(
      logs.some((l) => /failed; keeping the last good state/.test(l)),
      "logs.some((l) => /failed; keeping the last good state/.test(l))",
    );
    for (const secret of ["s3cret-pass", "abcdefghijklmnop012", "topsecretkey", "user:"]) {
      assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    }
    assert.ok(
      provider.status().every((s) => s.blockNumber === null && !s.fresh),
      "provider.status().every((s) => s.blockNumber === null && !s.fresh)",
    );
  });

  it("behavior: the readiness check reports every chain and fails only when none is fresh", async () => {
    const { provider, advance } = setup();
    const check = routerReadinessCheck(provider);
    await assert.rejects(check.check(), (e: unknown) => {
      assert.ok(
        e instanceof ApiError && e.code === 50301,
        "e instanceof ApiError && e.code === 50301",
      );
      assert.match(e.message, /alpha not read yet/);
      return true;
    });
    await provider.refresh();
    const report = (await check.check()) as { name: string; blockNumber: string; fresh: boolean }[];
    assert.deepEqual(
      report.map((r) => [r.name, r.blockNumber, r.fresh]),
      [
        ["alpha", "100", true],
        ["beta", "100", true],
        ["gamma", "100", true],
      ],
    );
    advance(10_001);
    await assert.rejects(
      check.check(),
      /no chain state fresher than 10000 ms .*alpha read 10 s ago/,
    );
  });
});
