/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a garbage request line, headers
 * over the size limit, a body longer than its Content-Length, a request that never finishes)
 * get the envelope too, with an `x-request-id`, instead of Fastify's own JSON shape:
 * 400 40003, 431 43101 or 408 40801. The connection is closed after the answer, as Node does,
 * since the rest of the stream cannot be trusted. The answer goes after the responses still owed
 * to requests pipelined ahead of the refused one (connection-order.ts).
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../errors.js";
import type { ConnectionOrder } from "./connection-order.js";
import { errorEnvelope } from "./plugins/errors.js";
import { generateRequestId, REQUEST_ID_HEADER } from "./request-id.js";
import { rawSecurityHeaderLines } from "./security-headers.js";

export interface ClientErrorLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** The ApiError a parser failure stands for. */
export function clientApiError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(
        "headersTooLarge",
        `the request headers are larger than ${maxHeaderSize} bytes`,
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("requestTimeout", "the request did not arrive in time");
    default:
      return new ApiError(
        "malformedRequest",
        "the request is not valid HTTP/1.1 (request line, headers or body framing)",
      );
  }
}

/** A whole HTTP/1.1 response with the envelope of `error`, closing the connection. */
export function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorEnvelope(error));
  const headers = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
    rawSecurityHeaderLines() +
    headers.join("") +
    "Connection: close\r\n\r\n" +
    body
  );
}

/** A server 'clientError' listener: answers with the envelope and closes the connection. */
export function createClientErrorHandler(
  log: () => ClientErrorLog | undefined,
  connections: ConnectionOrder,
) {
  // Node reports a parser failure again for every later chunk on the connection: one answer.
  const answered = new WeakSet<Socket>();
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection or one already answered has nobody left to tell.
    if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT" && connections.answeredBeforeBody(socket)) {
      // The client has its answer; the body it announced stopped arriving. Nothing more to say.
      log()?.info(
        { parserError: error.code },
        "the body of an answered request did not arrive in time; connection closed",
      );
      socket.destroy();
      return;
    }
    const apiError = clientApiError(error);
    const requestId = generateRequestId({ headers: {} });
    log()?.info(
      { reqId: requestId, code: apiError.code, status: apiError.status, parserError: error.code },
      apiError.message,
    );
    connections.afterResponses(socket, () => {
      if (socket.writable) socket.end(rawErrorResponse(apiError, requestId));
      else socket.destroy();
    });
  };
}
