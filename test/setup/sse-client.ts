/**
 * A server-sent events client for tests (the transfer stream, docs/push.md): parses events and
 * comments as they arrive and keeps the last event id as a browser's EventSource does (an `id:`
 * line sets it even when no event follows).
 */
import http from "node:http";

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (status != 200). */
  body: string;
  events: SseEvent[];
  comments: string[];
  lastEventId(): string | undefined;
  /**
   * Resolves with the first event (from `from` on) that `match` accepts; rejects after `ms`
   * (default SSE_WAIT_MS) or when the stream ends, naming `match` and the events received.
   */
  waitFor(match: (event: SseEvent) => boolean, ms?: number, from?: number): Promise<SseEvent>;
  /** Resolves when the server ends the response or the connection closes. */
  ended: Promise<void>;
  /** Drops the connection (as a client that goes away). */
  close(): void;
}

/** How long a test waits for a response or an event by default (a busy machine is slow). */
export const SSE_WAIT_MS = 10_000;

/**
 * Opens a stream: resolves once the response head arrived (a refusal: once its whole body did);
 * rejects, naming the URL, when that takes longer than `ms`.
 */
export function openSse(
  url: string,
  headers: Record<string, string> = {},
  ms = SSE_WAIT_MS,
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: "text/event-stream", ...headers } });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no response from ${url} within ${ms} ms`));
    }, ms);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on("response", (response) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let lastId: string | undefined;
      let pending = "";
      let body = "";
      let endedResolve: () => void = () => {};
      const ended = new Promise<void>((r) => {
        endedResolve = r;
      });
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (response.statusCode !== 200) {
          body += chunk;
          return;
        }
        pending += chunk;
        let cut = pending.indexOf("\n\n");
        while (cut >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          let event = "message";
          const data: string[] = [];
          let id: string | undefined;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
          }
          if (id !== undefined) lastId = id;
          if (data.length > 0) events.push({ id, event, data: data.join("\n") });
          cut = pending.indexOf("\n\n");
        }
        for (const wake of [...waiters]) wake();
      });
      const finish = () => {
        endedResolve();
        for (const wake of [...waiters]) wake();
      };
      response.on("end", finish);
      response.on("close", finish);
      response.on("error", finish);
      let done = false;
      ended.then(() => {
        done = true;
      });
      const connection: SseConnection = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        get body() {
          return body;
        },
        events,
        comments,
        lastEventId: () => lastId,
        waitFor(match, ms = SSE_WAIT_MS, from = 0) {
          return new Promise((resolveEvent, rejectEvent) => {
            const check = () => {
              const found = events.slice(from).find(match);
              if (found !== undefined) {
                cleanup();
                resolveEvent(found);
              } else if (done) {
                cleanup();
                rejectEvent(
                  new Error(
                    `stream ended without an event matching ${match}; got ${JSON.stringify(events)}`,
                  ),
                );
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              rejectEvent(
                new Error(
                  `no event matching ${match} within ${ms} ms; got ${JSON.stringify(events)}`,
                ),
              );
            }, ms);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        ended,
        close() {
          request.destroy();
        },
      };
      const opened = () => {
        clearTimeout(timer);
        resolve(connection);
      };
      if (response.statusCode !== 200) response.on("end", opened);
      else opened();
    });
  });
}
