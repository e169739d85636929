/** `npm run generate:client-types`: rewrites packages/client/src/generated/openapi.ts (client-types.ts). */
import { writeFile } from "node:fs/promises";
import { clientTypesOf, GENERATED_TYPES_PATH, servedOpenApiDocument } from "./client-types.js";

await writeFile(GENERATED_TYPES_PATH, await clientTypesOf(await servedOpenApiDocument()));
process.stdout.write(`wrote ${GENERATED_TYPES_PATH}\n`);
