/**
 * Bundles the explorer page (src/web/main.ts + index.html + styles.css) with esbuild.
 *
 *   buildWebAssets(outDir)   writes index.html, app.js, styles.css into outDir (npm run build)
 *   bundleWebAssets()        the same three files in memory (the API uses it when running from
 *                            TypeScript sources, where no built folder is guaranteed to be fresh)
 *
 * As a script: `node dist/web/build-web.js [outDir]` (default dist/explorer) or
 * `npx tsx src/web/build-web.ts [outDir]`.
 *
 * index.html refers to `/app.js?v=<hash>` and `/styles.css?v=<hash>` (content hashes), so the
 * server can let browsers cache those for a year and a new build is still picked up at once.
 * esbuild is a dev dependency: it is imported only when a bundle is actually built.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface WebAssets {
  /** index.html with the asset versions filled in. */
  html: string;
  js: string;
  css: string;
  /** Content hashes (12 hex) of app.js and styles.css, as used in index.html. */
  versions: { app: string; styles: string };
}

export const WEB_ASSET_FILES = { html: "index.html", js: "app.js", css: "styles.css" } as const;

/** The repository root: this file is src/web/build-web.ts or dist/web/build-web.js. */
function repositoryRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/** Where the page's sources are: <repo>/src/web. */
export function webSourceDir(): string {
  return join(repositoryRoot(), "src", "web");
}

/** Where `npm run build` puts the bundle and the API looks for it: <repo>/dist/explorer. */
export function defaultWebAssetsDir(): string {
  return join(repositoryRoot(), "dist", "explorer");
}

export function contentVersion(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

export async function bundleWebAssets(sourceDir: string = webSourceDir()): Promise<WebAssets> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [join(sourceDir, "main.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    outfile: WEB_ASSET_FILES.js,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error("esbuild produced no output for src/web/main.ts");
  const js = output.text;
  const [template, css] = await Promise.all([
    readFile(join(sourceDir, "index.html"), "utf8"),
    readFile(join(sourceDir, "styles.css"), "utf8"),
  ]);
  const versions = { app: contentVersion(js), styles: contentVersion(css) };
  const html = template
    .replace("__APP_VERSION__", versions.app)
    .replace("__STYLES_VERSION__", versions.styles);
  return { html, js, css, versions };
}

/**
 * Bundles and writes the three files into `outDir` (created if needed). Each file is written
 * to a temporary name and renamed, so a server reading the folder never sees half a file.
 */
export async function buildWebAssets(outDir: string = defaultWebAssetsDir()): Promise<WebAssets> {
  const assets = await bundleWebAssets();
  await mkdir(outDir, { recursive: true });
  const files: [string, string][] = [
    [WEB_ASSET_FILES.js, assets.js],
    [WEB_ASSET_FILES.css, assets.css],
    // index.html last: it names the versions of the two files above.
    [WEB_ASSET_FILES.html, assets.html],
  ];
  for (const [name, text] of files) {
    const target = join(outDir, name);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, target);
  }
  return assets;
}

const invokedAsScript =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedAsScript) {
  const outDir = resolve(process.argv[2] ?? defaultWebAssetsDir());
  buildWebAssets(outDir).then(
    (assets) => {
      process.stdout.write(
        `explorer assets written to ${outDir} (app.js ${assets.js.length} bytes, styles.css ${assets.css.length} bytes)\n`,
      );
    },
    (error: unknown) => {
      process.stderr.write(`explorer build failed: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
