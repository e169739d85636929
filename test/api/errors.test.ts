/**
 * The error envelope on every failure path: 400 40001 for each bad list parameter (message names
 * the parameter), 404 / 405 (Allow), 413, 415, 40002, 500 50001 with a request id and no
 * internals; request ids in headers and logs; each error logged once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, InjectOptions } from "fastify";
import { ApiError } from "../../src/errors.js";
import { makeTransfer } from "../setup/transfer-fixtures.js";
import { createFakeStore } from "./fake-store.js";
import { type ApiHarness, buildTestApp, setupApi } from "./setup.js";

const PATH = "/api/oracle/bridge-transactions";
const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const VALID = `addressOrTxHash=${ADDRESS}&pageNo=1&pageSize=10`;

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

async function expectError(
  app: FastifyInstance,
  request: InjectOptions,
  status: number,
  code: number,
  msg?: RegExp,
) {
  const response = await app.inject(request);
  const body = response.json() as Envelope;
  assert.equal(response.statusCode, status, response.body);
  assert.deepEqual(Object.keys(body), ["code", "msg", "data"]);
  assert.equal(body.code, code);
  assert.equal(body.data, null);
  assert.equal(typeof body.msg, "string");
  if (msg !== undefined) assert.match(body.msg, msg);
  assert.match(String(response.headers["x-request-id"]), /^[A-Za-z0-9._:-]{1,128}$/);
  return { response, body };
}

describe(`GET ${PATH}: invalid parameters (sqlite)`, () => {
  let harness: ApiHarness;
  before(async () => {
    harness = await setupApi("sqlite", [makeTransfer({ from_address: ADDRESS })]);
  });
  after(async () => harness?.close());

  const cases: [string, string, RegExp][] = [
    ["missing addressOrTxHash", "pageNo=1&pageSize=10", /^addressOrTxHash is required/],
    ["empty addressOrTxHash", "addressOrTxHash=&pageNo=1&pageSize=10", /^addressOrTxHash /],
    ["blank addressOrTxHash", "addressOrTxHash=%20%20&pageNo=1&pageSize=10", /^addressOrTxHash /],
    ["bad addressOrTxHash", "addressOrTxHash=a%2Fb&pageNo=1&pageSize=10", /^addressOrTxHash /],
    ["missing pageNo", `addressOrTxHash=${ADDRESS}&pageSize=10`, /^pageNo is required/],
    ["pageNo 0", `addressOrTxHash=${ADDRESS}&pageNo=0&pageSize=10`, /^pageNo must be .*1 to/],
    ["pageNo -1", `addressOrTxHash=${ADDRESS}&pageNo=-1&pageSize=10`, /^pageNo /],
    ["pageNo 1.5", `addressOrTxHash=${ADDRESS}&pageNo=1.5&pageSize=10`, /^pageNo /],
    ["pageNo abc", `addressOrTxHash=${ADDRESS}&pageNo=abc&pageSize=10`, /^pageNo /],
    [
      "pageNo huge",
      `addressOrTxHash=${ADDRESS}&pageNo=99999999999999999999999&pageSize=10`,
      /^pageNo must be an integer from 1 to 1000000000/,
    ],
    ["missing pageSize", `addressOrTxHash=${ADDRESS}&pageNo=1`, /^pageSize is required/],
    ["pageSize 0", `addressOrTxHash=${ADDRESS}&pageNo=1&pageSize=0`, /^pageSize .*1 to 100/],
    ["pageSize 101", `addressOrTxHash=${ADDRESS}&pageNo=1&pageSize=101`, /^pageSize .*1 to 100/],
    ["bad sortName", `${VALID}&sortName=amount`, /^sortName must be one of created_at, createdAt/],
    ["bad sortOrder", `${VALID}&sortOrder=sideways`, /^sortOrder must be asc or desc/],
    ["repeated pageNo", `${VALID}&pageNo=2`, /^pageNo must be given once/],
    ["repeated addressOrTxHash", `${VALID}&addressOrTxHash=${ADDRESS}`, /^addressOrTxHash /],
    ["repeated sortName", `${VALID}&sortName=created_at&sortName=end_time`, /^sortName /],
  ];
  for (const [name, query, msg] of cases) {
    it(`error: ${name} -> 400 40001 naming the parameter`, async () => {
      await expectError(harness.app, { method: "GET", url: `${PATH}?${query}` }, 400, 40001, msg);
    });
  }

  it("behavior: unknown query parameters are ignored", async () => {
    const response = await harness.app.inject({ method: "GET", url: `${PATH}?${VALID}&_=17` });
    assert.equal(response.statusCode, 200);
    assert.equal((response.json() as Envelope).code, 0);
  });
});

/** A POST to the test app's echo route with `payload` as its body. */
const echoPost = (payload: string, contentType = "application/json") => ({
  method: "POST" as const,
  url: "/test/echo",
  headers: { "content-type": contentType },
  payload,
});

