/**
 * The answers the explorer reads, as the client package's types generated from the OpenAPI
 * document (packages/client/src/generated/openapi.ts, scripts/generate-client-types.ts): the page
 * depends on the API's published shape, not on the server's modules (test/layout/layering.test.ts).
 */
import type { paths } from "../../packages/client/src/generated/openapi.js";
import type { QuoteRequest, RouteQuote } from "../../packages/client/src/types.js";

/** `data` of a path's 200 answer. */
type SuccessData<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": { data: infer D } } } };
}
  ? D
  : never;

export type TransferSummary = SuccessData<"/api/oracle/stats/summary", "get">;
export type TransferTimeline = SuccessData<"/api/oracle/bridge-transactions/{id}/timeline", "get">;
export type TimelineStep = TransferTimeline["steps"][number];
export type RouteQuoteData = RouteQuote;
export type RouterRequest = QuoteRequest;
