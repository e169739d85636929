/// <reference lib="dom" />
/**
 * The home page: a live feed of the latest transfers across the service and the summary of the
 * last 24 hours (GET /api/oracle/bridge-transactions/latest, GET /api/oracle/stats/summary).
 *
 * The feed follows the event stream of every transfer (GET
 * /api/oracle/bridge-transactions/latest/stream, docs/push.md): it re-reads the latest
 * transfers when the stream opens and after changes arrive (at most once per
 * FEED_COALESCE_MS), not on a timer. Where the stream cannot be had (no EventSource, refused,
 * closed) it re-reads every FEED_INTERVAL_MS instead; those reads are conditional (the
 * endpoint's ETag: the browser revalidates and an unchanged feed costs a 304). Nothing is read
 * while the home page is not on screen (a search is shown, the tab is hidden): the stream is
 * closed then and reopened on return.
 *
 * The view's sort, order and page size (the URL's, shared with search) apply to the feed: the
 * newest `size` transfers, ordered by the chosen field. A refresh that brings the same rows
 * changes nothing on the page; new rows are highlighted and counted.
 */

import { amountNode } from "./amount-view.js";
import type { ApiClient } from "./api-client.js";
import type { TransferSummary } from "./api-types.js";
import type { ChainDirectory } from "./chain-directory.js";
import { EMPTY_DIRECTORY } from "./chain-directory.js";
import { el } from "./dom.js";
import { compareDecimal, formatDuration, formatPercent, formatUtcTime } from "./format.js";
import {
  amountSortNote,
  renderSkeletonRows,
  renderTransferRows,
  type ShownTransfer,
} from "./transfers-table.js";
import { DEFAULT_STATE, type ExplorerState, SORT_FIELDS } from "./url-state.js";
import { chainNode } from "./value-views.js";

export const FEED_INTERVAL_MS = 3000;
export const FEED_COALESCE_MS = 1000;
export const SUMMARY_INTERVAL_MS = 10_000;
/** With nothing arriving, the summary's window still slides: re-read it this often. */
export const SUMMARY_IDLE_MS = 60_000;
export const LATEST_STREAM_PATH = "/api/oracle/bridge-transactions/latest/stream";

export interface HomeViewDeps {
  client: ApiClient;
  window: Window;
  /** The home section (hidden while a search is shown). */
  home: HTMLElement;
  feedBody: HTMLTableSectionElement;
  feedStatus: HTMLElement;
  feedNote: HTMLElement;
  stats: HTMLElement;
  chains: Promise<ChainDirectory>;
}

export interface HomeView {
  start(): void;
  /** The view state changed (sort, order, size): re-render the feed with it. */
  setState(state: ExplorerState): void;
  /** The home page is shown (true) or a search replaced it (false). */
  setShown(shown: boolean): void;
}

/** The feed's rows in the view's order: exact on amounts, empty times last either way. */
export function orderFeed(rows: readonly ShownTransfer[], state: ExplorerState): ShownTransfer[] {
  // The feed is the newest by send time; "created" (when the service stored a record) would
  // order a backfill's records arbitrarily, so it reads as the send time here.
  const field = state.sort === "created_at" ? "start_time" : state.sort;
  const sign = state.order === "asc" ? 1 : -1;
  const amount = field === "send_amount" || field === "receive_amount";
  return [...rows].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
    const order = amount ? compareDecimal(x, y) : x < y ? -1 : x > y ? 1 : 0;
    return sign * order;
  });
}

function statBox(label: string, value: string, className: string): HTMLElement {
  return el("div", { class: `stat ${className}` }, el("dt", {}, label), el("dd", {}, value));
}

/** Placeholders of the summary's shape while it loads, so nothing moves when it arrives. */
export function renderSummarySkeleton(target: HTMLElement): void {
  target.setAttribute("aria-busy", "true");
  target.replaceChildren(
    el("p", { class: "summary" }, "Loading the last 24 hours…"),
    el(
      "dl",
      { class: "stat-counts" },
      ...["Transfers", "Success", "Failed", "Processing", "Success rate"].map((label) =>
        statBox(label, "…", "stat-loading"),
      ),
    ),
  );
}

