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

/**
 * Ports a run is drawn from: below Linux's ephemeral range (32768 and up), which the OS hands out
 * to every outgoing connection and `listen(0)`; a run taken from there could be taken by another
 * test's connection between this check and the devnet's start.
 */
const RUN_PORTS = { from: 20_000, to: 32_000 };

/** The first of `count` consecutive free ports on 127.0.0.1 (for a devnet's `--rpc-port`). */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first =
      RUN_PORTS.from + Math.floor(Math.random() * (RUN_PORTS.to - RUN_PORTS.from - count));
    let free = true;
    for (let port = first; port < first + count && free; port++) {
      free = (await portInUse("127.0.0.1", port)) === null;
    }
    if (free) return first;
  }
  throw new Error(`no run of ${count} free ports found`);
}
