/**
 * The explorer's asset routes through app.inject(): content types, caching, ETags, the built
 * folder vs the in-memory bundle, a missing build, and the API's 404 / 405 envelopes untouched.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../src/store/types.js";
import { buildWebAssets, type WebAssets } from "../../src/web/build-web.js";
import { createFakeStore } from "../api/fake-store.js";
import { buildTestApp } from "../api/setup.js";

describe("explorer routes", () => {
  let store: Store;
  let app: FastifyInstance;
  let outDir: string;
  let built: WebAssets;

  before(async () => {
    store = createFakeStore();
    outDir = await mkdtemp(join(tmpdir(), "bridge-oracle-explorer-"));
    built = await buildWebAssets(outDir);
    ({ app } = await buildTestApp(store, { logLevel: "warn" }));
  });

  after(async () => {
    await app?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  it("default: / is the page, no-cache, naming app.js and styles.css by content hash", async () => {
    const response = await app.inject({ method: "GET", url: "/" });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(response.headers["cache-control"], "no-cache");
    assert.match(String(response.headers["content-security-policy"]), /default-src 'self'/);
    assert.ok(response.headers["x-request-id"], 'response.headers["x-request-id"]');
    const app_ = /src="\/app\.js\?v=([0-9a-f]{12})"/.exec(response.body);
    const styles = /href="\/styles\.css\?v=([0-9a-f]{12})"/.exec(response.body);
    assert.ok(app_ && styles, response.body.slice(0, 500));
    assert.match(response.body, /id="search-input"/);

    const js = await app.inject({ method: "GET", url: `/app.js?v=${app_[1]}` });
    assert.equal(js.statusCode, 200);
    assert.equal(js.headers["content-type"], "text/javascript; charset=utf-8");
    assert.equal(js.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.match(js.body, /\/api\/oracle\/bridge-transactions/);

    const css = await app.inject({ method: "GET", url: `/styles.css?v=${styles[1]}` });
    assert.equal(css.headers["content-type"], "text/css; charset=utf-8");
    assert.equal(css.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.match(css.body, /@media \(max-width: 640px\)/);
  });

  it("behavior: an asset asked without its current version is not cached; a matching ETag is 304", async () => {
    const stale = await app.inject({ method: "GET", url: "/app.js?v=000000000000" });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.headers["cache-control"], "no-cache");
    const etag = String(stale.headers.etag);
    const again = await app.inject({
      method: "GET",
      url: "/app.js",
      headers: { "if-none-match": etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, "");
  });

  it("behavior: /transfer/<id> is the same page (the script reads the id); deeper paths stay 404", async () => {
    const page = await app.inject({ method: "GET", url: "/" });
    const transfer = await app.inject({ method: "GET", url: `/transfer/0x${"ab".repeat(32)}` });
    assert.equal(transfer.statusCode, 200);
    assert.equal(transfer.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(transfer.body, page.body);
    const deeper = await app.inject({ method: "GET", url: "/transfer/a/b" });
    assert.equal(deeper.statusCode, 404);
    assert.equal(deeper.json().code, 40401);
  });

  it("behavior: HEAD / answers with the page headers and no body", async () => {
    const head = await app.inject({ method: "HEAD", url: "/" });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(head.body, "");
  });

  it("error: unknown paths and wrong methods keep the API's envelopes", async () => {
    const missing = await app.inject({ method: "GET", url: "/api/oracle/nope" });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), {
      code: 40401,
      msg: "no such path: GET /api/oracle/nope",
      data: null,
    });
    const index = await app.inject({ method: "GET", url: "/index.html" });
    assert.equal(index.statusCode, 404);
    assert.equal(index.json().code, 40401);
    const post = await app.inject({ method: "POST", url: "/", payload: {} });
    assert.equal(post.statusCode, 405);
    assert.equal(post.json().code, 40501);
    assert.match(String(post.headers.allow), /GET/);
  });

  it("behavior: a given assets folder is served as built", async () => {
    const { app: fromDir } = await buildTestApp(store, {
      logLevel: "warn",
      explorer: { assetsDir: outDir },
    });
    try {
      const page = await fromDir.inject({ method: "GET", url: "/" });
      assert.equal(page.body, built.html);
      const js = await fromDir.inject({ method: "GET", url: `/app.js?v=${built.versions.app}` });
      assert.equal(js.body, built.js);
      assert.equal(js.headers["cache-control"], "public, max-age=31536000, immutable");

      // A rebuilt file is picked up by a new app (assets are read once per app).
      await writeFile(join(outDir, "styles.css"), "body{}");
      const { app: next } = await buildTestApp(store, {
        logLevel: "warn",
        explorer: { assetsDir: outDir },
      });
      const css = await next.inject({ method: "GET", url: "/styles.css" });
      assert.equal(css.body, "body{}");
      await next.close();
    } finally {
      await fromDir.close();
    }
  });

  it("behavior: the old /explorer/chains.json is gone (the page reads the discovery endpoints)", async () => {
    const gone = await app.inject({ method: "GET", url: "/explorer/chains.json" });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().code, 40401);
  });

  it("error: a missing build answers 503 with the envelope naming the fix, and the API still works", async () => {
    const { app: broken } = await buildTestApp(store, {
      logLevel: "silent",
      explorer: { assetsDir: join(outDir, "does-not-exist") },
    });
    try {
      const page = await broken.inject({ method: "GET", url: "/" });
      assert.equal(page.statusCode, 503);
      assert.deepEqual(page.json(), {
        code: 50301,
        msg: "the explorer page is not available: its assets are not built (run npm run build)",
        data: null,
      });
      const health = await broken.inject({ method: "GET", url: "/healthz" });
      assert.equal(health.statusCode, 200);
    } finally {
      await broken.close();
    }
  });
});
