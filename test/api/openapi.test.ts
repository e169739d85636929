/**
 * The OpenAPI document at /openapi.json and the docs at /docs: a valid OpenAPI 3 document (a
 * real validator) generated from the served routes: every served route is in it with its
 * methods, nothing else is, and each operation lists the error responses the route can give.
 * openapi-conformance.test.ts checks the answers the API really sends against this document.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { FastifyInstance, RouteOptions } from "fastify";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { EXPLORER_PATHS } from "../../src/api/routes/explorer.js";
import { ROUTER_QUOTE_PATH } from "../../src/api/routes/router-quote.js";
import { ErrorCode } from "../../src/errors.js";
import type { WebhookStore } from "../../src/store/webhook-store.js";
import { createMemoryApiKeyRepository } from "../keys/memory-api-key-repository.js";
import { createFakeStore } from "./fake-store.js";
import { createConformanceChecker, type OpenApiDocument } from "./openapi-conformance.js";
import { buildTestApp } from "./setup.js";

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, unknown> };
  parameters?: { name: string; in: string }[];
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, { required?: boolean }>;
      content?: Record<string, { schema: { $ref?: string } }>;
    }
  >;
}
type Document = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** Fastify's `/a/:b` as OpenAPI's `/a/{b}`. */
function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/**
 * The app as `serve` builds it (auth, rate limits, the router route), recording every route it
 * serves. The router has no registry here: documenting it needs no chain.
 */
async function buildServedApp() {
  const routes: RouteOptions[] = [];
  const { app } = await buildTestApp(createFakeStore(), {
    logLevel: "warn",
    plugins: [
      (a) => {
        a.addHook("onRoute", (route) => void routes.push(route));
      },
      (a) => registerApiKeyAuth(a, { repository: createMemoryApiKeyRepository() }),
      (a) => registerRateLimit(a, {}),
    ],
    router: {
      router: undefined,
      state: {
        current: () => {
          throw new Error("no state in this test");
        },
      },
      maxStateAgeMs: 30_000,
    },
    // Documenting the webhook routes reads no subscription.
    webhooks: { store: {} as WebhookStore, allowPrivateAddresses: false },
  });
  await app.ready();
  return { app, routes };
}

async function fetchDocument(app: FastifyInstance): Promise<Document> {
  const response = await app.inject({ url: "/openapi.json" });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers["content-type"]), /^application\/json/);
  return response.json() as Document;
}

/** Route methods other than the HEAD routes Fastify adds for every GET. */
function methodsOf(route: RouteOptions): string[] {
  return (typeof route.method === "string" ? [route.method] : [...route.method]).filter(
    (m) => m !== "HEAD",
  );
}

function isHidden(route: RouteOptions): boolean {
  return (route.schema as { hide?: boolean } | undefined)?.hide === true;
}

