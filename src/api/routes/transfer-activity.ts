/**
 * The explorer's extension endpoints (decisions.md 8; docs/explorer.md): no API key, rate
 * limited like the list (registerRateLimit applies to every route not marked exempt).
 *
 *   GET /api/oracle/bridge-transactions/latest?limit=20      the newest transfers, all addresses
 *   GET /api/oracle/stats/summary                            the last 24 hours
 *   GET /api/oracle/bridge-transactions/:id/timeline         one transfer, step by step
 *
 * The summary reads every transfer of the window; it is computed at most once per
 * SUMMARY_TTL_MS per app (a shared promise), so a busy home page costs one scan per interval.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { BridgeTransaction } from "../../domain/bridge-transaction.js";
import { ApiError, invalidParameter } from "../../errors.js";
import { classifyAddressOrTxHash } from "../../store/transfer-match.js";
import type { Store } from "../../store/types.js";
import {
  DEFAULT_LATEST_LIMIT,
  latestTransfersRouteSchema,
  MAX_LATEST_LIMIT,
  transferSummaryRouteSchema,
  transferTimelineRouteSchema,
} from "../schemas/transfer-activity.js";
import {
  SUMMARY_WINDOW_SECONDS,
  summarizeTransfers,
  type TransferSummary,
  utcText,
} from "../transfer-summary.js";
import { buildTimeline } from "../transfer-timeline.js";
import { LIST_TRANSFERS_PATH, readStore } from "./list-transfers.js";

export const LATEST_TRANSFERS_PATH = `${LIST_TRANSFERS_PATH}/latest`;
export const TRANSFER_SUMMARY_PATH = "/api/oracle/stats/summary";
export const TRANSFER_TIMELINE_PATH = `${LIST_TRANSFERS_PATH}/:id/timeline`;

export const SUMMARY_TTL_MS = 5000;

export interface TransferActivityRouteDeps {
  store: Store;
  /** Milliseconds since the epoch; tests fix it. */
  now?: () => number;
}

/** `limit` of the latest endpoint: absent -> the default; else an integer 1..100. */
export function parseLatestLimit(raw: unknown): number {
  if (raw === undefined) return DEFAULT_LATEST_LIMIT;
  const text = typeof raw === "string" ? raw.trim() : "";
  const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_LATEST_LIMIT)) {
    throw invalidParameter(
      "limit",
      `must be an integer from 1 to ${MAX_LATEST_LIMIT}, got '${String(raw).slice(0, 40)}'`,
    );
  }
  return value;
}

export function registerTransferActivityRoutes(
  app: FastifyInstance,
  deps: TransferActivityRouteDeps,
): void {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const noAjv = () => (value: unknown) => ({ value });

  app.get(LATEST_TRANSFERS_PATH, {
    schema: latestTransfersRouteSchema,
    validatorCompiler: noAjv,
    handler: async (request, reply) => {
      const limit = parseLatestLimit((request.query as Record<string, unknown>).limit);
      const data = await readStore(() => store.transfers.latestTransfers(limit));
      // A conditional request for an unchanged feed is a 304 without a body: an idle tab that
      // revalidates pays a few hundred bytes instead of the whole page of records.
      const text = reply.serialize({ code: 0, msg: "success", data: { data } }) as string;
      const etag = `W/"${createHash("sha256").update(text).digest("base64url").slice(0, 22)}"`;
      reply.header("etag", etag).header("cache-control", "no-cache");
      if (etagMatches(request.headers["if-none-match"], etag)) return reply.code(304).send();
      return reply.type("application/json; charset=utf-8").send(text);
    },
  });

  let summary: { at: number; value: Promise<TransferSummary> } | undefined;
  app.get(TRANSFER_SUMMARY_PATH, {
    schema: transferSummaryRouteSchema,
    handler: async () => {
      const at = now();
      if (summary === undefined || at - summary.at >= SUMMARY_TTL_MS || at < summary.at) {
        const seconds = Math.floor(at / 1000);
        const since = utcText(seconds - SUMMARY_WINDOW_SECONDS);
        const value = readStore(() => store.transfers.transfersStartedSince(since)).then((rows) =>
          summarizeTransfers(rows, seconds),
        );
        summary = { at, value };
        // A failed read is not kept: the next request tries again.
        value.catch(() => {
          if (summary?.value === value) summary = undefined;
        });
      }
      return { code: 0, msg: "success", data: await summary.value };
    },
  });

  app.get(TRANSFER_TIMELINE_PATH, {
    schema: transferTimelineRouteSchema,
    validatorCompiler: noAjv,
    handler: async (request) => {
      const id = String((request.params as Record<string, unknown>).id ?? "").trim();
      const transfer = await findTransfer(store, id);
      const events = await readStore(() => store.transfers.transferEvents(transfer.message_id));
      return { code: 0, msg: "success", data: buildTimeline(transfer, events) };
    },
  });
}

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** The one transfer `id` names: its message id, or a tx hash only it has. */
async function findTransfer(store: Store, id: string): Promise<BridgeTransaction> {
  const match = classifyAddressOrTxHash(id);
  if (match === undefined || match.kind === "evmAddress") {
    throw invalidParameter(
      "id",
      "must be a message id or a transaction hash (0x + 64 hex digits, or 1-128 characters from A-Z a-z 0-9 : _ -)",
    );
  }
  const byId = await readStore(() => store.transfers.getTransfer(match.value));
  if (byId !== undefined) return byId;
  const found = await readStore(() =>
    store.transfers.listTransfers({
      match,
      offset: 0,
      limit: 2,
      sortField: "created_at",
      sortOrder: "desc",
    }),
  );
  const [first] = found.items;
  if (first === undefined) {
    throw new ApiError("notFound", `no transfer has the message id or transaction hash ${id}`);
  }
  if (found.total > 1) {
    throw new ApiError(
      "notFound",
      `${id} is the transaction of ${found.total} transfers; ask for one by its message id`,
    );
  }
  return first;
}
