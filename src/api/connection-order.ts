/**
 * What an HTTP/1.1 connection still owes its client, so that answers written straight to the
 * socket (a request Node's parser refused, a CONNECT: client-error.ts, unroutable-requests.ts)
 * come after the responses to the requests pipelined ahead of them, never before.
 *
 * Node emits 'request' for each pipelined request as it parses it, then 'clientError' for a
 * malformed one further on in the same bytes, while the earlier requests' responses may still be
 * in the making (an async route). Written at once, the refusal went out first and the connection
 * closed under the valid request's answer.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

interface ConnectionState {
  /** Responses taken on and not yet closed. */
  inFlight: number;
  /** The last request taken on, while its response is not closed. */
  last: IncomingMessage | undefined;
  /** Writes waiting for inFlight to reach 0. */
  waiting: (() => void)[];
  /** An answered request whose body has not all arrived (its rest is being discarded). */
  bodyOutstanding: IncomingMessage | undefined;
}

export interface ConnectionOrder {
  /** Counts `request`'s response as owed on its connection until the response closes. */
  track(request: IncomingMessage, response: ServerResponse): void;
  /**
   * Runs `write` once `socket` owes no response: at once, or when the last one closes. A request
   * whose body is still arriving is not waited for: the refusal is about that body (its framing,
   * or its time running out), and the parser that would have fed it has given up.
   */
  afterResponses(socket: Socket, write: () => void): void;
  /**
   * Whether the last request answered on `socket` was answered before its body arrived whole
   * (a refusal that reads and discards the rest): a request timeout on the connection is then
   * about that body, and the client already has its answer.
   */
  answeredBeforeBody(socket: Socket): boolean;
  /** Tracks every request `server` emits. */
  attach(server: Server): void;
}

/** Responses that will still come: all in flight but a last request still receiving its body. */
function owed(state: ConnectionState): number {
  const receiving = state.last !== undefined && !state.last.complete ? 1 : 0;
  return state.inFlight - receiving;
}

export function createConnectionOrder(): ConnectionOrder {
  const states = new WeakMap<Socket, ConnectionState>();

  function stateOf(socket: Socket): ConnectionState {
    let state = states.get(socket);
    if (state === undefined) {
      state = { inFlight: 0, last: undefined, waiting: [], bodyOutstanding: undefined };
      states.set(socket, state);
    }
    return state;
  }

  const order: ConnectionOrder = {
    track(request, response) {
      const state = stateOf(request.socket);
      state.inFlight++;
      state.last = request;
      response.once("finish", () => {
        if (!request.complete) {
          state.bodyOutstanding = request;
          request.once("end", () => {
            if (state.bodyOutstanding === request) state.bodyOutstanding = undefined;
          });
        }
      });
      // 'close' follows 'finish' (or an aborted connection); either way nothing more is owed.
      response.once("close", () => {
        state.inFlight--;
        if (state.last === request) state.last = undefined;
        if (owed(state) > 0) return;
        for (const write of state.waiting.splice(0)) write();
      });
    },
    afterResponses(socket, write) {
      const state = stateOf(socket);
      if (owed(state) === 0) write();
      else state.waiting.push(write);
    },
    answeredBeforeBody(socket) {
      return states.get(socket)?.bodyOutstanding !== undefined;
    },
    attach(server) {
      server.on("request", (request: IncomingMessage, response: ServerResponse) =>
        order.track(request, response),
      );
    },
  };
  return order;
}
