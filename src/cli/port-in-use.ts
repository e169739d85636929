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
