/** A built app listening on a free port of the loopback interface, for tests over real sockets. */
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";

export async function listenOnLoopback(
  app: FastifyInstance,
): Promise<{ port: number; baseUrl: string }> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  assert.ok(
    address !== null && typeof address === "object",
    'address !== null && typeof address === "object"',
  );
  return { port: address.port, baseUrl: `http://127.0.0.1:${address.port}` };
}
