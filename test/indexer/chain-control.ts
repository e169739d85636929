/** anvil's test RPC methods used to build reorganisations. */
import type { ChainConnection } from "../setup/anvil.js";

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
