/**
 * Request ids: one per request, logged on every line of it (Fastify's child logger adds `reqId`)
 * and returned in the `x-request-id` response header. A caller's own `x-request-id` is kept when
 * it is sane (1-128 characters of [A-Za-z0-9._:-]), so ids can be followed across services;
 * anything else is replaced, so a header cannot inject text into logs.
 *
 * A generated id is this process's random 64-bit prefix and a counter ("9f0c2a6e41b3d857-1a"):
 * unique across processes and restarts (the prefix is drawn at start) without drawing random
 * bytes for every request.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const REQUEST_ID_HEADER = "x-request-id";
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const PROCESS_PREFIX = `${randomBytes(8).toString("hex")}-`;
let sequence = 0;

export function generateRequestId(request: Pick<IncomingMessage, "headers">): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  if (typeof incoming === "string" && SANE_REQUEST_ID.test(incoming)) return incoming;
  sequence++;
  return PROCESS_PREFIX + sequence.toString(36);
}
