/**
 * Every response the API really sends matches the OpenAPI document it serves (the other half of
 * openapi.test.ts, which checks the document's own shape). The app is the one `serve` builds
 * (API-key auth, rate limits, the router over a fixture snapshot, /readyz's router check over a
 * chain state provider and its indexer check over indexer_chains rows) over a real SQLite store;
 * each documented operation is driven through its success and every error it can give, and each
 * answer is checked with openapi-conformance.ts: status declared, required headers there,
 * content type declared, body valid against the declared schema. The last test asks that every
 * status the document declares for an operation was produced here (a few cannot be, and say
 * why), so the document neither omits an answer nor promises one that cannot happen.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, InjectOptions } from "fastify";
import { indexerReadinessCheck } from "../../src/api/indexer-readiness.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { DISCOVERY_PATHS } from "../../src/api/routes/discovery.js";
import { LIST_TRANSFERS_PATH } from "../../src/api/routes/list-transfers.js";
import {
  ROUTER_QUOTE_PATH,
  type RouterRouteDeps,
  routerReadinessCheck,
} from "../../src/api/routes/router-quote.js";
import { LATEST_STREAM_PATH, TRANSFER_STREAM_PATH } from "../../src/api/routes/transfer-stream.js";
import { formatUtc } from "../../src/domain/utc-time.js";
import { ErrorCode } from "../../src/errors.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
} from "../../src/router/providers/chain-state-provider.js";
import { createStore, type Database, openDatabase } from "../../src/store/index.js";
import type { IndexerChainRow } from "../../src/store/indexer-repository.js";
import { NoAnswerError } from "../../src/store/store-unavailable.js";
import type { Store } from "../../src/store/types.js";
import { createMemoryApiKeyRepository } from "../keys/memory-api-key-repository.js";
import { fakeChain } from "../router/fake-state-client.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { listenOnLoopback } from "../setup/listen.js";
import { rawRequest } from "../setup/raw-request.js";
import { evmAddress, makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";
import {
  createConformanceChecker,
  documentedStatus,
  type OpenApiDocument,
  type SentResponse,
} from "./openapi-conformance.js";
import { buildTestApp } from "./setup.js";

const NOW = 1_800_000_000_000;
const ALICE = evmAddress("openapi-alice");
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ANONYMOUS_PER_MINUTE = 5;

/** Failures the tests switch on and off, below the real store and the router. */
const faults = {
  list: undefined as Error | undefined,
  /** The explorer's activity reads (latest, summary, timeline). */
  activity: undefined as Error | undefined,
  ready: undefined as Error | undefined,
  state: undefined as Error | undefined,
  changes: undefined as Error | undefined,
};

/**
 * Documented statuses no request here can produce, and why. Anything else the document declares
 * must be produced by a test below.
 */
const NOT_PRODUCED: Record<string, string> = {
  "get /healthz 500": "the catch-all of every operation; the handler cannot fail",
  "get /readyz 500": "the catch-all; a failing check is a 503",
  "get /readyz/router 500": "the catch-all; a failing check is a 503",
  "get /metrics 500": "the catch-all; a failing indexer status still answers 200",
  "get /healthz 503": "only while the server shuts down (server.test.ts)",
  "get /metrics 503": "only while the server shuts down (server.test.ts)",
  "get /api/oracle/chains 500":
    "the catch-all; the registry is in memory and a failing indexer status read answers null",
  "get /api/oracle/tokens 500": "the catch-all; the registry is in memory",
  "get /api/oracle/chains 503": "only while the server shuts down (server.test.ts)",
  "get /api/oracle/tokens 503": "only while the server shuts down (server.test.ts)",
  "get /api/oracle/connections 503": "only while the server shuts down (server.test.ts)",
  "get /api/oracle/bridge-transactions/stream 200":
    "an event stream that never ends, which inject cannot wait for (transfer-stream.test.ts)",
  "get /api/oracle/bridge-transactions/latest/stream 200":
    "an event stream that never ends, which inject cannot wait for (transfer-stream.test.ts)",
};

const ACTIVITY_READS = new Set(["latestTransfers", "transfersStartedSince", "getTransfer"]);

/** `signData.params` in the document: a string whose JSON content has its own schema. */
interface ParamsSchema {
  type: string;
  "x-contentMediaType": string;
  "x-contentSchema": Record<string, unknown>;
}

