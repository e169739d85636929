/// <reference lib="dom" />
/**
 * The home page: a live feed of the latest transfers across the service and the summary of the
 * last 24 hours (GET /api/oracle/bridge-transactions/latest, GET /api/oracle/stats/summary).
 * The feed re-reads the latest transfers every FEED_INTERVAL_MS and the summary every
 * SUMMARY_INTERVAL_MS while the home page is on screen (not while a search is shown or the tab
 * is hidden); a refresh that brings the same rows changes nothing on the page.
 */

import { amountNode } from "./amount-view.js";
import type { ApiClient } from "./api-client.js";
import type { TransferSummary } from "./api-types.js";
import { el } from "./dom.js";
import { formatDuration, formatPercent } from "./format.js";
import { renderTransferRows } from "./transfers-table.js";

export const FEED_INTERVAL_MS = 3000;
export const SUMMARY_INTERVAL_MS = 10_000;
export const FEED_SIZE = 15;

export interface HomeViewDeps {
  client: ApiClient;
  window: Window;
  /** The home section (hidden while a search is shown). */
  home: HTMLElement;
  feedBody: HTMLTableSectionElement;
  feedStatus: HTMLElement;
  stats: HTMLElement;
}

export function renderSummary(target: HTMLElement, summary: TransferSummary): void {
  const { byStatus } = summary;
  const counts = el(
    "dl",
    { class: "stat-counts" },
    ...[
      ["Transfers", String(summary.total), "stat-total"],
      ["Success", String(byStatus.Success), "stat-success"],
      ["Failed", String(byStatus.Failed), "stat-failed"],
      ["Processing", String(byStatus.Processing), "stat-processing"],
      ["Success rate", formatPercent(summary.successRate), "stat-rate"],
    ].flatMap(([label, value, className]) => [
      el(
        "div",
        { class: `stat ${className}` },
        el("dt", {}, label ?? ""),
        el("dd", {}, value ?? ""),
      ),
    ]),
  );
  const routes = el(
    "table",
    { class: "stats-table routes" },
    el("caption", {}, "Delivery time per route (Success transfers)"),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["Route", "Transfers", "Median", "90th percentile"].map((h) =>
          el("th", { scope: "col" }, h),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      ...summary.routes.map((r) =>
        el(
          "tr",
          {},
          el("th", { scope: "row" }, `${r.sourceChain} → ${r.destChain}`),
          el("td", {}, String(r.transfers)),
          el("td", { class: "route-median" }, formatDuration(r.medianDeliverySeconds)),
          el("td", { class: "route-p90" }, formatDuration(r.p90DeliverySeconds)),
        ),
      ),
    ),
  );
  const volumes = el(
    "table",
    { class: "stats-table volumes" },
    el("caption", {}, "Volume sent per token"),
    el(
      "thead",
      {},
      el("tr", {}, ...["Token", "Volume", "Transfers"].map((h) => el("th", { scope: "col" }, h))),
    ),
    el(
      "tbody",
      {},
      ...summary.volumes.map((v) =>
        el(
          "tr",
          {},
          el("th", { scope: "row" }, v.symbol === "" ? "?" : v.symbol),
          el("td", {}, amountNode(v.amount, v.symbol)),
          el("td", {}, String(v.transfers)),
        ),
      ),
    ),
  );
  target.replaceChildren(
    el("p", { class: "summary" }, `From ${summary.since} to ${summary.until} UTC (by send time).`),
    counts,
    el("div", { class: "stats-tables" }, routes, volumes),
  );
}

export function createHomeView(deps: HomeViewDeps): { start(): void } {
  const { client, window: win, home, feedBody, feedStatus, stats } = deps;
  let renderedFeed: string | undefined;
  let knownIds = new Set<string>();
  let lastSummary = 0;
  const handlers = {
    onSearch: (q: string) => win.location.assign(`/?q=${encodeURIComponent(q)}`),
    hrefFor: (q: string) => `/?q=${encodeURIComponent(q)}`,
  };

  const onScreen = () => !home.hidden && win.document.visibilityState !== "hidden";

  async function refreshFeed(): Promise<void> {
    const answer = await client.latest(FEED_SIZE);
    if (!answer.ok) {
      feedStatus.textContent = `Live updates paused (${answer.msg}); retrying.`;
      return;
    }
    const rows = answer.data.data;
    const json = JSON.stringify(rows);
    if (json !== renderedFeed) {
      const arrived =
        renderedFeed === undefined ? 0 : rows.filter((t) => !knownIds.has(t.message_id)).length;
      renderedFeed = json;
      knownIds = new Set(rows.map((t) => t.message_id));
      renderTransferRows(feedBody, rows, handlers);
      feedStatus.textContent =
        rows.length === 0
          ? "No transfers yet. They appear here as soon as the indexer sees them."
          : arrived > 0
            ? `${arrived} new transfer${arrived === 1 ? "" : "s"}; updates live.`
            : "Updates live.";
    }
  }

  async function refreshSummary(): Promise<void> {
    const answer = await client.summary();
    if (answer.ok) renderSummary(stats, answer.data);
    lastSummary = Date.now();
  }

  async function tick(): Promise<void> {
    if (onScreen()) {
      try {
        await refreshFeed();
        if (Date.now() - lastSummary >= SUMMARY_INTERVAL_MS) await refreshSummary();
      } catch {
        // a network error: the next tick tries again
      }
    }
    win.setTimeout(() => void tick(), FEED_INTERVAL_MS);
  }

  return {
    start() {
      void tick();
    },
  };
}
