/**
 * packages/client/src/generated/openapi.ts is what openapi-typescript makes of the document a
 * live API serves at /openapi.json (scripts/client-types.ts): when a route schema changes and
 * the file is not regenerated (`npm run generate:client-types`), this fails, and CI with it.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import {
  clientTypesOf,
  GENERATED_TYPES_PATH,
  servedOpenApiDocument,
} from "../../scripts/client-types.js";

describe("client package: generated types", () => {
  it("default: the committed types are those of the live /openapi.json", {
    timeout: 60_000,
  }, async () => {
    const document = await servedOpenApiDocument();
    // The document this checks against is the real one (not an empty app's).
    const paths = document.paths as Record<string, Record<string, unknown>>;
    assert.ok(
      paths["/api/oracle/router"]?.post !== undefined,
      'paths["/api/oracle/router"]?.post !== undefined',
    );
    assert.ok(
      paths["/api/oracle/bridge-transactions"]?.get !== undefined,
      'paths["/api/oracle/bridge-transactions"]?.get !== undefined',
    );
    const expected = await clientTypesOf(document);
    const committed = await readFile(GENERATED_TYPES_PATH, "utf8");
    assert.ok(
      committed === expected,
      "packages/client/src/generated/openapi.ts is stale: run `npm run generate:client-types` and commit it",
    );
  });

  it("behavior: a change of the document changes the generated types", async () => {
    const document = await servedOpenApiDocument();
    const changed = structuredClone(document);
    const schemas = changed.components?.schemas as Record<string, { properties: object }>;
    schemas.BridgeTransaction!.properties = {
      ...schemas.BridgeTransaction!.properties,
      added_field: { type: "string" },
    };
    assert.notEqual(await clientTypesOf(changed), await clientTypesOf(document));
  });
});
