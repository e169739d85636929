/**
 * Listens: builds the app (app.ts) and binds it to config.host:config.port. Closing stops
 * accepting connections, lets in-flight requests finish (new requests on kept-alive connections
 * get 503 50301 "shutting down"), closes each connection once it is idle, then resolves. The
 * store belongs to the caller.
 */
import type { FastifyInstance } from "fastify";
import { type BuildAppOptions, buildApp } from "./app.js";

export interface RunningServer {
  app: FastifyInstance;
  /** http://host:port actually bound (port 0 in options resolves to the real port). */
  url: string;
  close(): Promise<void>;
}

export interface StartServerOptions extends BuildAppOptions {
  /** Overrides config.port; 0 picks a free port (tests). */
  port?: number;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const app = await buildApp(options);
  try {
    await app.listen({ port: options.port ?? options.config.port, host: options.config.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.config.port;
  const host = options.config.host.includes(":") ? `[${options.config.host}]` : options.config.host;
  return { app, url: `http://${host}:${port}`, close: () => closeApp(app) };
}

/** While closing, how often connections that have become idle are closed. */
const IDLE_CLOSE_INTERVAL_MS = 100;

/**
 * Node's server.close() closes the connections idle at that moment, but one whose request was
 * still in flight stays open after its answer until the client drops it (Fastify keeps idle
 * connections 72 s), and the close waits for it: a client with keep-alive held shutdown that
 * long. So such connections are closed as soon as they go idle too.
 */
async function closeApp(app: FastifyInstance): Promise<void> {
  const timer = setInterval(() => app.server.closeIdleConnections(), IDLE_CLOSE_INTERVAL_MS);
  try {
    await app.close();
  } finally {
    clearInterval(timer);
  }
}
