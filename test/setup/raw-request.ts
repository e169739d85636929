/** Raw HTTP/1.1 bytes to a listening server, for requests no HTTP client would send. */
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server wrote before it closed the connection. */
  raw: string;
}

/**
 * Sends `bytes` on a fresh connection and parses the first response the server writes.
 * `halfClose: false` leaves the request open, as a client that stalled mid-request does.
 */
export function rawRequest(
  port: number,
  bytes: string,
  { halfClose = true }: { halfClose?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? "0");
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: rest.join("\r\n\r\n").slice(0, length),
        raw: received,
      });
    });
    socket.write(bytes);
    // Half-close after the request, so a server that keeps the connection open still answers.
    if (halfClose) socket.end();
  });
}

export interface RawConnection {
  /** Writes `bytes` and resolves with the next whole response (by its Content-Length). */
  exchange(bytes: string): Promise<RawResponse>;
  /** Whether the server has closed the connection. */
  closed(): boolean;
  end(): void;
}

/** One kept-alive connection on which requests are sent one after another. */
export async function rawConnection(port: number): Promise<RawConnection> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.setEncoding("utf8");
  let buffered = "";
  let isClosed = false;
  let waiter: (() => void) | undefined;
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    waiter?.();
  });
  socket.on("close", () => {
    isClosed = true;
    waiter?.();
  });
  socket.on("error", () => {});

  /** The first whole response in `buffered`, taken out of it; undefined while incomplete. */
  function takeResponse(): RawResponse | undefined {
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return undefined;
    const [statusLine = "", ...headerLines] = buffered.slice(0, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? "0");
    if (Buffer.byteLength(buffered.slice(end + 4)) < length) return undefined;
    const body = buffered.slice(end + 4, end + 4 + length);
    const raw = buffered.slice(0, end + 4 + length);
    buffered = buffered.slice(end + 4 + length);
    return { status: Number(statusLine.split(" ")[1]), headers, body, raw };
  }

  return {
    exchange(bytes) {
      socket.write(bytes);
      return new Promise((resolve, reject) => {
        waiter = () => {
          const response = takeResponse();
          if (response !== undefined) {
            waiter = undefined;
            resolve(response);
          } else if (isClosed) {
            waiter = undefined;
            reject(new Error(`connection closed before a whole response: ${buffered}`));
          }
        };
        waiter();
      });
    },
    closed: () => isClosed,
    end: () => socket.end(),
  };
}
