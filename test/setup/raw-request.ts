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
