/**
 * A small Fastify app with the real error envelope, the auth and rate-limit plugins and stand-in
 * routes shaped like the API's: the router (key required), the list (key optional) and a health
 * check (not rate limited).
 */
import Fastify, { type FastifyInstance } from "fastify";
import { type ApiKeyAuthOptions, registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerErrorHandling, setEnvelopeErrorHandler } from "../../src/api/plugins/errors.js";
import { type RateLimitOptions, registerRateLimit } from "../../src/api/plugins/rate-limit.js";

export interface TinyAppOptions {
  auth: ApiKeyAuthOptions;
  rateLimit?: RateLimitOptions;
  /** Receives the app's JSON log lines (info and up); no logging without it. */
  logDestination?: { write(line: string): void };
}

export async function buildTinyApp(options: TinyAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logDestination === undefined
        ? false
        : { level: "info", stream: options.logDestination },
  });
  setEnvelopeErrorHandler(app, { bodyLimit: 16 * 1024 });
  registerErrorHandling(app);
  await registerApiKeyAuth(app, options.auth);
  if (options.rateLimit !== undefined) await registerRateLimit(app, options.rateLimit);
  const whoami = async (request: { apiKey?: { name: string } | undefined }) => ({
    code: 0,
    msg: "success",
    data: { key: request.apiKey?.name ?? null },
  });
  app.post("/api/oracle/router", { config: { apiKey: "required" } }, whoami);
  app.get("/api/oracle/bridge-transactions", whoami);
  app.get("/healthz", { config: { rateLimitExempt: true } }, whoami);
  await app.ready();
  return app;
}
