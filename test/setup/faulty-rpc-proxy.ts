/**
 * A JSON-RPC proxy in front of an anvil node that misbehaves like real providers do, with
 * seeded randomness so a failing run can be replayed:
 *   - fails a share of calls (HTTP 502, or a JSON-RPC internal error),
 *   - answers a share with 429 and `Retry-After`,
 *   - delays a share past the client's timeout,
 *   - refuses eth_getLogs spanning more than `maxLogRange` blocks ("query exceeds max block range").
 * Any path, query and user info are accepted, so URLs with credentials can be tested.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createPrng } from "../../src/transfers/prng.js";

export interface FaultyRpcProxyOptions {
  upstream: string;
  seed?: number;
  failRate?: number;
  rateLimitRate?: number;
  /** Seconds sent in Retry-After. */
  retryAfterSeconds?: number;
  timeoutRate?: number;
  /** How long a "timed out" answer is held back, in ms. */
  delayMs?: number;
  maxLogRange?: number;
}

export interface FaultStats {
  calls: number;
  failed: number;
  rateLimited: number;
  delayed: number;
  rangeRefused: number;
}

export interface FaultyRpcProxy {
  url: string;
  stats: FaultStats;
  /** Auth headers seen (to check credentials were sent as Basic auth, not dropped). */
  authorizations: Set<string>;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function logSpan(call: { method?: string; params?: unknown[] }): number | undefined {
  if (call.method !== "eth_getLogs") return undefined;
  const filter = call.params?.[0] as { fromBlock?: string; toBlock?: string } | undefined;
  if (filter?.fromBlock === undefined || filter.toBlock === undefined) return undefined;
  return Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1;
}

export async function startFaultyRpcProxy(options: FaultyRpcProxyOptions): Promise<FaultyRpcProxy> {
  const random = createPrng(options.seed ?? 1).float;
  const stats: FaultStats = { calls: 0, failed: 0, rateLimited: 0, delayed: 0, rangeRefused: 0 };
  const authorizations = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const text = await body(req);
    stats.calls++;
    if (req.headers.authorization !== undefined) authorizations.add(req.headers.authorization);
    let call: { id?: unknown; method?: string; params?: unknown[] } = {};
    try {
      call = JSON.parse(text);
    } catch {
      // forwarded as is
    }
    const roll = random();
    const fail = options.failRate ?? 0;
    const limit = options.rateLimitRate ?? 0;
    const slow = options.timeoutRate ?? 0;
    if (roll < fail) {
      stats.failed++;
      if (random() < 0.5) {
        res.writeHead(502).end("bad gateway");
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: call.id,
            error: { code: -32603, message: "internal error" },
          }),
        );
      }
      return;
    }
    if (roll < fail + limit) {
      stats.rateLimited++;
      res
        .writeHead(429, { "retry-after": String(options.retryAfterSeconds ?? 1) })
        .end("slow down");
      return;
    }
    const span = logSpan(call);
    if (span !== undefined && options.maxLogRange !== undefined && span > options.maxLogRange) {
      stats.rangeRefused++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32005, message: `query exceeds max block range ${options.maxLogRange}` },
        }),
      );
      return;
    }
    if (roll < fail + limit + slow) {
      stats.delayed++;
      await new Promise((r) => setTimeout(r, options.delayMs ?? 3000));
    }
    try {
      const upstream = await fetch(options.upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      });
      const answer = await upstream.text();
      if (res.destroyed) return;
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(answer);
    } catch {
      if (!res.destroyed) res.writeHead(502).end("upstream unreachable");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