/** A copy of `value` with the value at `path` replaced (left out when `replacement` is undefined). */
function withValue(
  value: unknown,
  path: readonly (string | number)[],
  replacement: unknown,
): Record<string, unknown> {
  const copy = structuredClone(value) as Record<string, unknown>;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Each request comes from its own address unless told, so only the 429 case hits the limit. */
let addressSequence = 0;
const nextAddress = () => `10.77.${Math.floor(++addressSequence / 250)}.${addressSequence % 250}`;

describe("OpenAPI conformance: every response matches the served document", () => {
  let db: IsolatedDatabase;
  let store: Store;
  let indexerStore: Database;
  let provider: ChainStateProvider;
  let app: FastifyInstance;
  let doc: OpenApiDocument;
  let checker: ReturnType<typeof createConformanceChecker>;
  let key: string;
  /** `get /healthz 200`, ...: what expectDocumented has seen. */
  const produced = new Set<string>();
  const fixture = createRouterFixture({ readAtMs: NOW });
  let clock = NOW + 1000;
  const routerDeps: RouterRouteDeps = {
    router: createRouter({ registry: fixture.registry }),
    state: {
      current: () => {
        if (faults.state !== undefined) throw faults.state;
        return fixture.snapshot;
      },
    },
    maxStateAgeMs: 15_000,
    now: () => clock,
  };
  const goodQuote = {
    sourceChain: String(fixture.chain("alpha").chainId),
    sourceToken: fixture.token("alpha", "USDC").address,
    destChain: String(fixture.chain("beta").chainId),
    destToken: fixture.token("beta", "USDC").address,
    amount: "10",
    to: RECIPIENT,
  };

  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    const real = await createStore({ databaseUrl: db.databaseUrl });
    await real.transfers.upsertTransfers([
      makeTransfer({ from_address: ALICE }),
      makeProcessingTransfer({ to_address: ALICE }),
    ]);
    // The real store, with a list read or a ping that fails on demand.
    store = new Proxy(real, {
      get(target, name, receiver) {
        if (name === "ping") {
          return async (options?: { timeoutMs?: number }) => {
            if (faults.ready !== undefined) throw faults.ready;
            return target.ping(options);
          };
        }
        if (name === "transferChanges") {
          // Checked per call: the app's change feed holds this object from the start.
          return new Proxy(target.transferChanges, {
            get(changes, method, r) {
              const error = faults.changes;
              if (error === undefined) return Reflect.get(changes, method, r);
              return async () => {
                throw error;
              };
            },
          });
        }
        if (name === "transfers") {
          return new Proxy(target.transfers, {
            get(transfers, method, r) {
              const fault =
                method === "listTransfers"
                  ? faults.list
                  : typeof method === "string" && ACTIVITY_READS.has(method)
                    ? faults.activity
                    : undefined;
              if (fault !== undefined) {
                return async () => {
                  throw fault;
                };
              }
              return Reflect.get(transfers, method, r);
            },
          });
        }
        return Reflect.get(target, name, receiver);
      },
    });
    const keys = createMemoryApiKeyRepository();
    const generated = generateApiKey();
    await keys.createKey({
      name: "openapi",
      prefix: generated.prefix,
      hash: generated.hash,
      createdAt: new Date(),
    });
    key = generated.key;
    // /readyz as serve wires it: the router's check over a chain state provider (fake RPC
    // clients answering from the fixture; gamma's RPC is down, so gamma is never read and
    // reports nulls), the indexer's over the indexer_chains rows of this database (none yet).
    const fakes = fixture.registry.chains.map((c) => fakeChain(fixture, c.chainId));
    const gamma = fixture.chain("gamma").chainId;
    const down = fakes[fixture.registry.chains.findIndex((c) => c.chainId === gamma)];
    assert.ok(down !== undefined, "down !== undefined");
    down.fail = new Error("connect ECONNREFUSED 127.0.0.1:8547");
    provider = createChainStateProvider({
      registry: fixture.registry,
      maxStateAgeMs: routerDeps.maxStateAgeMs,
      clients: new Map(fixture.registry.chains.map((c, i) => [c.chainId, fakes[i]!.client])),
      // The test moves the clock itself; no poll or retry runs while it does.
      pollIntervalMs: 3_600_000,
      backoffBaseMs: 3_600_000,
      backoffMaxMs: 3_600_000,
      now: () => clock,
    });
    await provider.start();
    indexerStore = await openDatabase(db.databaseUrl);
    ({ app } = await buildTestApp(store, {
      logLevel: "silent",
      plugins: [
        (a) => registerApiKeyAuth(a, { repository: keys, refreshIntervalMs: 60_000 }),
        (a) => registerRateLimit(a, { anonymousPerMinute: ANONYMOUS_PER_MINUTE, keyPerMinute: 0 }),
      ],
      router: routerDeps,
      indexerStatus: () => indexerStore.indexer.getIndexerStatus(),
      readinessChecks: [
        routerReadinessCheck(provider),
        indexerReadinessCheck(() => indexerStore.indexer.getIndexerStatus()),
      ],
    }));
    await app.ready();
    const response = await app.inject({ url: "/openapi.json" });
    doc = response.json() as OpenApiDocument;
    checker = createConformanceChecker(doc);
  });
  after(async () => {
    await app?.close();
    await provider?.stop();
    await indexerStore?.close();
    await store?.close();
    await db?.cleanup();
  });

  /**
   * Sends `options` as an answer of the documented `method path`, asserts the status (and code)
   * the test means to produce, and that the answer matches the document.
   */
  async function expectDocumented(
    method: "GET" | "POST",
    path: string,
    options: InjectOptions,
    status: number,
    code?: number,
  ): Promise<SentResponse & { json(): { code: number; data: Record<string, unknown> } }> {
    const response = await app.inject({
      method,
      remoteAddress: nextAddress(),
      ...options,
      url: options.url ?? path,
    });
    const label = `${method} ${String(options.url ?? path)} -> ${response.statusCode}`;
    assert.equal(response.statusCode, status, `${label}: ${response.body}`);
    if (code !== undefined) assert.equal(response.json().code, code, `${label}: ${response.body}`);
    assert.deepEqual(checker.problems(method, path, response), [], label);
    produced.add(
      `${method.toLowerCase()} ${path} ${documentedStatus(checker.operationOf(method, path), response.statusCode)}`,
    );
    assert.ok(response.headers["x-request-id"], `${label}: x-request-id`);
    return response;
  }

  const list = (query: string, options: InjectOptions = {}) => ({
    ...options,
    url: `${LIST_TRANSFERS_PATH}?${query}`,
  });
  const quote = (payload: unknown, headers: Record<string, string> = {}): InjectOptions => ({
    headers: { authorization: key, ...headers },
    payload: payload as object,
  });

  it("list: success, empty page, each 400, 401, 429, 500 and 503", async () => {
    const ok = await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(`addressOrTxHash=${ALICE}&pageNo=1&pageSize=10`),
      200,
      0,
    );
    assert.equal(ok.json().data["total"], 2);
    await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(`addressOrTxHash=${ALICE}&pageNo=1&pageSize=10`, {
        headers: { authorization: `Bearer ${key}` },
      }),
      200,
      0,
    );
    await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(`addressOrTxHash=${evmAddress("nobody")}&pageNo=1&pageSize=10`),
      200,
      0,
    );
    for (const query of [
      "pageNo=1&pageSize=10",
      `addressOrTxHash=${ALICE}&pageNo=0&pageSize=10`,
      `addressOrTxHash=${ALICE}&pageNo=1&pageSize=500`,
      `addressOrTxHash=${ALICE}&pageNo=1&pageSize=10&sortName=nope`,
      `addressOrTxHash=${ALICE}&pageNo=1&pageSize=10&sortOrder=up`,
      `addressOrTxHash=${ALICE}&addressOrTxHash=x&pageNo=1&pageSize=10`,
      `addressOrTxHash=%ZZ&pageNo=1&pageSize=10`,
    ]) {
      await expectDocumented("GET", LIST_TRANSFERS_PATH, list(query), 400, 40001);
    }
    const query = `addressOrTxHash=${ALICE}&pageNo=1&pageSize=10`;
    await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(query, { headers: { authorization: "Bearer not-a-key" } }),
      401,
      40102,
    );
    await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(query, { headers: { authorization: generateApiKey().key } }),
      401,
      40102,
    );
    const limited = { remoteAddress: "10.99.0.1" };
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      await expectDocumented("GET", LIST_TRANSFERS_PATH, list(query, limited), 200);
    }
    const refused = await expectDocumented(
      "GET",
      LIST_TRANSFERS_PATH,
      list(query, limited),
      429,
      42901,
    );
    assert.ok(refused.headers["retry-after"], 'refused.headers["retry-after"]');

    // Fresh queries: an answer the list cache holds would not reach the store.
    try {
      faults.list = new Error("boom: a bug below the route");
      await expectDocumented("GET", LIST_TRANSFERS_PATH, list(`${query}&fault=1`), 500, 50001);
      faults.list = new NoAnswerError("the database", 5000);
      const unavailable = await expectDocumented(
        "GET",
        LIST_TRANSFERS_PATH,
        list(`${query}&fault=2`),
        503,
        50301,
      );
      assert.equal(unavailable.headers["retry-after"], "1");
    } finally {
      faults.list = undefined;
    }
  });

  it("explorer activity: latest, summary and timeline with their 400, 401, 404, 429, 500 and 503", async () => {
    const timelinePath = `${LIST_TRANSFERS_PATH}/{id}/timeline`;
    const [known] = (
      await expectDocumented("GET", `${LIST_TRANSFERS_PATH}/latest`, {}, 200, 0)
    ).json().data["data"] as { message_id: string }[];
    assert.ok(known, "known");
    const timeline = (id: string): InjectOptions => ({
      url: `${LIST_TRANSFERS_PATH}/${id}/timeline`,
    });
    const cases: [string, InjectOptions][] = [
      [`${LIST_TRANSFERS_PATH}/latest`, { url: `${LIST_TRANSFERS_PATH}/latest?limit=5` }],
      ["/api/oracle/stats/summary", {}],
      [timelinePath, timeline(known.message_id)],
    ];
    // 500 and 503 first: the summary keeps a successful answer for a few seconds.
    for (const [i, [path, options]] of cases.entries()) {
      try {
        faults.activity = new Error("boom: a bug below the route");
        await expectDocumented("GET", path, options, 500, 50001);
        faults.activity = new NoAnswerError("the database", 5000);
        await expectDocumented("GET", path, options, 503, 50301);
      } finally {
        faults.activity = undefined;
      }
      await expectDocumented("GET", path, options, 200, 0);
      const badKey = { ...options, headers: { authorization: "Bearer not-a-key" } };
      await expectDocumented("GET", path, badKey, 401, 40102);
      const limited = { ...options, remoteAddress: `10.98.${i}.1` };
      for (let n = 0; n < ANONYMOUS_PER_MINUTE; n++) {
        await expectDocumented("GET", path, limited, 200);
      }
      await expectDocumented("GET", path, limited, 429, 42901);
    }
    await expectDocumented(
      "GET",
      `${LIST_TRANSFERS_PATH}/latest`,
      { url: `${LIST_TRANSFERS_PATH}/latest?limit=0` },
      400,
      40001,
    );
    await expectDocumented("GET", timelinePath, timeline(ALICE), 400, 40001);
    await expectDocumented("GET", timelinePath, timeline(`0x${"0".repeat(64)}`), 404, 40401);
    // The feed answers a conditional request for an unchanged page with 304 and no body.
    const latest = `${LIST_TRANSFERS_PATH}/latest`;
    const first = await expectDocumented("GET", latest, { url: latest }, 200, 0);
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/"/);
    const unchanged = await expectDocumented(
      "GET",
      latest,
      { url: latest, headers: { "if-none-match": etag } },
      304,
    );
    assert.equal(unchanged.body, "");
  });

  it("stream: 400, 401, 429, 500 and 503 in the envelope before the stream starts", async () => {
    const url = (query: string, options: InjectOptions = {}) => ({
      ...options,
      url: `${TRANSFER_STREAM_PATH}?${query}`,
    });
    await expectDocumented("GET", TRANSFER_STREAM_PATH, url("addressOrTxHash=%20"), 400, 40001);
    const badKey = { headers: { authorization: "Bearer not-a-key" } };
    await expectDocumented(
      "GET",
      TRANSFER_STREAM_PATH,
      url(`addressOrTxHash=${ALICE}`, badKey),
      401,
      40102,
    );
    // Each stream opened counts against the rate limit like a list request.
    const limited = { remoteAddress: "10.98.0.9" };
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      await expectDocumented("GET", TRANSFER_STREAM_PATH, url("addressOrTxHash=", limited), 400);
    }
    await expectDocumented(
      "GET",
      TRANSFER_STREAM_PATH,
      url(`addressOrTxHash=${ALICE}`, limited),
      429,
      42901,
    );
    await expectDocumented(
      "GET",
      TRANSFER_STREAM_PATH,
      url(`addressOrTxHash=${ALICE}&since=x`),
      400,
      40001,
    );
    try {
      faults.changes = new Error("boom: a bug below the route");
      await expectDocumented(
        "GET",
        TRANSFER_STREAM_PATH,
        url(`addressOrTxHash=${ALICE}`),
        500,
        50001,
      );
      faults.changes = new NoAnswerError("the database", 5000);
      const unavailable = await expectDocumented(
        "GET",
        TRANSFER_STREAM_PATH,
        url(`addressOrTxHash=${ALICE}`),
        503,
        50301,
      );
      assert.equal(unavailable.headers["retry-after"], "1");
    } finally {
      faults.changes = undefined;
    }
  });

  it("latest stream: 400, 401, 429, 500 and 503 in the envelope before the stream starts", async () => {
    const path = LATEST_STREAM_PATH;
    await expectDocumented("GET", path, { url: `${path}?since=x` }, 400, 40001);
    const badKey = { url: path, headers: { authorization: "Bearer not-a-key" } };
    await expectDocumented("GET", path, badKey, 401, 40102);
    const limited = { url: `${path}?since=x`, remoteAddress: "10.98.0.10" };
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      await expectDocumented("GET", path, limited, 400);
    }
    await expectDocumented("GET", path, { ...limited, url: path }, 429, 42901);
    try {
      faults.changes = new Error("boom: a bug below the route");
      await expectDocumented("GET", path, { url: path }, 500, 50001);
      faults.changes = new NoAnswerError("the database", 5000);
      await expectDocumented("GET", path, { url: path }, 503, 50301);
    } finally {
      faults.changes = undefined;
    }
  });

  it("router: success, 400 40001 / 40002, 401 40101 / 40102, 413, 415, 422, 429, 500, 503", async () => {
    const ok = await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(goodQuote), 200, 0);
    const signData = ok.json().data["signData"] as { params: unknown };
    assert.equal(typeof signData.params, "string");
    // The amounts and the bridge address have a shape the document states; these break it.
    const okSchema = checker.operationOf("POST", ROUTER_QUOTE_PATH).responses["200"]?.content?.[
      "application/json"
    ]?.schema as Record<string, unknown>;
    for (const [label, path, value] of [
      ["a non-canonical destMinAmount", ["data", "destMinAmount"], "1.50"],
      ["destMaxAmount in exponent form", ["data", "destMaxAmount"], "1e3"],
      ["a negative fee", ["data", "fee"], "-1"],
      ["signData.amount with a leading zero", ["data", "signData", "amount"], "01"],
      ["a bridge that is not an address", ["data", "signData", "bridge"], "bridge"],
      [
        "chainId of the transaction as a string",
        ["data", "transactionRequest", "chainId"],
        "71001",
      ],
      ["value as a decimal", ["data", "transactionRequest", "value"], "10"],
      ["approval without its token", ["data", "approval", "token"], undefined],
      ["a state block as a string", ["data", "stateBlocks", "71001"], "100"],
      ["expiresAt in ISO form", ["data", "expiresAt"], "2026-11-26T12:00:00Z"],
      ["estimatedDuration missing", ["data", "estimatedDuration"], undefined],
      ["a partial estimate", ["data", "estimatedDuration"], { p50Seconds: 3 }],
    ] as const) {
      const mutated = withValue(ok.json() as Record<string, unknown>, path, value);
      assert.notDeepEqual(checker.schemaProblems(okSchema, mutated), [], label);
    }
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      quote(goodQuote, { authorization: `Bearer ${key}` }),
      200,
      0,
    );
    for (const payload of [
      { ...goodQuote, amount: "1e3" },
      { ...goodQuote, amount: undefined },
      { ...goodQuote, to: "0x123" },
    ]) {
      await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(payload), 400, 40001);
    }
    const raw = (payload: string, contentType = "application/json"): InjectOptions => ({
      headers: { authorization: key, "content-type": contentType },
      payload,
    });
    for (const payload of ["{", "[1]", "null", '"x"', ""]) {
      await expectDocumented("POST", ROUTER_QUOTE_PATH, raw(payload), 400, 40002);
    }
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      raw(JSON.stringify(goodQuote), "text/plain"),
      415,
      41501,
    );
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      raw(JSON.stringify({ ...goodQuote, pad: "x".repeat(20_000) })),
      413,
      41301,
    );
    await expectDocumented("POST", ROUTER_QUOTE_PATH, { payload: goodQuote }, 401, 40101);
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      quote(goodQuote, { authorization: generateApiKey().key }),
      401,
      40102,
    );
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      quote({ ...goodQuote, destChain: "999" }),
      422,
      42201,
    );
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      quote({ ...goodQuote, amount: "600000" }),
      422,
      42202,
    );
    // Anonymous callers are limited before the missing key is refused.
    const limited = { remoteAddress: "10.99.0.2" };
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      await expectDocumented("POST", ROUTER_QUOTE_PATH, { ...limited, payload: goodQuote }, 401);
    }
    await expectDocumented(
      "POST",
      ROUTER_QUOTE_PATH,
      { ...limited, payload: goodQuote },
      429,
      42901,
    );

    try {
      faults.state = new Error("boom: the state provider has a bug");
      await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(goodQuote), 500, 50001);
    } finally {
      faults.state = undefined;
    }
    const { router } = routerDeps;
    try {
      clock = NOW + 60_000;
      await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(goodQuote), 503, 50301);
      routerDeps.router = undefined;
      await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(goodQuote), 503, 50301);
    } finally {
      routerDeps.router = router;
      clock = NOW + 1000;
    }
  });

  it("router: JSON.parse(signData.params) validates against the params' x-contentSchema; a mutated one does not", async () => {
    const operation = checker.operationOf("POST", ROUTER_QUOTE_PATH);
    const quoteSchema = operation.responses["200"]?.content?.["application/json"]?.schema as {
      properties: { data: { properties: { signData: { properties: { params: ParamsSchema } } } } };
    };
    const paramsSchema = quoteSchema.properties.data.properties.signData.properties.params;
    // The serialiser's view: a plain string. The document's: JSON text of RouteQuoteParams.
    assert.equal(paramsSchema.type, "string");
    assert.equal(paramsSchema["x-contentMediaType"], "application/json");
    const contentSchema = paramsSchema["x-contentSchema"];
    assert.deepEqual(contentSchema, { $ref: "#/components/schemas/RouteQuoteParams" });

    // No swap (DAI to DAI over the lock-and-mint bridge), and a swap on each side (the native
    // coin to ORC: swap fees and minimums).
    const direct = {
      ...goodQuote,
      sourceToken: fixture.token("alpha", "DAI").address,
      destToken: fixture.token("beta", "DAI").address,
    };
    const swapped = {
      ...goodQuote,
      sourceToken: "0x0000000000000000000000000000000000000000",
      destToken: fixture.token("beta", "ORC").address,
      amount: "0.5",
    };
    let decoded: Record<string, unknown> | undefined;
    for (const [payload, swaps] of [
      [direct, false],
      [swapped, true],
    ] as const) {
      const response = await expectDocumented("POST", ROUTER_QUOTE_PATH, quote(payload), 200, 0);
      const { params } = response.json().data["signData"] as { params: string };
      assert.equal(typeof params, "string");
      decoded = JSON.parse(params) as Record<string, unknown>;
      // Sent as JSON.stringify wrote it: the serialiser did not touch the string.
      assert.equal(JSON.stringify(decoded), params);
      assert.equal(decoded["sourceSwap"], swaps);
      assert.equal(decoded["destSwap"], swaps);
      assert.deepEqual(checker.schemaProblems(contentSchema, decoded), [], params);
    }
    assert.ok(decoded !== undefined, "decoded !== undefined");
    assert.match(String(decoded["sourceSwapFee"]), /^0\.[0-9]*[1-9]$/);

    // The check can fail: each of these breaks one rule of the schema (undefined: left out).
    for (const [label, field, value] of [
      ["destChainId as a number", "destChainId", Number(decoded["destChainId"])],
      ["a non-canonical amount", "amount", "0.50"],
      ["an amount in exponent form", "fee", "1e-3"],
      ["a short address", "sourceBridgeToken", "0x1234"],
      ["sourceSwap as a string", "sourceSwap", "true"],
      ["destMinAmount missing", "destMinAmount", undefined],
      ["an undeclared field", "bridgeType", 1],
    ] as const) {
      const mutated = withValue(decoded, [field], value);
      assert.notDeepEqual(checker.schemaProblems(contentSchema, mutated), [], label);
    }
  });

  it("probes: /healthz and /readyz succeed, whatever Authorization says; /readyz 503s", async () => {
    await expectDocumented("GET", "/healthz", {}, 200, 0);
    await expectDocumented("GET", "/readyz", {}, 200, 0);
    for (const path of ["/healthz", "/readyz"]) {
      await expectDocumented(
        "GET",
        path,
        { headers: { authorization: generateApiKey().key } },
        200,
        0,
      );
      await expectDocumented("GET", path, { headers: { authorization: key } }, 200, 0);
    }
    try {
      faults.ready = new Error("connect ECONNREFUSED 127.0.0.1:5432");
      await expectDocumented("GET", "/readyz", {}, 503, 50301);
    } finally {
      faults.ready = undefined;
    }
  });

  it("/readyz: the router's chains and the indexer's summary match the document, ready or not", async () => {
    // No indexer rows yet: the indexer check reports nothing, so there is no indexer key.
    const first = await expectDocumented("GET", "/readyz", {}, 200, 0);
    assert.deepEqual(Object.keys(first.json().data), ["status", "database", "router"]);
    assert.deepEqual(first.json().data["router"], [
      { chainId: 71001, name: "alpha", blockNumber: "100", ageMs: 0, fresh: true },
      { chainId: 71002, name: "beta", blockNumber: "100", ageMs: 0, fresh: true },
      // gamma's RPC is down: never read.
      { chainId: 71003, name: "gamma", blockNumber: null, ageMs: null, fresh: false },
    ]);

    const row = (over: Partial<IndexerChainRow>): IndexerChainRow => ({
      chainId: 71001,
      name: "alpha",
      startBlock: 0,
      cursorBlock: 120,
      cursorHash: `0x${"11".repeat(32)}`,
      headBlock: 126,
      targetBlock: 124,
      state: "following",
      error: "",
      updatedAt: formatUtc(Math.floor(Date.now() / 1000)),
      ...over,
    });
    // beta has not stored its first batch (start block 0: indexed block -1).
    const beta = row({ chainId: 71002, name: "beta", cursorBlock: -1, headBlock: 30 });
    for (const r of [row({}), { ...beta, targetBlock: 30, state: "backfill" as const }]) {
      await indexerStore.transaction((tx) => tx.indexer.ensureChain(r));
    }
    const ready = await expectDocumented("GET", "/readyz", {}, 200, 0);
    const indexer = ready.json().data["indexer"] as {
      ready: boolean;
      chains: Record<string, unknown>[];
    };
    assert.equal(indexer.ready, true);
    assert.deepEqual(
      indexer.chains.map((c) => [c["chain"], c["indexedBlock"], c["head"], c["lag"], c["state"]]),
      [
        ["alpha", 120, 126, 4, "following"],
        ["beta", -1, 30, 31, "backfill"],
      ],
    );

    // The check can fail: each of these breaks one rule of the document (undefined: left out).
    const router0 = ["data", "router", 0];
    const chain0 = ["data", "indexer", "chains", 0];
    for (const [label, path, value] of [
      ["an undeclared check key", ["data", "chains"], []],
      ["blockNumber as a number", [...router0, "blockNumber"], 100],
      ["ageMs missing", [...router0, "ageMs"], undefined],
      ["an undeclared router field", [...router0, "consecutiveFailures"], 0],
      ["lag as a string", [...chain0, "lag"], "4"],
      ["an unknown state", [...chain0, "state"], "syncing"],
      ["head missing", [...chain0, "head"], undefined],
      ["ready false in a 200", ["data", "indexer", "ready"], false],
    ] as const) {
      const body = JSON.stringify(withValue(JSON.parse(ready.body), path, value));
      const sent = { statusCode: 200, headers: ready.headers, body };
      assert.notDeepEqual(checker.problems("GET", "/readyz", sent), [], label);
    }

    // Not ready, one check at a time: each 503 is the documented error envelope.
    const stopped = {
      headBlock: 126,
      targetBlock: 124,
      state: "stopped" as const,
      error: "reorg deeper than finalityDepth 64",
      updatedAt: formatUtc(Math.floor(Date.now() / 1000)),
    };
    await indexerStore.transaction((tx) => tx.indexer.updateProgress(71001, stopped));
    const indexerDown = await expectDocumented("GET", "/readyz", {}, 503, 50301);
    assert.match(
      indexerDown.body,
      /not ready: indexer: chain alpha stopped: reorg deeper than finalityDepth 64/,
    );
    await indexerStore.transaction((tx) =>
      tx.indexer.updateProgress(71001, { ...stopped, state: "following", error: "" }),
    );
    await expectDocumented("GET", "/readyz", {}, 200, 0);
    await expectDocumented("GET", "/readyz/router", {}, 200, 0);
    try {
      clock = NOW + 60_000;
      const routerDown = await expectDocumented("GET", "/readyz", {}, 503, 50301);
      await expectDocumented("GET", "/readyz/router", {}, 503, 50301);
      assert.match(
        routerDown.body,
        /not ready: no chain state fresher than 15000 ms for the router \(alpha read 59 s ago, beta read 59 s ago, gamma not read yet\)/,
      );
    } finally {
      clock = NOW + 1000;
    }
  });

  it("discovery: chains, tokens and connections succeed; 400 40001, 401 40102, 429, 500", async () => {
    // After the /readyz test: alpha and beta have indexer rows, gamma none.
    const chains = await expectDocumented("GET", DISCOVERY_PATHS.chains, {}, 200, 0);
    const listed = chains.json().data["chains"] as { name: string; indexer: unknown }[];
    assert.deepEqual(
      listed.map((c) => [c.name, c.indexer === null]),
      [
        ["alpha", false],
        ["beta", false],
        ["gamma", true],
      ],
    );
    await expectDocumented("GET", DISCOVERY_PATHS.tokens, {}, 200, 0);
    await expectDocumented(
      "GET",
      DISCOVERY_PATHS.tokens,
      { url: `${DISCOVERY_PATHS.tokens}?chainId=71002` },
      200,
      0,
    );
    const connections = await expectDocumented(
      "GET",
      DISCOVERY_PATHS.connections,
      { url: `${DISCOVERY_PATHS.connections}?sourceChain=71001` },
      200,
      0,
    );
    // The route's state is the fixture snapshot: every connection has its limits and fees.
    const bridges = (
      connections.json().data["connections"] as { destChain: number; bridges: { fee: unknown }[] }[]
    ).map((c) => [c.destChain, c.bridges.every((b) => b.fee === null)]);
    assert.deepEqual(bridges, [
      [71002, false],
      [71003, false],
    ]);
    for (const url of [
      `${DISCOVERY_PATHS.tokens}?chainId=alpha`,
      `${DISCOVERY_PATHS.tokens}?chainId=1`,
      `${DISCOVERY_PATHS.connections}?destChain=-1`,
      `${DISCOVERY_PATHS.connections}?sourceChain=71001&sourceChain=71002`,
    ]) {
      await expectDocumented("GET", url.split("?")[0]!, { url }, 400, 40001);
    }
    for (const [i, path] of Object.values(DISCOVERY_PATHS).entries()) {
      await expectDocumented(
        "GET",
        path,
        { headers: { authorization: generateApiKey().key } },
        401,
        40102,
      );
      const limited = { remoteAddress: `10.99.1.${i}` };
      for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
        await expectDocumented("GET", path, limited, 200);
      }
      await expectDocumented("GET", path, limited, 429, 42901);
    }
    try {
      faults.state = new Error("boom: a bug below the route");
      await expectDocumented("GET", DISCOVERY_PATHS.connections, {}, 500, 50001);
    } finally {
      faults.state = undefined;
    }
    // The check can fail: a chain id as a string, a missing indexer, an amount not canonical.
    const chainsSchema = checker.operationOf("GET", DISCOVERY_PATHS.chains).responses["200"]
      ?.content?.["application/json"]?.schema as Record<string, unknown>;
    for (const [label, path, value] of [
      ["chainId as a string", ["data", "chains", 0, "chainId"], "71001"],
      ["indexer missing", ["data", "chains", 0, "indexer"], undefined],
      ["lagBlocks as a string", ["data", "chains", 0, "indexer", "lagBlocks"], "4"],
    ] as const) {
      const mutated = withValue(chains.json() as Record<string, unknown>, path, value);
      assert.notDeepEqual(checker.schemaProblems(chainsSchema, mutated), [], label);
    }
  });

  it("/metrics: the text exposition, with or without an Authorization header", async () => {
    await expectDocumented("GET", "/metrics", {}, 200);
    await expectDocumented(
      "GET",
      "/metrics",
      { headers: { authorization: generateApiKey().key } },
      200,
    );
  });

  it("refusals before routing: no Host (400 40003), an unknown Expect (417 41701) and oversized headers (431 43101)", async () => {
    const { port } = await listenOnLoopback(app);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [method.toUpperCase(), path] as const),
    );
    for (const [method, path] of operations) {
      const body = method === "POST" ? JSON.stringify(goodQuote) : "";
      const head = `${method} ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`;
      for (const [extra, status, code] of [
        ["", 400, 40003],
        ["Host: localhost\r\nExpect: 200-ok\r\n", 417, 41701],
        [`Host: localhost\r\nX-Padding: ${"x".repeat(20_000)}\r\n`, 431, 43101],
      ] as const) {
        const response = await rawRequest(port, `${head}${extra}\r\n${body}`);
        const label = `${method} ${path} -> ${response.status}`;
        assert.equal(response.status, status, `${label}: ${response.body}`);
        assert.equal(JSON.parse(response.body).code, code, label);
        const sent = {
          statusCode: response.status,
          headers: response.headers,
          body: response.body,
        };
        assert.deepEqual(checker.problems(method, path, sent), [], label);
        const operation = checker.operationOf(method, path);
        produced.add(`${method.toLowerCase()} ${path} ${documentedStatus(operation, status)}`);
      }
    }
  });

  it("unknown paths (404) and wrong methods (405, with Allow) answer the documented envelope", async () => {
    const envelope = doc.components.schemas["ErrorEnvelope"] ?? {};
    for (const [options, status, code] of [
      [{ method: "GET", url: "/api/oracle/nope" }, 404, 40401],
      [{ method: "POST", url: LIST_TRANSFERS_PATH, payload: "x" }, 405, 40501],
      [{ method: "GET", url: ROUTER_QUOTE_PATH }, 405, 40501],
      [{ method: "DELETE", url: "/healthz" }, 405, 40501],
    ] as const) {
      const response = await app.inject(options as InjectOptions);
      const label = `${options.method} ${options.url}`;
      assert.equal(response.statusCode, status, label);
      assert.equal(response.json().code, code, label);
      assert.deepEqual(checker.schemaProblems(envelope, response.json()), [], label);
      assert.ok(response.headers["x-request-id"], label);
      if (status === 405) assert.ok(response.headers["allow"], label);
      // Not an operation's answer: the document's error table lists them.
      assert.match(doc.info.description, new RegExp(`\\| ${status} \\| ${code} \\|`), label);
    }
  });

  it("every documented error status of every operation has a code of that status", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status === "default") {
            // Each code there has an HTTP status the operation does not list itself.
            const codes = [...response.description.matchAll(/\b(\d{5}) \(HTTP (\d{3})\):/g)];
            assert.ok(codes.length > 0, `${method} ${path} default`);
            for (const [, code, http] of codes) {
              const kind = Object.values(ErrorCode).find((c) => c.code === Number(code));
              assert.equal(kind?.status, Number(http), `${method} ${path} default: ${code}`);
              assert.ok(!(String(http) in operation.responses), `${method} ${path}: ${http}`);
            }
            continue;
          }
          if (Number(status) < 400) continue;
          const codes = [...response.description.matchAll(/\b(\d{5}):/g)].map((m) => Number(m[1]));
          assert.ok(codes.length > 0, `${method} ${path} ${status}`);
          for (const code of codes) {
            const kind = Object.values(ErrorCode).find((c) => c.code === code);
            assert.equal(kind?.status, Number(status), `${method} ${path} ${status}: ${code}`);
          }
        }
      }
    }
  });

  it("every status the document declares for an operation was produced above", () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses)) {
          const name = `${method} ${path} ${status}`;
          if (!produced.has(name) && NOT_PRODUCED[name] === undefined) missing.push(name);
        }
      }
    }
    assert.deepEqual(missing, []);
    // And the exemptions are not stale.
    for (const name of Object.keys(NOT_PRODUCED)) {
      const [method = "", path = "", status = ""] = name.split(" ");
      assert.ok(doc.paths[path]?.[method]?.responses[status] !== undefined, name);
      assert.ok(!produced.has(name), name);
    }
  });
});
