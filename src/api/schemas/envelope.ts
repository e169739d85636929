/**
 * JSON schemas of the response envelope (docs/http-api.md, "The envelope" and API rule 6).
 * Registered once with `app.addSchema` (see shared.ts) and referenced by `$ref`, so
 * fast-json-stringify serialises every response from a schema and @fastify/swagger emits them as
 * OpenAPI components.
 */

/** Every error: `{ code, msg, data: null }`. */
export const errorEnvelopeSchema = {
  $id: "ErrorEnvelope",
  title: "ErrorEnvelope",
  description:
    "Error response. `code` is the error code of the table in the README (40001, 40401, ...); " +
    "`msg` says what to change; `data` is always null.",
  type: "object",
  required: ["code", "msg", "data"],
  additionalProperties: false,
  properties: {
    code: { type: "integer", description: "Non-zero error code", examples: [40001] },
    msg: {
      type: "string",
      description: "What went wrong, naming the parameter, rule or limit",
      examples: ["pageSize must be an integer from 1 to 100, got '500'"],
    },
    data: { type: "null" },
  },
} as const;

/** `$ref` to the error envelope, for the 4xx / 5xx entries of a route's response schema. */
export const errorEnvelopeRef = { $ref: "ErrorEnvelope#" } as const;

/**
 * A success envelope `{ code: 0, msg: "success", data }` around `dataSchema`. Only the outer
 * object gets a title: an inline `$id` would have to be unique across the whole app.
 */
export function successEnvelopeSchema<const D extends object>(title: string, dataSchema: D) {
  return {
    title,
    type: "object",
    required: ["code", "msg", "data"],
    additionalProperties: false,
    properties: {
      code: { type: "integer", enum: [0], description: "0 on success" },
      msg: { type: "string", enum: ["success"] },
      data: dataSchema,
    },
  } as const;
}

/** The error responses every route can produce, keyed as Fastify response schemas. */
export const standardErrorResponses = {
  "4xx": errorEnvelopeRef,
  "5xx": errorEnvelopeRef,
} as const;
