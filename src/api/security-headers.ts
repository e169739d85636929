/**
 * One security-header policy for every response the service sends (docs/http-api.md, "Security
 * headers"): routes, 404s, refusals by the request gate, framework errors, the event stream, and
 * the answers written straight to a socket (client-error.ts, unusual-requests.ts).
 *
 * - `X-Content-Type-Options: nosniff`: a JSON answer or an asset is never run as something else;
 * - `Referrer-Policy: no-referrer`: a page of ours (the explorer, /docs) leaks no URL to others;
 * - framing refused twice: CSP `frame-ancestors 'none'` for today's browsers and
 *   `X-Frame-Options: DENY` for older ones (clickjacking). The explorer page sends its own,
 *   fuller CSP (routes/explorer.ts), which replaces the default one here.
 */
import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";

/** The headers of every response, as [name, value] (lower-case names). */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "no-referrer"],
  ["x-frame-options", "DENY"],
  ["content-security-policy", "frame-ancestors 'none'"],
];

/**
 * Sets the policy on a response before anything is written. Headers a route sets later (or
 * passes to writeHead) win, so a route can widen or narrow its own CSP.
 */
export function applySecurityHeaders(response: ServerResponse): void {
  if (response.headersSent) return;
  for (const [name, value] of SECURITY_HEADERS) response.setHeader(name, value);
}

/** The policy as header lines of a response written by hand (`Name: value\r\n` each). */
export function rawSecurityHeaderLines(): string {
  return SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}\r\n`).join("");
}

/**
 * The first onRequest hook of the app: every request's response carries the policy, whoever
 * answers it. Set as the reply's headers, not on the raw response: once a header is set on the
 * raw response, writeHead takes Node's slow path and passes each of the reply's headers through
 * setHeader again (bench/RESULTS.md, "protocol seam: before and after (A/B)"). The event
 * stream, a hijacked reply, writes the reply's headers itself (routes/transfer-stream.ts), so
 * it has them too.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
    done();
  });
}
