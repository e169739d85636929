/**
 * `npm run lint:openapi`: Redocly's recommended ruleset (`@redocly/cli lint`, redocly.yaml) over
 * the OpenAPI document the API serves (client-types.ts starts it as `serve` builds it). Offline:
 * telemetry and the update check are off. Exits with redocly's status; test/api/openapi-lint.test.ts
 * runs it, so CI keeps the document passing.
 */
import { spawnSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { servedOpenApiDocument } from "./client-types.js";

const ROOT = join(import.meta.dirname, "..");

/** Lints `document`; returns redocly's exit status and what it printed. */
export async function lintOpenApi(document: unknown): Promise<{ status: number; output: string }> {
  // A fixed path under the checkout: .redocly.lint-ignore.yaml names findings by it.
  const dir = join(ROOT, ".redocly");
  await mkdir(dir, { recursive: true });
  try {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(document, null, 2));
    const cli = join(
      dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
      "bin",
      "cli.js",
    );
    const result = spawnSync(
      process.execPath,
      [cli, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "stylish"],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          NO_COLOR: "1",
        },
        timeout: 120_000,
      },
    );
    return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
  } finally {
    await rm(join(dir, "openapi.json"), { force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const { status, output } = await lintOpenApi(await servedOpenApiDocument());
  process.stdout.write(output);
  process.exitCode = status;
}
