/**
 * The OpenAPI document the API serves passes Redocly's recommended ruleset (`npm run
 * lint:openapi`: @redocly/cli, offline, telemetry off; redocly.yaml), so generated clients find
 * an operationId, a summary, the security and a 4xx on every operation, the servers and the
 * licence. The one finding kept on purpose is in .redocly.lint-ignore.yaml with why.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { servedOpenApiDocument } from "../../scripts/client-types.js";
import { lintOpenApi } from "../../scripts/lint-openapi.js";

describe("OpenAPI document: Redocly's recommended rules", { timeout: 180_000 }, () => {
  it("default: no error and no warning", async () => {
    const { status, output } = await lintOpenApi(await servedOpenApiDocument());
    assert.equal(status, 0, output);
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /\d+ warnings?\b/, output);
  });

  it("error: a document without operationIds and servers fails", async () => {
    const document = structuredClone(await servedOpenApiDocument()) as unknown as {
      servers?: unknown;
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    delete document.servers;
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) delete operation.operationId;
    }
    const { status, output } = await lintOpenApi(document);
    assert.notEqual(status, 0, output);
    assert.match(output, /no-empty-servers/);
    assert.match(output, /operation-operationId/);
  });
});
