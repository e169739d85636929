/** Whether a command can listen where its settings say, asked before it creates anything. */
import { createServer } from "node:net";
import { errorMessage } from "../errors.js";

/** null when host:port can be bound now, else why not (EADDRINUSE, EACCES, ...). */
export function portInUse(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error) => resolve(errorMessage(error)));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}

/**
 * null when the devnet's chains can listen on `count` consecutive ports from `first` (flag
 * `--rpc-port`), else a line saying which port cannot and why. Asked after DEVNET_DIR's lock is
 * taken: that is when a killed run's chains, which may still hold these ports, are stopped.
 */
export async function rpcPortsProblem(first: number, count: number): Promise<string | null> {
  for (let port = first; port < first + count; port++) {
    const problem = await portInUse("127.0.0.1", port);
    if (problem !== null) {
      return `cannot listen on 127.0.0.1:${port} (--rpc-port ${first}: the ${count} chains take ports ${first}-${first + count - 1}): ${problem}`;
    }
  }
  return null;
}
