/**
 * A webhook receiver on loopback for tests: records every request (headers, raw body) and
 * answers as `behave` decides: 200, 500, or never (a hang the sender's time limit must end).
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceiverAnswer = "ok" | "fail" | "hang";

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  readonly answer: ReceiverAnswer;
  readonly at: number;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Requests answered 2xx. */
  delivered(): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  behave: (request: { path: string; body: string; n: number }) => ReceiverAnswer = () => "ok",
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      const answer = behave({ path, body, n: n++ });
      requests.push({
        method: req.method ?? "",
        path,
        headers: req.headers,
        body,
        answer,
        at: Date.now(),
      });
      if (answer === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      res.statusCode = answer === "ok" ? 200 : 500;
      res.end(answer === "ok" ? "ok" : "receiver failure");
    });
  });
  server.keepAliveTimeout = 1000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    delivered: () => requests.filter((r) => r.answer === "ok"),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close").catch(() => {});
    },
  };
}
