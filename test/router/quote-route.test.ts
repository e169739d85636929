/**
 * POST /api/oracle/router through the real app (auth, rate limit, body parser, error envelope)
 * over a fixture snapshot: the success envelope with every relation of docs/router.md /
 * docs/http-api.md, API rule 4, every bad input with its code, and no RPC or database call per
 * request.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NO_CHAINS_MESSAGE } from "../../src/api/routes/router-quote.js";
import { run as serve } from "../../src/cli/serve.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture, type RouterFixture } from "../../src/router/fixtures.js";
import type { RouterRequest } from "../../src/router/validate-request.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { assertQuoteRelations } from "./quote-relations.js";
import { buildRouterTestApp, type RouterTestApp } from "./router-app.js";

const PATH = "/api/oracle/router";
const NOW = 1_800_000_000_000;
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("POST /api/oracle/router", () => {
  let fixture: RouterFixture;
  let t: RouterTestApp;

  before(async () => {
    fixture = createRouterFixture({ readAtMs: NOW });
    t = await buildRouterTestApp({
      router: createRouter({ registry: fixture.registry }),
      snapshot: fixture.snapshot,
      maxStateAgeMs: 15_000,
      nowMs: NOW + 1000,
    });
  });
  after(async () => {
    await t?.close();
  });

  const request = (
    sourceChain: string,
    sourceSymbol: string,
    destChain: string,
    destSymbol: string,
    amount: string,
  ): RouterRequest => ({
    sourceChain: String(fixture.chain(sourceChain).chainId),
    sourceToken: fixture.token(sourceChain, sourceSymbol).address,
    destChain: String(fixture.chain(destChain).chainId),
    destToken: fixture.token(destChain, destSymbol).address,
    amount,
    to: RECIPIENT,
  });

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: PATH,
      headers: { authorization: t.key, ...headers },
      payload: payload as object,
    });

  async function expectError(payload: unknown, status: number, code: number, msg?: RegExp) {
    const response = await post(payload);
    assert.equal(response.statusCode, status, response.body);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ["code", "msg", "data"]);
    assert.equal(body.code, code, body.msg);
    assert.equal(body.data, null);
    if (msg) assert.match(body.msg, msg);
    return body.msg as string;
  }

  it("default: a direct route answers the success envelope with every relation", async () => {
    const body = request("alpha", "USDC", "beta", "USDC", "1000");
    const response = await post(body);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    const json = response.json();
    assert.equal(json.code, 0);
    assert.equal(json.msg, "success");
    const p = assertQuoteRelations(fixture.registry, body, json.data);
    assert.equal(p.sourceSwap, false);
    assert.equal(p.destSwap, false);
    // 1000 USDC: kind 2 (0.03 % + 0.25 messaging = 0.55) beats kind 1 (0.05 % + 0.5 = 1.0).
    assert.equal(json.data.signData.bridgeType, 2);
    assert.equal(json.data.fee, "0.55");
    assert.equal(json.data.destMaxAmount, "999.45");
    assert.equal(p.destChainId, "40102");
  });

  it("behavior: a repeated request gets the same bytes, headers and metrics as the first", async () => {
    const body = request("alpha", "ETH", "gamma", "GOV", "1.5");
    const first = await post(body);
    const second = await post({ ...body });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(second.body, first.body);
    assert.equal(second.headers["content-type"], "application/json; charset=utf-8");
    assert.equal(second.headers["content-type"], first.headers["content-type"]);
    assert.equal(second.headers["content-length"], first.headers["content-length"]);
    assertQuoteRelations(fixture.registry, body, second.json().data);
  });

  it("behavior: swap routes on either side and both; request strings repeated exactly", async () => {
    const cases: [RouterRequest, boolean, boolean][] = [
      [request("alpha", "ETH", "gamma", "GOV", "1.5"), true, true],
      [request("beta", "ORC", "alpha", "USDC", "37.12345678"), true, false],
      [request("gamma", "USDC", "alpha", "WETH", "2500"), false, true],
      [request("alpha", "DAI", "gamma", "DAI", "4321.000000000000000001"), false, false],
    ];
    // Lowercase and uppercase address forms are echoed as sent.
    cases[0]![0].destToken = cases[0]![0].destToken.toLowerCase();
    cases[1]![0].to = `0x${RECIPIENT.slice(2).toUpperCase()}`;
    for (const [body, sourceSwap, destSwap] of cases) {
      const response = await post(body);
      assert.equal(response.statusCode, 200, response.body);
      const p = assertQuoteRelations(fixture.registry, body, response.json().data);
      assert.equal(p.sourceSwap, sourceSwap, JSON.stringify(body));
      assert.equal(p.destSwap, destSwap, JSON.stringify(body));
    }
    const dai = await post(cases[3]![0]);
    assert.equal(dai.json().data.signData.bridgeType, 0, "DAI goes by lock-and-mint");
    assert.equal(JSON.parse(dai.json().data.signData.params).destChainId, "71003");
  });

  it("behavior: the amount comes back canonical; Bearer keys work; quotes are counted", async () => {
    const before = t.events.length;
    const body = request("alpha", "USDC", "beta", "USDC", "0001000.500000");
    const response = await post(body, { authorization: `Bearer ${t.key}` });
    assert.equal(response.statusCode, 200, response.body);
    const data = response.json().data;
    assert.equal(data.signData.amount, "1000.5");
    assert.equal(JSON.parse(data.signData.params).amount, "1000.5");
    assertQuoteRelations(fixture.registry, body, data);
    assert.deepEqual(t.events.slice(before), [
      {
        ok: true,
        bridgeType: 2,
        sourceChainId: 71001,
        destChainId: 71002,
        sourceSwap: false,
        destSwap: false,
      },
    ]);
  });

  it("error: missing, non-string and malformed fields answer 400 40001 naming the field", async () => {
    const good = request("alpha", "USDC", "beta", "USDC", "10");
    for (const field of Object.keys(good) as (keyof RouterRequest)[]) {
      const { [field]: _, ...rest } = good;
      await expectError(rest, 400, 40001, new RegExp(`^${field} is required`));
      await expectError(
        { ...good, [field]: 10 },
        400,
        40001,
        new RegExp(`^${field} must be a string`),
      );
    }
    await expectError(
      { ...good, sourceChain: "alpha" },
      400,
      40001,
      /sourceChain must be a chain id/,
    );
    await expectError({ ...good, destChain: "-1" }, 400, 40001, /destChain must be a chain id/);
    await expectError(
      { ...good, sourceToken: "0x1234" },
      400,
      40001,
      /sourceToken must be an address/,
    );
    await expectError({ ...good, amount: "1e3" }, 400, 40001, /amount must be a decimal string/);
    await expectError({ ...good, amount: "1." }, 400, 40001, /amount must be a decimal string/);
    const events = t.events.slice(-1)[0];
    assert.deepEqual(events, { ok: false, kind: "invalidParameter", code: 40001 });
  });

  it("error: too many decimals, zero, negative, same chain answer 40001", async () => {
    const good = request("alpha", "USDC", "beta", "USDC", "10");
    await expectError({ ...good, amount: "1.1234567" }, 400, 40001, /amount .*6.*USDC/);
    await expectError({ ...good, amount: "0" }, 400, 40001, /amount must be greater than zero/);
    await expectError({ ...good, amount: "0.000" }, 400, 40001, /greater than zero/);
    await expectError({ ...good, amount: "-1" }, 400, 40001, /amount must be a decimal string/);
    await expectError(
      { ...good, destChain: good.sourceChain },
      400,
      40001,
      /destChain must differ/,
    );
  });

  it("error: an invalid recipient answers 40001", async () => {
    const good = request("alpha", "USDC", "beta", "USDC", "10");
    await expectError({ ...good, to: "0x123" }, 400, 40001, /^to must be an address/);
    const badChecksum = RECIPIENT.replace("C51", "c51");
    await expectError({ ...good, to: badChecksum }, 400, 40001, /to has a mixed-case address/);
    await expectError({ ...good, to: `0x${"0".repeat(40)}` }, 400, 40001, /zero address/);
  });

  it("error: unknown chain or token answers 422 42201", async () => {
    const good = request("alpha", "USDC", "beta", "USDC", "10");
    await expectError({ ...good, destChain: "999" }, 422, 42201, /destChain 999 is not supported/);
    await expectError({ ...good, sourceChain: "1" }, 422, 42201, /sourceChain 1 is not supported/);
    await expectError(
      { ...good, sourceToken: fixture.token("beta", "USDC").address },
      422,
      42201,
      /sourceToken .* is not a supported token on alpha/,
    );
    // GOV exists on beta and gamma only.
    await expectError(
      { ...good, destToken: fixture.token("gamma", "GOV").address },
      422,
      42201,
      /destToken/,
    );
  });

  it("error: below the minimum and above the maximum answer 422 42202 with both limits", async () => {
    const below = await expectError(
      request("alpha", "USDC", "beta", "USDC", "0.5"),
      422,
      42202,
      /amount 0\.5 USDC is outside/,
    );
    assert.match(below, /between 1 and 500000 USDC/);
    const above = await expectError(
      request("alpha", "USDC", "beta", "USDC", "600000"),
      422,
      42202,
      /amount 600000 USDC/,
    );
    assert.match(above, /between 1 and 500000 USDC/);
  });

  it("error: body not JSON, not an object, wrong media type, too large", async () => {
    const raw = (payload: string, contentType: string) =>
      t.app.inject({
        method: "POST",
        url: PATH,
        headers: { authorization: t.key, "content-type": contentType },
        payload,
      });
    const cases: [string, string, number, number][] = [
      ['{"sourceChain":', "application/json", 400, 40002],
      ["[1,2]", "application/json", 400, 40002],
      ['"text"', "application/json", 400, 40002],
      ["", "application/json", 400, 40002],
      ['{"a":1}', "text/plain", 415, 41501],
      ["a=1", "application/x-www-form-urlencoded", 415, 41501],
      [JSON.stringify({ pad: "x".repeat(17 * 1024) }), "application/json", 413, 41301],
    ];
    for (const [payload, type, status, code] of cases) {
      const response = await raw(payload, type);
      assert.equal(
        response.statusCode,
        status,
        `${type} ${payload.slice(0, 20)}: ${response.body}`,
      );
      assert.equal(response.json().code, code);
      assert.equal(response.json().data, null);
    }
  });

  it("error: no key answers 401 40101, an unknown key 401 40102", async () => {
    const body = request("alpha", "USDC", "beta", "USDC", "10");
    const none = await t.app.inject({ method: "POST", url: PATH, payload: body });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 40101);
    const bad = await post(body, { authorization: `bo_${"A".repeat(43)}` });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json().code, 40102);
  });

  it("error: state older than ROUTER_MAX_STATE_AGE_MS answers 503 50301", async () => {
    const body = request("alpha", "USDC", "beta", "USDC", "10");
    try {
      t.setNow(NOW + 15_000);
      assert.equal((await post(body)).statusCode, 200, "exactly at the bound is fresh");
      t.setNow(NOW + 15_001);
      await expectError(
        body,
        503,
        50301,
        /state of chain alpha \(71001\) was read 15 s ago; retry/,
      );
    } finally {
      t.setNow(NOW + 1000);
    }
  });

  it("behavior: no key-store, database or chain call per request; one snapshot read each", async () => {
    const keyCalls = t.keys.totalCalls();
    const storeCalls = t.storeCalls();
    const reads = t.stateReads();
    const body = request("alpha", "ETH", "gamma", "GOV", "1.5");
    for (let i = 0; i < 50; i++) assert.equal((await post(body)).statusCode, 200);
    assert.equal(t.keys.totalCalls(), keyCalls, "no api_keys query");
    assert.equal(t.storeCalls(), storeCalls, "no store call");
    assert.equal(t.stateReads() - reads, 50, "state.current() once per request");
  });
});

describe("POST /api/oracle/router without a registry", () => {
  it("error: answers 503 50301 'no chains configured for routing'", async () => {
    const t = await buildRouterTestApp({ router: undefined, snapshot: { chains: new Map() } });
    try {
      const response = await t.app.inject({
        method: "POST",
        url: PATH,
        headers: { authorization: t.key },
        payload: { sourceChain: "1" },
      });
      assert.equal(response.statusCode, 503);
      assert.deepEqual(response.json(), { code: 50301, msg: NO_CHAINS_MESSAGE, data: null });
    } finally {
      await t.close();
    }
  });
});

describe("POST /api/oracle/router rate limit", () => {
  it("error: over the key's limit answers 429 42901 with Retry-After", async () => {
    const fixture = createRouterFixture({ readAtMs: NOW });
    const t = await buildRouterTestApp({
      router: createRouter({ registry: fixture.registry }),
      snapshot: fixture.snapshot,
      nowMs: NOW,
      keyPerMinute: 2,
    });
    try {
      const send = () =>
        t.app.inject({ method: "POST", url: PATH, headers: { authorization: t.key }, payload: {} });
      assert.equal((await send()).statusCode, 400);
      assert.equal((await send()).statusCode, 400);
      const limited = await send();
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 42901);
      assert.ok(
        Number(limited.headers["retry-after"]) >= 1,
        'Number(limited.headers["retry-after"]) >= 1',
      );
    } finally {
      await t.close();
    }
  });
});

describe("serve with a bad router configuration", () => {
  async function serveStderr(
    env: Record<string, string>,
  ): Promise<{ code: number; stderr: string }> {
    const { value: code, stderr } = await captureStderr(() =>
      serve([], { env: { LOG_LEVEL: "silent", ...env }, stopSignal: new Promise(() => {}) }),
    );
    return { code, stderr };
  }

  it("error: an unreadable, invalid or RPC-less registry exits 1 naming the problem", async () => {
    const dir = await mkdtemp(join(tmpdir(), "router-serve-config-"));
    try {
      const db = join(dir, "db.sqlite");
      const missing = await serveStderr({
        DATABASE_URL: db,
        ROUTER_CONFIG: join(dir, "none.json"),
      });
      assert.equal(missing.code, 1);
      assert.match(
        missing.stderr,
        /^router configuration error: cannot read registry file .*none\.json/,
      );
      // Refused before the database opens: nothing is created or migrated.
      assert.equal(existsSync(db), false, "database file created");
      const invalid = join(dir, "invalid.json");
      await writeFile(invalid, JSON.stringify({ chains: [], links: [] }));
      const bad = await serveStderr({ DATABASE_URL: db, ROUTER_CONFIG: invalid });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /invalid registry: chains must list at least one chain/);
      const badRpc = join(dir, "bad-rpc.json");
      const withBadRpc = createRouterFixture().registryJson as { chains: { rpcUrl?: string }[] };
      for (const chain of withBadRpc.chains) chain.rpcUrl = "http://user:pw@127.0.0.1:99999/v3/K";
      await writeFile(badRpc, JSON.stringify(withBadRpc));
      const unusable = await serveStderr({ DATABASE_URL: db, ROUTER_CONFIG: badRpc });
      assert.equal(unusable.code, 1);
      assert.match(unusable.stderr, /chains\[0\] \(alpha\)\.rpcUrl must be a valid http\(s\) URL/);
      assert.equal(unusable.stderr.includes("pw@"), false, unusable.stderr);
      const noRpc = join(dir, "no-rpc.json");
      await writeFile(noRpc, JSON.stringify(createRouterFixture().registryJson));
      const rpcless = await serveStderr({ DATABASE_URL: db, ROUTER_CONFIG: noRpc });
      assert.equal(rpcless.code, 1);
      assert.match(rpcless.stderr, /chain alpha \(71001\) has no rpcUrl in the registry/);
      const slippage = await serveStderr({ DATABASE_URL: db, ROUTER_SLIPPAGE_BPS: "x" });
      assert.equal(slippage.code, 1);
      assert.match(slippage.stderr, /configuration error: ROUTER_SLIPPAGE_BPS must be an integer/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
