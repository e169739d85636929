/**
 * Serves the explorer page (src/web) at `/`, with its `/app.js` and `/styles.css`.
 *
 * Where the files come from:
 * - compiled (dist/...): the folder `npm run build` wrote (default dist/explorer, see
 *   src/web/build-web.ts), read once on the first request;
 * - from TypeScript sources (tsx: tests, development), or when that folder is incomplete: an
 *   in-memory esbuild bundle of src/web, built once per app on the first request, so a stale
 *   dist/ can never be served by a test.
 * Nothing is read or built at app start, so apps that never serve the page pay nothing.
 *
 * Caching: index.html is `no-cache` (revalidated by ETag); it names `app.js?v=<hash>` and
 * `styles.css?v=<hash>`, which are cached for a year when the `v` matches the content and are
 * `no-cache` otherwise. `/transfer/<id>` is the same page (its script shows that transfer).
 * Only these paths are registered, so every other path keeps the API's 404 / 405 envelope.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.js";

export interface ExplorerAssets {
  html: string;
  js: string;
  css: string;
  /** Content hashes of app.js and styles.css as named in index.html's `?v=`. */
  versions: { app: string; styles: string };
}

export interface ExplorerRoutesOptions {
  /** The built folder (index.html, app.js, styles.css). Default: dist/explorer of the repo. */
  assetsDir?: string;
}

export const EXPLORER_PATHS = {
  page: "/",
  /** One transfer's page (the same document; the script reads the id from the path). */
  transfer: "/transfer/:id",
  app: "/app.js",
  styles: "/styles.css",
} as const;

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The page talks to its own origin only; no inline script or style is used. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const runningFromSources = import.meta.url.endsWith(".ts");

async function readBuiltAssets(dir: string): Promise<ExplorerAssets> {
  const [html, js, css] = await Promise.all(
    ["index.html", "app.js", "styles.css"].map((name) => readFile(join(dir, name), "utf8")),
  );
  const { contentVersion } = await import("../../web/build-web.js");
  return {
    html: html as string,
    js: js as string,
    css: css as string,
    versions: { app: contentVersion(js as string), styles: contentVersion(css as string) },
  };
}

async function defaultLoadAssets(assetsDir: string | undefined): Promise<ExplorerAssets> {
  const web = await import("../../web/build-web.js");
  if (!runningFromSources || assetsDir !== undefined) {
    try {
      return await readBuiltAssets(assetsDir ?? web.defaultWebAssetsDir());
    } catch (error) {
      if (assetsDir !== undefined) throw error;
      // dist/explorer missing or incomplete: fall through to an in-memory bundle.
    }
  }
  return web.bundleWebAssets();
}

export function registerExplorerRoutes(
  app: FastifyInstance,
  options: ExplorerRoutesOptions = {},
): void {
  let assets: Promise<ExplorerAssets> | undefined;
  const load = (): Promise<ExplorerAssets> => {
    if (assets === undefined) {
      assets = defaultLoadAssets(options.assetsDir);
      // A failed load is retried by the next request (the build may have finished since).
      assets.catch(() => {
        assets = undefined;
      });
    }
    return assets.catch((error: unknown) => {
      throw new ApiError(
        "serviceUnavailable",
        "the explorer page is not available: its assets are not built (run npm run build)",
        { cause: error },
      );
    });
  };

  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    body: string,
    contentType: string,
    version: string,
    immutable: boolean,
  ): FastifyReply | string {
    const etag = `"${version}"`;
    reply
      .header("content-type", contentType)
      .header("etag", etag)
      .header(
        "cache-control",
        immutable ? `public, max-age=${YEAR_SECONDS}, immutable` : "no-cache",
      );
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    return body;
  }

  const assetRoute = { config: { rateLimitExempt: true }, schema: { hide: true } } as const;

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const { html, versions } = await load();
    // The page's own, fuller CSP; nosniff, Referrer-Policy and framing: security-headers.ts.
    reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
    return send(
      request,
      reply,
      html,
      "text/html; charset=utf-8",
      `${versions.app}-${versions.styles}`,
      false,
    );
  };
  app.get(EXPLORER_PATHS.page, assetRoute, page);
  app.get(EXPLORER_PATHS.transfer, assetRoute, page);

  app.get(EXPLORER_PATHS.app, assetRoute, async (request, reply) => {
    const { js, versions } = await load();
    const asked = (request.query as Record<string, unknown>)["v"];
    return send(
      request,
      reply,
      js,
      "text/javascript; charset=utf-8",
      versions.app,
      asked === versions.app,
    );
  });

  app.get(EXPLORER_PATHS.styles, assetRoute, async (request, reply) => {
    const { css, versions } = await load();
    const asked = (request.query as Record<string, unknown>)["v"];
    return send(
      request,
      reply,
      css,
      "text/css; charset=utf-8",
      versions.styles,
      asked === versions.styles,
    );
  });
}
