/**
 * Two kinds of request Node answers itself unless the server listens for them, before Fastify
 * sees them: an `Expect` other than `100-continue` (Node writes a bare 417) and a `CONNECT`
 * (Node drops the connection without a byte). Both get the envelope with an `x-request-id`, as
 * every other refused request does: 417 41701 and 405 40501.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../errors.js";
import { rawErrorResponse } from "./client-error.js";
import type { ConnectionOrder } from "./connection-order.js";
import { errorEnvelope } from "./plugins/errors.js";
import { generateRequestId, REQUEST_ID_HEADER } from "./request-id.js";
import { applySecurityHeaders } from "./security-headers.js";

export interface UnusualRequestLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** How long a CONNECT's connection may stay half-open after its answer. */
const CONNECT_LINGER_MS = 5_000;

/** What this server serves at all: a CONNECT's target is a host, not one of its paths. */
const SERVED_METHODS = "GET, HEAD, POST";

export function answerUnusualRequests(
  server: Server,
  connections: ConnectionOrder,
  log: () => UnusualRequestLog | undefined,
): void {
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    connections.track(request, response);
    const requestId = generateRequestId(request);
    const error = new ApiError(
      "expectationFailed",
      `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported; only 100-continue is`,
    );
    log()?.info(
      { reqId: requestId, code: error.code, status: error.status, method: request.method },
      error.message,
    );
    const body = JSON.stringify(errorEnvelope(error));
    applySecurityHeaders(response);
    response.writeHead(error.status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      [REQUEST_ID_HEADER]: requestId,
    });
    response.end(body);
  });

  server.on("connect", (request: IncomingMessage, socket: Socket) => {
    const requestId = generateRequestId(request);
    const error = new ApiError(
      "methodNotAllowed",
      `CONNECT is not allowed: this server is not a proxy; allowed: ${SERVED_METHODS}`,
      { headers: { allow: SERVED_METHODS } },
    );
    log()?.info({ reqId: requestId, code: error.code, status: error.status }, error.message);
    // Node hands the socket over without a reader: what follows the CONNECT is read and
    // dropped (so the client's close is seen), and the connection closes after the answer; a
    // client that keeps its side open is cut off after CONNECT_LINGER_MS.
    socket.resume();
    connections.afterResponses(socket, () => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(rawErrorResponse(error, requestId));
      const linger = setTimeout(() => socket.destroy(), CONNECT_LINGER_MS);
      linger.unref();
      socket.once("close", () => clearTimeout(linger));
    });
  });
}
