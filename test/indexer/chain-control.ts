/** anvil's test RPC methods used to build reorganisations, and a proxy to misbehave with. */
import { createServer } from "node:http";
import type { ChainConnection } from "../setup/anvil.js";
import { freePort } from "../setup/free-port.js";

type Rpc = (args: { method: string; params?: unknown[] }) => Promise<unknown>;

function rpc(conn: ChainConnection): Rpc {
  return conn.client.request as unknown as Rpc;
}

export async function snapshot(conn: ChainConnection): Promise<string> {
  return (await rpc(conn)({ method: "evm_snapshot" })) as string;
}

/** Back to the snapshot: every block after it is orphaned. */
export async function revertTo(conn: ChainConnection, id: string): Promise<void> {
  const ok = await rpc(conn)({ method: "evm_revert", params: [id] });
  if (ok !== true) throw new Error(`evm_revert(${id}) failed`);
}

export async function mine(conn: ChainConnection, blocks: number): Promise<void> {
  if (blocks <= 0) return;
  await rpc(conn)({ method: "anvil_mine", params: [`0x${blocks.toString(16)}`] });
}

export async function height(conn: ChainConnection): Promise<number> {
  return Number(await conn.client.getBlockNumber({ cacheTime: 0 }));
}

export interface JsonRpcCall {
  method: string;
  params?: unknown[];
}

/**
 * A JSON-RPC proxy in front of `upstream`: every request is forwarded, then `intercept` sees the
 * calls and the answers (one per call, single or batch) and may change the answers or act on
 * the node through `send` before the answer goes back.
 */
export async function startRpcProxy(
  upstream: string,
  intercept: (
    calls: JsonRpcCall[],
    answers: { result?: unknown }[],
    send: (payload: unknown) => Promise<unknown>,
  ) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const send = (payload: unknown) =>
    fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    }).then((r) => r.json() as Promise<unknown>);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    const answer = await send(payload);
    await intercept(
      (Array.isArray(payload) ? payload : [payload]) as JsonRpcCall[],
      (Array.isArray(answer) ? answer : [answer]) as { result?: unknown }[],
      send,
    );
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
