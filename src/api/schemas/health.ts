/**
 * Schemas of the probes. /readyz's data is open (additionalProperties) on purpose: readiness
 * checks added later (the indexer's per-chain block, head and lag) put their own keys in it.
 */
import { standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

export const healthzRouteSchema = {
  summary: "Liveness probe",
  description: "Answers while the process is alive; touches nothing else.",
  tags: ["health"],
  response: {
    200: successEnvelopeSchema("HealthzResponse", {
      type: "object",
      required: ["status"],
      additionalProperties: false,
      properties: { status: { type: "string", enum: ["ok"] } },
    }),
    ...standardErrorResponses,
  },
} as const;

export const readyzRouteSchema = {
  summary: "Readiness probe",
  description:
    "200 when the database answers (and every other readiness check passes); otherwise 503 " +
    "with code 50301 and a msg naming what is not ready.",
  tags: ["health"],
  response: {
    200: successEnvelopeSchema("ReadyzResponse", {
      type: "object",
      required: ["status", "database"],
      additionalProperties: true,
      properties: {
        status: { type: "string", enum: ["ok"] },
        database: { type: "string", enum: ["ok"], description: "The database answered a ping" },
      },
    }),
    ...standardErrorResponses,
  },
} as const;