export function renderSummary(
  target: HTMLElement,
  summary: TransferSummary,
  chains: ChainDirectory = EMPTY_DIRECTORY,
): void {
  const { byStatus } = summary;
  const counts = el(
    "dl",
    { class: "stat-counts" },
    statBox("Transfers", String(summary.total), "stat-total"),
    statBox("Success", String(byStatus.Success), "stat-success"),
    statBox("Failed", String(byStatus.Failed), "stat-failed"),
    statBox("Processing", String(byStatus.Processing), "stat-processing"),
    statBox("Success rate", formatPercent(summary.successRate), "stat-rate"),
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
          el(
            "th",
            { scope: "row" },
            el("span", { class: "nowrap" }, chainNode(r.sourceChain, chains), " →"),
            " ",
            chainNode(r.destChain, chains),
          ),
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
  target.removeAttribute("aria-busy");
  target.replaceChildren(
    el("p", { class: "summary" }, `By send time, since ${formatUtcTime(summary.since)}.`),
    counts,
    el(
      "div",
      { class: "stats-tables" },
      el("div", { class: "table-scroll" }, routes),
      el("div", { class: "table-scroll" }, volumes),
    ),
  );
}

export function createHomeView(deps: HomeViewDeps): HomeView {
  const { client, window: win, home, feedBody, feedStatus, feedNote, stats } = deps;
  let state: ExplorerState = DEFAULT_STATE;
  let shown = !home.hidden;
  let rows: ShownTransfer[] | undefined;
  let renderedFeed: string | undefined;
  let knownIds: Set<string> | undefined;
  let chains: ChainDirectory = EMPTY_DIRECTORY;
  let lastSummary = 0;
  let stream: EventSource | undefined;
  let streamFailed = false;
  let pollTimer: number | undefined;
  let coalesceTimer: number | undefined;
  let reading = false;
  /** Before start(), state changes are only recorded. */
  let started = false;
  let readAgain = false;
  const EventSourceClass = (win as unknown as { EventSource?: typeof EventSource }).EventSource;
  const handlers = {
    onSearch: (q: string) => win.location.assign(`/?q=${encodeURIComponent(q)}`),
    hrefFor: (q: string) => `/?q=${encodeURIComponent(q)}`,
  };

  const onScreen = () => shown && win.document.visibilityState !== "hidden";

  function render(fresh: ReadonlySet<string>): void {
    if (rows === undefined) return;
    const ordered = orderFeed(rows, state);
    const json = JSON.stringify([ordered, state.sort, state.order]);
    if (json === renderedFeed && fresh.size === 0) return;
    renderedFeed = json;
    renderTransferRows(feedBody, ordered, handlers, { chains, fresh });
    feedBody.closest("table")?.removeAttribute("aria-busy");
    const note = amountSortNote(ordered, state.sort);
    const order =
      state.sort === DEFAULT_STATE.sort && state.order === "desc"
        ? ""
        : `The newest ${state.size}, ordered by ${SORT_FIELDS[state.sort].toLowerCase()} (${state.order === "asc" ? "ascending" : "descending"}). `;
    const text = `${order}${note}`.trim();
    if (feedNote.textContent !== text) feedNote.textContent = text;
    feedNote.hidden = text === "";
  }

  async function refreshFeed(): Promise<void> {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      const answer = await client.latest(state.size);
      if (!answer.ok) {
        feedStatus.textContent = `Live updates paused (${answer.msg}); retrying.`;
        return;
      }
      const next = answer.data.data as ShownTransfer[];
      const fresh = new Set(
        knownIds === undefined
          ? []
          : next.filter((t) => !knownIds?.has(t.message_id)).map((t) => t.message_id),
      );
      knownIds = new Set([...(knownIds ?? []), ...next.map((t) => t.message_id)]);
      rows = next;
      render(fresh);
      const live = stream !== undefined ? "updates live" : "updates every few seconds";
      const status =
        next.length === 0
          ? "No transfers yet. They appear here as soon as the indexer sees them."
          : fresh.size > 0
            ? `${fresh.size} new transfer${fresh.size === 1 ? "" : "s"}; ${live}.`
            : `${live.charAt(0).toUpperCase()}${live.slice(1)}.`;
      if (feedStatus.textContent !== status) feedStatus.textContent = status;
    } catch {
      // a network error: the stream's next event or the next poll tries again
    } finally {
      reading = false;
      if (readAgain) {
        readAgain = false;
        void refreshFeed();
      }
    }
    if (Date.now() - lastSummary >= SUMMARY_INTERVAL_MS) void refreshSummary();
  }

  async function refreshSummary(): Promise<void> {
    lastSummary = Date.now();
    try {
      const answer = await client.summary();
      if (answer.ok) renderSummary(stats, answer.data, chains);
    } catch {
      // kept as shown; the next refresh tries again
    }
  }

  /** A change arrived: one read for all the changes of the next FEED_COALESCE_MS. */
  function changed(): void {
    if (coalesceTimer !== undefined) return;
    coalesceTimer = win.setTimeout(() => {
      coalesceTimer = undefined;
      if (onScreen()) void refreshFeed();
    }, FEED_COALESCE_MS);
  }

  function poll(): void {
    if (pollTimer !== undefined) return;
    pollTimer = win.setTimeout(() => {
      pollTimer = undefined;
      if (!onScreen()) return;
      void refreshFeed();
      poll();
    }, FEED_INTERVAL_MS);
  }

  /** Opens the stream (or polls where it cannot be had); closes it when off screen. */
  function follow(): void {
    if (!onScreen()) {
      stream?.close();
      stream = undefined;
      return;
    }
    if (stream !== undefined) return;
    if (streamFailed || EventSourceClass === undefined) {
      void refreshFeed();
      poll();
      return;
    }
    const source = new EventSourceClass(LATEST_STREAM_PATH);
    stream = source;
    source.addEventListener("open", () => void refreshFeed());
    source.addEventListener("transfer", changed);
    source.addEventListener("removed", changed);
    source.addEventListener("reset", changed);
    source.addEventListener("error", () => {
      if (source.readyState !== EventSourceClass.CLOSED) return; // reconnecting by itself
      if (stream === source) stream = undefined;
      streamFailed = true;
      follow();
    });
  }

  return {
    start() {
      started = true;
      renderSkeletonRows(feedBody, Math.min(state.size, 10));
      feedBody.closest("table")?.setAttribute("aria-busy", "true");
      renderSummarySkeleton(stats);
      void deps.chains.then((directory) => {
        chains = directory;
        renderedFeed = undefined;
        render(new Set());
      });
      // Opening the stream reads the feed (its `open` event); polling reads at once.
      follow();
      win.document.addEventListener("visibilitychange", follow);
      // The window of the summary slides, and stats change without a feed change (a delivery
      // of an older transfer): re-read it now and then while on screen.
      win.setInterval(() => {
        if (onScreen() && Date.now() - lastSummary >= SUMMARY_IDLE_MS) void refreshSummary();
      }, SUMMARY_IDLE_MS / 4);
    },
    setState(next) {
      const sizeChanged = next.size !== state.size;
      state = next;
      if (!started) return;
      if (sizeChanged) void refreshFeed();
      else render(new Set());
    },
    setShown(next) {
      if (next === shown) return;
      shown = next;
      if (started) follow();
    },
  };
}
