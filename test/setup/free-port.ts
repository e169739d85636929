import { createServer } from "node:net";
import { portInUse } from "../../src/cli/port-in-use.js";

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it), for a server to take. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port was assigned");
  return address.port;
}

/** The first of `count` consecutive free ports on 127.0.0.1 (for a devnet's `--rpc-port`). */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort();
    if (first + count - 1 > 65535) continue;
    let free = true;
    for (let port = first + 1; port < first + count && free; port++) {
      free = (await portInUse("127.0.0.1", port)) === null;
    }
    if (free) return first;
  }
  throw new Error(`no run of ${count} free ports found`);
}
