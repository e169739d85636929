/**
 * Checks a response the API really sent against the OpenAPI document it serves, the way a
 * generated client reads it: the status is declared for the operation (or `default`), every
 * required header is there and every declared header that is there has the declared type, the
 * content type is one the status declares, and the body validates against that content's schema
 * (Ajv, with the document's components; OpenAPI 3.0's `nullable` is Ajv's own keyword).
 */
import { Ajv, type ValidateFunction } from "ajv";

export interface OpenApiHeader {
  required?: boolean;
  description?: string;
  schema?: { type?: string };
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, { schema: Record<string, unknown>; example?: unknown }>;
}

export interface OpenApiOperation {
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  parameters?: { name: string; in: string; schema: unknown; example?: unknown }[];
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

/** What the check needs of a response (light-my-request's Response has it). */
export interface SentResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * Headers a client acts on: each one a response carries must be documented for its status
 * (other headers, content-length, date, ..., are HTTP's own).
 */
export const CLIENT_HEADERS = [
  "x-request-id",
  "retry-after",
  "allow",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
] as const;

/** The key of the response documented for `status`: the exact code, its `4XX` range, `default`. */
export function documentedStatus(operation: OpenApiOperation, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, "default"].find(
    (key) => operation.responses[key] !== undefined,
  );
}

export function createConformanceChecker(doc: OpenApiDocument) {
  // Every schema is compiled inside a root that carries the components, so the document's
  // `#/components/schemas/...` references resolve as they do in the document.
  const ajv = new Ajv({ strict: false, allErrors: true });
  const compiled = new Map<object, ValidateFunction>();
  function validator(schema: Record<string, unknown>): ValidateFunction {
    const known = compiled.get(schema);
    if (known !== undefined) return known;
    const validate = ajv.compile({ ...schema, components: doc.components });
    compiled.set(schema, validate);
    return validate;
  }

  /** Validates `value` against a schema of the document; the problems, empty when it fits. */
  function schemaProblems(schema: Record<string, unknown>, value: unknown): string[] {
    const validate = validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
  }

  function operationOf(method: string, path: string): OpenApiOperation {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    if (operation === undefined) throw new Error(`${method} ${path} is not in the document`);
    return operation;
  }

  /**
   * What is wrong with `response` as an answer of `method path` (`path` as in the document,
   * e.g. `/api/oracle/bridge-transactions`); empty when it matches the document.
   */
  function problems(method: string, path: string, response: SentResponse): string[] {
    const operation = operationOf(method, path);
    const status = response.statusCode;
    const key = documentedStatus(operation, status);
    const documented = key === undefined ? undefined : operation.responses[key];
    if (documented === undefined) {
      return [
        `status ${status} is not documented (documented: ${Object.keys(operation.responses).join(", ")}); body ${response.body.slice(0, 200)}`,
      ];
    }
    const found: string[] = [];
    const declared = new Set(Object.keys(documented.headers ?? {}).map((n) => n.toLowerCase()));
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required === true) found.push(`required header ${name} is missing`);
        continue;
      }
      const type = header.schema?.type;
      if (type === "integer" && !/^[0-9]+$/.test(String(value))) {
        found.push(`header ${name} is documented as an integer, sent '${String(value)}'`);
      }
    }
    for (const name of CLIENT_HEADERS) {
      if (response.headers[name] !== undefined && !declared.has(name)) {
        found.push(`header ${name} is sent but not documented for ${status}`);
      }
    }
    const contentType = String(response.headers["content-type"] ?? "");
    const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
    if (documented.content === undefined) {
      if (response.body !== "") found.push(`status ${status} documents no body, sent one`);
      return found;
    }
    const media = documented.content[mediaType];
    if (media === undefined) {
      found.push(
        `content type '${contentType}' is not documented for ${status} (documented: ${Object.keys(documented.content).join(", ")})`,
      );
      return found;
    }
    let body: unknown = response.body;
    if (mediaType === "application/json") {
      try {
        body = JSON.parse(response.body);
      } catch {
        found.push(`the body is not JSON: ${response.body.slice(0, 200)}`);
        return found;
      }
    }
    for (const problem of schemaProblems(media.schema, body)) {
      found.push(`body ${problem}; body ${response.body.slice(0, 300)}`);
    }
    return found;
  }

  return { problems, schemaProblems, operationOf };
}