describe("error envelopes", () => {
  let app: FastifyInstance;
  let logs: Record<string, unknown>[];
  const store = createFakeStore({
    listTransfers: async () => {
      throw new Error('SQLITE_ERROR: no such column "secret_column" in SELECT * FROM transfers');
    },
  });
  before(async () => {
    ({ app, logs } = await buildTestApp(store, {
      plugins: [
        (instance) => {
          // An extra route to reach the body paths (the router endpoint arrives later).
          instance.post("/test/echo", async (request) => ({ echoed: request.body }));
          instance.post(
            "/test/schema",
            {
              schema: {
                body: {
                  type: "object",
                  required: ["amount"],
                  properties: { amount: { type: "string", pattern: "^[0-9]+$" } },
                },
              },
            },
            async () => ({ ok: true }),
          );
          instance.get("/test/limited", async () => {
            throw new ApiError("rateLimited", "rate limit of 1 requests per minute exceeded", {
              headers: { "retry-after": "42" },
            });
          });
        },
      ],
    }));
  });
  after(async () => app?.close());

  it("error: unknown path -> 404 40401", async () => {
    await expectError(app, { method: "GET", url: "/nope" }, 404, 40401, /no such path: GET \/nope/);
    await expectError(app, { method: "POST", url: "/nope", payload: "x" }, 404, 40401);
  });

  it("error: wrong method on a known path -> 405 40501 with Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"] as const) {
      const { response } = await expectError(
        app,
        { method, url: `${PATH}?${VALID}`, payload: { a: 1 } },
        405,
        40501,
        new RegExp(`^${method} is not allowed on ${PATH}; allowed: GET, HEAD$`),
      );
      assert.equal(response.headers.allow, "GET, HEAD");
    }
    await expectError(app, { method: "POST", url: "/healthz/" }, 405, 40501, /allowed: GET, HEAD/);
    const { response } = await expectError(app, { method: "GET", url: "/test/echo" }, 405, 40501);
    assert.equal(response.headers.allow, "POST");
  });

  it("error: the docs' static files answer 404 / 412 / 416 in the envelope, never 405 or 500", async () => {
    // Regression: a missing asset under the /docs/static/* route was 405 (the path matched a GET
    // route), and the static server's 403 (a `..` walk), 412 and 416 became 500 50001 with an
    // error-level log, counting as server errors.
    const logged = logs.length;
    await expectError(app, { method: "GET", url: "/docs/static/LICENSE" }, 404, 40401);
    await expectError(
      app,
      { method: "GET", url: "/docs/static/%2e%2e/%2e%2e/package.json" },
      404,
      40401,
    );
    await expectError(
      app,
      { method: "GET", url: "/docs/static/swagger-ui.css", headers: { range: "bytes=99999999-" } },
      416,
      41601,
      /byte range is not satisfiable/,
    );
    await expectError(
      app,
      { method: "GET", url: "/docs/static/swagger-ui.css", headers: { "if-match": '"x"' } },
      412,
      41201,
    );
    const ok = await app.inject({ method: "GET", url: "/docs/static/swagger-ui.css" });
    assert.equal(ok.statusCode, 200);
    const errors = logs.slice(logged).filter((l) => Number(l.level) >= 50);
    assert.deepEqual(errors, []);
  });

  it("behavior: a trailing slash reaches the same route", async () => {
    const response = await app.inject({ method: "GET", url: "/healthz/" });
    assert.equal(response.statusCode, 200);
  });

  it("error: internal failure -> 500 50001 with the request id, no SQL or stack", async () => {
    const { response, body } = await expectError(
      app,
      { method: "GET", url: `${PATH}?${VALID}`, headers: { "x-request-id": "trace-500-abc" } },
      500,
      50001,
      /request id trace-500-abc/,
    );
    assert.equal(response.headers["x-request-id"], "trace-500-abc");
    assert.doesNotMatch(response.body, /SQLITE|secret_column|SELECT|at .*\.ts|stack/i);
    assert.equal(body.msg, "internal error; request id trace-500-abc");
    // Logged once, at error level, with the real cause and the request id.
    const lines = logs.filter((l) => l.reqId === "trace-500-abc" && Number(l.level) >= 50);
    assert.equal(lines.length, 1);
    assert.match(JSON.stringify(lines[0]), /secret_column/);
  });

  it("error: body over 16 KiB -> 413 41301", async () => {
    await expectError(
      app,
      echoPost(JSON.stringify({ pad: "x".repeat(17 * 1024) })),
      413,
      41301,
      /larger than 16384 bytes/,
    );
  });

  it("error: body not application/json -> 415 41501", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "text/xml"]) {
      await expectError(
        app,
        echoPost("a=1", contentType),
        415,
        41501,
        /Content-Type: application\/json/,
      );
    }
  });

  it("error: a JSON body in any charset but UTF-8 -> 415 41501 naming it (#41)", async () => {
    for (const [contentType, named] of [
      ["application/json; charset=utf-7", "utf-7"],
      ["application/json;charset=UTF-16", "utf-16"],
      ['application/json; charset="iso-8859-1"', "iso-8859-1"],
      ["application/json; charset=", ""],
    ] as const) {
      await expectError(
        app,
        echoPost('{"a":"+ADw-script+AD4-"}', contentType),
        415,
        41501,
        new RegExp(`must be UTF-8 JSON .*not charset=${named.replace(/[-]/g, "\\-")}$`),
      );
    }
  });

  it("default: charset=utf-8 (any case, quoted) or no charset is JSON as before", async () => {
    for (const contentType of [
      "application/json",
      "application/json; charset=utf-8",
      'application/json; charset="UTF-8"',
      "application/json;charset=utf8",
    ]) {
      const response = await app.inject(echoPost('{"a":1}', contentType));
      assert.equal(response.statusCode, 200, `${contentType}: ${response.body}`);
    }
  });

  it("error: a body using __proto__ or constructor.prototype -> 400 40002 saying so", async () => {
    for (const payload of ['{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
      await expectError(
        app,
        echoPost(payload),
        400,
        40002,
        /^the request body must not use the keys __proto__ or constructor\.prototype$/,
      );
    }
  });

  it("error: a body that gives a member twice -> 400 40002 naming it", async () => {
    for (const payload of ['{"a":1,"b":2,"a":3}', '{"x":{"a":1,"\\u0061":2}}']) {
      await expectError(
        app,
        echoPost(payload),
        400,
        40002,
        /^the request body gives the member "a" more than once; give each member once$/,
      );
    }
  });

  it("error: body not valid JSON, empty, or not an object -> 400 40002", async () => {
    for (const payload of ["{not json", "", "[1,2]", "42", "null", '"text"']) {
      await expectError(app, echoPost(payload), 400, 40002);
    }
    const ok = await app.inject(echoPost('{"a":1}', "application/json; charset=utf-8"));
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { echoed: { a: 1 } });
  });

  it("error: a body that breaks its route schema -> 400 40001 naming the field", async () => {
    const post = (payload: unknown) => ({
      method: "POST" as const,
      url: "/test/schema",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
    await expectError(app, post({}), 400, 40001, /^amount is required$/);
    await expectError(
      app,
      post({ amount: "1.5" }),
      400,
      40001,
      /^amount must be a whole number written in digits$/,
    );
    await expectError(app, { method: "POST", url: "/test/schema" }, 400, 40002, /JSON object/);
  });

  it("error: an ApiError keeps its status, code and headers (429 42901 Retry-After)", async () => {
    const { response } = await expectError(
      app,
      { method: "GET", url: "/test/limited" },
      429,
      42901,
      /rate limit of 1/,
    );
    assert.equal(response.headers["retry-after"], "42");
  });

  it("error: malformed URL -> 400 40001 envelope", async () => {
    await expectError(app, { method: "GET", url: "/%zz" }, 400, 40001, /URL is malformed/);
  });

  it("behavior: each request gets an id in x-request-id; a sane incoming one is kept", async () => {
    const a = await app.inject({ method: "GET", url: "/healthz" });
    const b = await app.inject({ method: "GET", url: "/healthz" });
    assert.match(String(a.headers["x-request-id"]), /^[0-9a-f]{16}-[0-9a-z]+$/);
    assert.notEqual(a.headers["x-request-id"], b.headers["x-request-id"]);
    const kept = await app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "client-id:42_x.y" },
    });
    assert.equal(kept.headers["x-request-id"], "client-id:42_x.y");
    for (const bad of ["has space", "x".repeat(129), "new\\nline", "<script>"]) {
      const replaced = await app.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-request-id": bad },
      });
      assert.match(String(replaced.headers["x-request-id"]), /^[0-9a-f]{16}-[0-9a-z]+$/, bad);
    }
  });

  it("behavior: every log line of a request carries its id; a 4xx is logged once at info", async () => {
    const id = "trace-404-once";
    await app.inject({ method: "GET", url: "/missing", headers: { "x-request-id": id } });
    const lines = logs.filter((l) => l.reqId === id);
    assert.ok(lines.length >= 2, "request lines carry reqId");
    const errorLines = lines.filter((l) => l.code === 40401);
    assert.equal(errorLines.length, 1);
    assert.equal(errorLines[0]?.level, 30);
    assert.ok(
      lines.every((l) => Number(l.level) < 50),
      "lines.every((l) => Number(l.level) < 50)",
    );
  });
});

describe("response schema", () => {
  it("behavior: a record with a missing field is never sent (500); extra fields are dropped", async () => {
    const complete = makeTransfer({ from_address: ADDRESS });
    const { end_time: _dropped, ...incomplete } = complete;
    for (const [items, status] of [
      [[{ ...complete, internal_id: 7 }], 200],
      [[incomplete], 500],
    ] as const) {
      const store = createFakeStore({
        listTransfers: async () => ({ total: 1, items: items as never }),
      });
      const { app } = await buildTestApp(store, { logLevel: "silent" });
      try {
        const response = await app.inject({ method: "GET", url: `${PATH}?${VALID}` });
        assert.equal(response.statusCode, status, response.body);
        if (status === 200) {
          const body = response.json() as { data: { data: Record<string, unknown>[] } };
          assert.deepEqual(body.data.data[0], complete);
        } else {
          assert.equal((response.json() as Envelope).code, 50001);
          assert.doesNotMatch(response.body, /end_time/);
        }
      } finally {
        await app.close();
      }
    }
  });
});
