/**
 * `GET /api/oracle/bridge-transactions/stream` (docs/push.md): the changes of the transfers that
 * `addressOrTxHash` matches, as server-sent events. The request gate treats it as the list
 * endpoint: no key needed, rate limited once per stream opened. Every refusal (400, 429 for too
 * many open streams, 503) is answered in the envelope before the stream starts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, invalidParameter } from "../../errors.js";
import type { Store, TransferMatch } from "../../store/types.js";
import { clientAddress, clientBucket } from "../plugins/rate-limit.js";
import { parseAddressOrTxHash, shown, single } from "../schemas/list-transfers-query.js";
import { latestStreamRouteSchema, transferStreamRouteSchema } from "../schemas/transfer-stream.js";
import type { ChangeFeed } from "../stream/change-feed.js";
import type { StreamRegistry } from "../stream/stream-registry.js";
import {
  prepareTransferStream,
  STREAM_HEADERS,
  StreamClosedError,
} from "../stream/transfer-stream-session.js";
import { storeFailure } from "./list-transfers.js";

export const TRANSFER_STREAM_PATH = "/api/oracle/bridge-transactions/stream";
/** Every transfer's changes: what the explorer's live feed of the latest transfers follows. */
export const LATEST_STREAM_PATH = "/api/oracle/bridge-transactions/latest/stream";

/** Retry-After of a 429 for too many open streams: a slot frees when a stream ends. */
const STREAM_LIMIT_RETRY_SECONDS = 5;

export interface TransferStreamRouteDeps {
  store: Store;
  feed: ChangeFeed;
  registry: StreamRegistry;
  /** Bytes a client may leave unread before its stream is ended. */
  maxBufferedBytes: number;
}

/** Event ids (seqs) have at most 15 digits: exact as a JS number, and as a BIGINT. */
const MAX_SEQ_DIGITS = 15;

/** Last-Event-ID (wins: EventSource sends it on reconnecting to the same URL) or `since`. */
export function parseResumePoint(
  header: string | string[] | undefined,
  query: Readonly<Record<string, unknown>>,
): number | undefined {
  const lastEventId = Array.isArray(header) ? header[0] : header;
  if (lastEventId !== undefined && lastEventId.trim() !== "") {
    return eventId("Last-Event-ID", lastEventId.trim());
  }
  const since = single(query, "since");
  if (since === undefined || since === "") return undefined;
  return eventId("since", since);
}

/** A resume point's value, or 400 40001 naming the rule it breaks (docs/push.md, "Resuming"). */
function eventId(parameter: string, value: string): number {
  if (!/^[0-9]+$/.test(value)) {
    throw invalidParameter(
      parameter,
      `must be an event id of this stream (a non-negative integer), got ${shown(value)}`,
    );
  }
  if (value.length > MAX_SEQ_DIGITS) {
    throw invalidParameter(
      parameter,
      `is too large to be an event id of this stream (at most ${MAX_SEQ_DIGITS} digits), got ${shown(value)}`,
    );
  }
  return Number(value);
}

export function registerTransferStreamRoute(
  app: FastifyInstance,
  deps: TransferStreamRouteDeps,
): void {
  const { store, feed, registry } = deps;
  app.get(TRANSFER_STREAM_PATH, {
    schema: transferStreamRouteSchema,
    // The schema documents; the parsers below validate with the list endpoint's messages.
    validatorCompiler: () => (value) => ({ value }),
    handler: (request, reply) =>
      openStream(request, reply, parseAddressOrTxHash(request.query as Record<string, unknown>)),
  });
  app.get(LATEST_STREAM_PATH, {
    schema: latestStreamRouteSchema,
    validatorCompiler: () => (value) => ({ value }),
    handler: (request, reply) => openStream(request, reply, undefined),
  });

  async function openStream(
    request: FastifyRequest,
    reply: FastifyReply,
    match: TransferMatch | undefined,
  ): Promise<unknown> {
    const query = request.query as Record<string, unknown>;
    const resumeAfter = parseResumePoint(request.headers["last-event-id"], query);
    if (registry.closing()) throw shuttingDown();
    const key = request.apiKey;
    const admission = registry.admit(
      key === undefined ? `ip:${clientBucket(clientAddress(request))}` : `key:${key.id}`,
      key !== undefined,
    );
    // HEAD (Fastify answers it with this handler): the headers a GET would get now, and no
    // stream: a HEAD never reads a body, so a stream would hold its slot until the client left.
    if (request.method === "HEAD" && admission.admitted) {
      admission.release();
      return reply.code(200).headers(STREAM_HEADERS).send();
    }
    if (!admission.admitted) {
      const who =
        admission.who === "key"
          ? `API key '${key?.name}' (${key?.prefix}...)`
          : "this client address";
      throw new ApiError(
        "rateLimited",
        `at most ${admission.limit} concurrent streams are allowed for ${who}; close one or retry after ${STREAM_LIMIT_RETRY_SECONDS} s`,
        { headers: { "retry-after": String(STREAM_LIMIT_RETRY_SECONDS) } },
      );
    }
    let prepared: Awaited<ReturnType<typeof prepareTransferStream>>;
    try {
      prepared = await prepareTransferStream(
        {
          feed,
          changes: store.transferChanges,
          registry,
          maxBufferedBytes: deps.maxBufferedBytes,
          logger: request.log,
        },
        { match, resumeAfter, onEnd: admission.release },
      );
    } catch (error) {
      admission.release();
      if (error instanceof StreamClosedError) throw shuttingDown();
      throw storeFailure(error);
    }
    if (request.raw.destroyed || reply.raw.destroyed) {
      prepared.abandon();
      return;
    }
    reply.hijack();
    prepared.start(reply.raw, reply.getHeaders() as Record<string, string | string[] | number>);
  }
}

function shuttingDown(): ApiError {
  return new ApiError("serviceUnavailable", "the server is shutting down; retry shortly", {
    headers: { "retry-after": "1" },
  });
}