describe("OpenAPI document", () => {
  let app: FastifyInstance;
  let routes: RouteOptions[];
  let doc: Document;

  before(async () => {
    ({ app, routes } = await buildServedApp());
    doc = await fetchDocument(app);
  });
  after(() => app.close());

  it("default: /openapi.json is a valid OpenAPI 3 document named after the package", async () => {
    // The validator dereferences in place: give it a copy.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    assert.ok("openapi" in validated, '"openapi" in validated');
    assert.match(doc.openapi, /^3\./);
    assert.equal(doc.info.title, "bridge-oracle");
    assert.equal(doc.info.version, PACKAGE_VERSION);
  });

  it("behavior: every served route is documented with its methods, and nothing else", () => {
    const served = routes.filter((r) => !isHidden(r) && methodsOf(r).length > 0);
    const expected = new Set(
      served.flatMap((r) => methodsOf(r).map((m) => `${m.toLowerCase()} ${openapiPath(r.url)}`)),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    assert.deepEqual([...documented].sort(), [...expected].sort());
    // The API's own routes are among them (the comparison above cannot pass on an empty app).
    for (const operation of [
      "get /api/oracle/bridge-transactions",
      "get /healthz",
      "get /readyz",
      "get /readyz/router",
      "get /metrics",
      `post ${ROUTER_QUOTE_PATH}`,
    ]) {
      assert.ok(documented.has(operation), operation);
    }
    // Only the document itself, the docs UI and the explorer page's files are hidden: no API
    // route hides from the document.
    const pages: string[] = ["/openapi.json", ...Object.values(EXPLORER_PATHS)];
    for (const route of routes.filter(isHidden)) {
      assert.ok(
        pages.includes(route.url) || route.url.startsWith("/docs"),
        `hidden route ${route.url}`,
      );
    }
  });

  it("behavior: every example in the document validates against its own schema", () => {
    const checker = createConformanceChecker(doc as unknown as OpenApiDocument);
    const examples: string[] = [];
    // A schema's own `example`, and a parameter's or media type's `example` against its `schema`.
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== "object" || node === null) return;
      const object = node as Record<string, unknown>;
      if ("example" in object) {
        const { example, ...rest } = object;
        const schema = ("schema" in object && !("type" in object) ? object.schema : rest) as Record<
          string,
          unknown
        >;
        examples.push(where);
        assert.deepEqual(
          checker.schemaProblems(schema, example),
          [],
          `${where}: ${String(example)}`,
        );
      }
      for (const [key, value] of Object.entries(object)) walk(value, `${where}/${key}`);
    };
    walk(doc, "#");
    // The amounts, addresses, times and the query's examples are among them.
    assert.ok(examples.length >= 20, examples.join("\n"));
    assert.ok(
      examples.some((e) => e.includes("parameters")),
      'examples.some((e) => e.includes("parameters"))',
    );
    assert.ok(
      examples.some((e) => e.includes("requestBody")),
      'examples.some((e) => e.includes("requestBody"))',
    );
  });

  it("behavior: README and docs/http-api.md list every error code with its HTTP status", () => {
    const expected = Object.values(ErrorCode)
      .map(({ status, code }) => `${status} ${code}`)
      .sort();
    for (const file of ["README.md", "docs/http-api.md"]) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
      const rows = [...text.matchAll(/^\| *(\d{3}) *\| *(\d{5}) *\|/gm)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      assert.deepEqual(rows.sort(), expected, file);
    }
    // The document's own table is generated from the same list.
    for (const { status, code } of Object.values(ErrorCode)) {
      assert.match(doc.info.description, new RegExp(`\\| ${status} \\| ${code} \\|`));
    }
  });

  it("behavior: components are named after the schemas' $id", () => {
    assert.ok(
      "ErrorEnvelope" in doc.components.schemas,
      '"ErrorEnvelope" in doc.components.schemas',
    );
    assert.ok(
      "BridgeTransaction" in doc.components.schemas,
      '"BridgeTransaction" in doc.components.schemas',
    );
    assert.ok(
      !Object.keys(doc.components.schemas).some((name) => /^def-\d+$/.test(name)),
      "!Object.keys(doc.components.schemas).some((name) => /^def-\\d+$/.test(name))",
    );
  });

  it("behavior: every operation lists its error responses as the ErrorEnvelope", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        assert.ok(statuses.includes("500"), `${method} ${path}: 500`);
        assert.ok(statuses.includes("503"), `${method} ${path}: 503`);
        assert.ok(!statuses.includes("4XX") && !statuses.includes("5XX"), `${method} ${path}`);
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          const response = operation.responses[status];
          assert.ok(response !== undefined, "response !== undefined");
          assert.equal(
            response.content?.["application/json"]?.schema.$ref,
            "#/components/schemas/ErrorEnvelope",
            `${method} ${path} ${status}`,
          );
          assert.match(response.description, /^\d{5}: /, `${method} ${path} ${status}`);
        }
      }
    }
  });

  it("behavior: every response declares x-request-id (required), rate-limited ones X-RateLimit-*", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const limited = "429" in operation.responses;
        for (const [status, response] of Object.entries(operation.responses)) {
          const where = `${method} ${path} ${status}`;
          assert.equal(response.headers?.["x-request-id"]?.required, true, where);
          // The default (refused before the route runs) never reaches the rate limit.
          for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
            const expected = limited && status !== "default";
            assert.equal(response.headers?.[name] !== undefined, expected, `${where} ${name}`);
          }
          const retryAfter = status === "429" || status === "503";
          assert.equal(response.headers?.["retry-after"] !== undefined, retryAfter, where);
        }
      }
    }
  });

  it("behavior: refusals before routing (40003, 40801, 41701, 43101) are documented on every operation", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method} ${path}`;
        const fallback = operation.responses["default"];
        assert.equal(
          fallback?.content?.["application/json"]?.schema.$ref,
          "#/components/schemas/ErrorEnvelope",
          where,
        );
        assert.match(
          fallback?.description ?? "",
          /40801 \(HTTP 408\).*41701 \(HTTP 417\).*43101 \(HTTP 431\)/,
          where,
        );
        // 40003 is with the operation's own 400 when it has one, in the default otherwise.
        const with400 = operation.responses["400"]?.description;
        assert.match(with400 ?? fallback?.description ?? "", /40003/, where);
        if (with400 !== undefined) assert.doesNotMatch(fallback?.description ?? "", /40003/);
      }
    }
  });

  it("behavior: the list route documents its query, 400, 401, 429, and an optional key", () => {
    const list = doc.paths["/api/oracle/bridge-transactions"]?.get;
    assert.ok(list !== undefined, "list !== undefined");
    assert.deepEqual(
      (list.parameters ?? []).map((p) => `${p.in}:${p.name}`).sort(),
      [
        "query:addressOrTxHash",
        "query:pageNo",
        "query:pageSize",
        "query:sortName",
        "query:sortOrder",
      ].sort(),
    );
    assert.deepEqual(Object.keys(list.responses).sort(), [
      "200",
      "400",
      "401",
      "429",
      "500",
      "503",
      "default",
    ]);
    assert.match(list.responses["400"]?.description ?? "", /40001/);
    assert.match(list.responses["401"]?.description ?? "", /40102/);
    assert.doesNotMatch(list.responses["401"]?.description ?? "", /40101/);
    assert.match(list.responses["429"]?.description ?? "", /42901/);
    // The list's 503 is the database not answering: its description must say so.
    assert.match(list.responses["503"]?.description ?? "", /50301: the database .*unreachable/);
    assert.deepEqual(list.security, [{}, { apiKey: [] }]);
  });

  it("behavior: probes and /metrics are not rate limited; /metrics takes no key", () => {
    for (const path of ["/healthz", "/readyz", "/readyz/router", "/metrics"]) {
      const responses = doc.paths[path]?.get?.responses ?? {};
      assert.ok(!("429" in responses), path);
    }
    const metrics = doc.paths["/metrics"]?.get;
    assert.ok(metrics !== undefined, "metrics !== undefined");
    assert.ok(!("401" in metrics.responses), '!("401" in metrics.responses)');
    assert.deepEqual(metrics.security, [], "said outright: no key");
    assert.ok(
      metrics.responses["200"]?.content?.["text/plain"] !== undefined,
      'metrics.responses["200"]?.content?.["text/plain"] !== undefined',
    );
  });

  it("behavior: the API key scheme is the Authorization header", () => {
    assert.deepEqual(doc.components.securitySchemes.apiKey, {
      type: "apiKey",
      in: "header",
      name: "Authorization",
      description: (doc.components.securitySchemes.apiKey as { description: string }).description,
    });
    assert.match(
      (doc.components.securitySchemes.apiKey as { description: string }).description,
      /Bearer <key>/,
    );
  });
});

describe("OpenAPI document of the router", () => {
  it("behavior: requestBody, 400 40002, 401 40101, 413, 415 and its declared 422", async () => {
    const { app } = await buildServedApp();
    try {
      const doc = await fetchDocument(app);
      const operation = doc.paths[ROUTER_QUOTE_PATH]?.post;
      assert.ok(operation !== undefined, "operation !== undefined");
      const body = operation.requestBody?.content["application/json"] as {
        schema: { required: string[] };
      };
      assert.deepEqual([...body.schema.required].sort(), [
        "amount",
        "destChain",
        "destToken",
        "sourceChain",
        "sourceToken",
        "to",
      ]);
      assert.deepEqual(operation.security, [{ apiKey: [] }]);
      const responses = operation.responses;
      assert.deepEqual(Object.keys(responses).sort(), [
        "200",
        "400",
        "401",
        "413",
        "415",
        "422",
        "429",
        "500",
        "503",
        "default",
      ]);
      assert.match(responses["400"]?.description ?? "", /40001.*40002/);
      assert.match(responses["401"]?.description ?? "", /40101.*40102/);
      assert.match(responses["413"]?.description ?? "", /41301/);
      assert.match(responses["415"]?.description ?? "", /41501/);
      assert.match(responses["422"]?.description ?? "", /42201.*42202/);
    } finally {
      await app.close();
    }
  });

  it("behavior: without auth installed, no 401, and security says no key", async () => {
    const { app } = await buildTestApp(createFakeStore(), { logLevel: "warn" });
    try {
      const doc = await fetchDocument(app);
      const list = doc.paths["/api/oracle/bridge-transactions"]?.get;
      assert.ok(list !== undefined, "list !== undefined");
      assert.ok(!("401" in list.responses), '!("401" in list.responses)');
      assert.deepEqual(list.security, [], "no key needed");
    } finally {
      await app.close();
    }
  });
});

describe("/docs", () => {
  let app: FastifyInstance;
  before(async () => {
    ({ app } = await buildServedApp());
  });
  after(() => app.close());

  it("default: serves the Swagger UI page and every asset it links, from the package", async () => {
    const page = await app.inject({ url: "/docs" });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    const links = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] ?? "");
    assert.ok(links.length >= 4, `asset links: ${links.join(", ")}`);
    for (const link of links) {
      assert.ok(!/^(https?:)?\/\//.test(link), `external asset ${link}`);
      const url = link.startsWith("/") ? link : `/docs/${link.replace(/^\.\//, "")}`;
      const asset = await app.inject({ url });
      assert.equal(asset.statusCode, 200, url);
      assert.ok(asset.rawPayload.length > 0, url);
    }
    const bundle = await app.inject({ url: "/docs/static/swagger-ui-bundle.js" });
    assert.equal(bundle.statusCode, 200);
    assert.match(String(bundle.headers["content-type"]), /javascript/);
  });

  it("behavior: the UI loads the generated document; its CSP keeps plain http working", async () => {
    const initializer = await app.inject({ url: "/docs/static/swagger-initializer.js" });
    assert.equal(initializer.statusCode, 200);
    const json = await app.inject({ url: "/docs/json" });
    assert.deepEqual(json.json(), await fetchDocument(app));
    const csp = String((await app.inject({ url: "/docs" })).headers["content-security-policy"]);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/);
    // The fuller policy belongs to the docs only; every answer refuses framing (#41).
    const list = await app.inject({ url: "/healthz" });
    assert.equal(list.headers["content-security-policy"], "frame-ancestors 'none'");
  });
});
