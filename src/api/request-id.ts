/**
 * Request ids: one per request, logged on every line of it (Fastify's child logger adds `reqId`)
 * and returned in the `x-request-id` response header. A caller's own `x-request-id` is kept when
 * it is sane (1-128 characters of [A-Za-z0-9._:-]), so ids can be followed across services;
 * anything else is replaced, so a header cannot inject text into logs.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const REQUEST_ID_HEADER = "x-request-id";
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function generateRequestId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
