/**
 * One delivery attempt: `POST url` with the event's frozen body, signed, within a time limit
 * (docs/webhooks.md). Returns what happened; never throws.
 *
 * - No redirect is followed (node's http.request never follows one): a 3xx is a failed attempt.
 * - The address connected to is checked (outbound-address.ts) inside the connection's own DNS
 *   lookup, so the check and the connection use the same answer: a name that resolves to a
 *   public address when checked and to a private one when connecting (DNS rebinding) cannot
 *   slip through. An address literal is checked before connecting (node does not look it up).
 * - The whole attempt (connect, TLS, headers, body) must end within `timeoutMs` (10 s).
 * - At most 1 KiB of the response body is read, then the connection is dropped: a receiver
 *   cannot make us download anything large or hold a connection open by trickling a body.
 */

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from "../config/webhook-config.js";
import { hostOf, isPrivateAddress } from "./outbound-address.js";
import {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
} from "./signature.js";

/** A 2xx within this long delivers (docs/webhooks.md, "Retries"); config/webhook-config.ts. */
export { DEFAULT_WEBHOOK_TIMEOUT_MS };
/** How much of a response body is read (and kept, for `deliveries`). */
export const MAX_RESPONSE_BYTES = 1024;

export interface WebhookRequest {
  readonly url: string;
  readonly secret: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The event's frozen JSON body, sent byte for byte on every attempt. */
  readonly body: string;
  /** Unix seconds of this attempt, signed with the body. */
  readonly timestamp: number;
}

export interface AttemptOutcome {
  /** A 2xx arrived in time. */
  readonly ok: boolean;
  /** The response status, when one arrived. */
  readonly status: number | undefined;
  /** Why the attempt failed, for `deliveries` (never the secret or URL credentials). */
  readonly error: string | undefined;
  /** The start of the response body (at most MAX_RESPONSE_BYTES, as UTF-8). */
  readonly responseBody: string;
  readonly durationMs: number;
}

export interface PostWebhookOptions {
  readonly timeoutMs?: number;
  readonly allowPrivateAddresses?: boolean;
}

class RefusedAddressError extends Error {
  readonly code = "EREFUSEDADDRESS";
}

/** dns.lookup that drops private addresses (or fails when none is left). */
function publicOnlyLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) {
        callback(error, "", 4);
        return;
      }
      const allowed = found.filter((entry) => !isPrivateAddress(entry.address));
      if (allowed.length === 0) {
        const refused = new RefusedAddressError(
          `'${hostname}' resolves only to private, loopback or link-local addresses (${found
            .map((entry) => entry.address)
            .join(", ")}); refused`,
        );
        callback(refused, "", 4);
        return;
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      } else {
        const first = allowed[0] as LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };
}

export function postWebhook(
  request: WebhookRequest,
  options: PostWebhookOptions = {},
): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    let status: number | undefined;
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (error: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = error === undefined && status !== undefined && status >= 200 && status < 300;
      resolve({
        ok,
        status,
        error:
          error ??
          (ok
            ? undefined
            : status !== undefined && status >= 300 && status < 400
              ? `HTTP ${status}: redirects are not followed`
              : `HTTP ${status}`),
        responseBody: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString("utf8"),
        durationMs: elapsed(),
      });
      outgoing?.destroy();
    };
    const timer = setTimeout(() => finish(`no complete answer within ${timeoutMs} ms`), timeoutMs);

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      finish("the subscription's URL is not a valid URL");
      return;
    }
    const host = hostOf(url);
    if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
      finish(`${host} is a private, loopback or link-local address; refused`);
      return;
    }
    const transport = url.protocol === "https:" ? https : url.protocol === "http:" ? http : null;
    if (transport === null) {
      finish(`${url.protocol} URLs are not sent to`);
      return;
    }
    try {
      outgoing = transport.request(url, {
        method: "POST",
        agent: false, // one connection per attempt: no socket reused across receivers' checks
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup() }),
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(request.body),
          "user-agent": "bridge-oracle-webhooks/1",
          [EVENT_ID_HEADER]: request.eventId,
          [EVENT_TYPE_HEADER]: request.eventType,
          [SIGNATURE_HEADER]: signatureHeader(request.secret, request.timestamp, request.body),
        },
      });
    } catch (error) {
      finish(`cannot send: ${(error as Error).message}`);
      return;
    }
    outgoing.on("response", (response) => {
      status = response.statusCode;
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= MAX_RESPONSE_BYTES) finish(undefined);
      });
      response.on("end", () => finish(undefined));
      response.on("error", () => finish(undefined));
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // A failure after the status arrived (the body cut off) still counts as that status.
      if (status !== undefined) finish(undefined);
      else finish(error.code === "EREFUSEDADDRESS" ? error.message : describe(error));
    });
    outgoing.end(request.body);
  });
}

/** A connection error as a short phrase (no URL: it may carry credentials). */
function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "ENOTFOUND":
      return "host not found";
    case "EAI_AGAIN":
      return "DNS lookup failed (temporary)";
    case "ETIMEDOUT":
      return "connection timed out";
    default:
      return error.code !== undefined ? `connection failed (${error.code})` : "connection failed";
  }
}
