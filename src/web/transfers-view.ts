/// <reference lib="dom" />
/**
 * The search + transfers list controller. The URL query is the single source of view state
 * (url-state.ts): every change goes through navigate(), which pushes the new URL and loads.
 * Invariants:
 * - only the newest request's answer is rendered (older in-flight requests are aborted), so a
 *   slow page cannot overwrite a newer one;
 * - while any row on screen is Processing, the page reloads itself every `pollMs` without a
 *   loading flash, so the row turns Success or Failed in place; the timer is cleared on every
 *   load, so there is at most one. A background tab does not poll (it catches up when shown),
 *   and a failed background refresh (rate limit, network) keeps the rows and retries later
 *   instead of replacing the table with an error.
 */
import type { ApiClient } from "./api-client.js";
import { byId, showMessage } from "./dom.js";
import { pageCount } from "./format.js";
import { renderSortHeaders, renderTransferRows } from "./transfers-table.js";
import {
  type ExplorerState,
  isSortField,
  listQuery,
  PAGE_SIZES,
  type PageSize,
  parseState,
  type SortOrder,
  serializeState,
  toggleSort,
} from "./url-state.js";

export const DEFAULT_POLL_MS = 3000;

export interface TransfersViewDeps {
  client: ApiClient;
  window: Window;
  pollMs?: number;
}

export function createTransfersView(deps: TransfersViewDeps): { start(): void } {
  const { client, window: win } = deps;
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;

  const searchForm = byId("search-form", HTMLFormElement);
  const searchInput = byId("search-input", HTMLInputElement);
  const sortSelect = byId("sort-select", HTMLSelectElement);
  const orderSelect = byId("order-select", HTMLSelectElement);
  const sizeSelect = byId("page-size-select", HTMLSelectElement);
  const results = byId("results", HTMLElement);
  const intro = byId("intro", HTMLElement);
  const listError = byId("list-error", HTMLElement);
  const summary = byId("result-summary", HTMLElement);
  const table = byId("transfers", HTMLTableElement);
  const tableHead = table.tHead as HTMLTableSectionElement;
  const tableBody = table.tBodies[0] as HTMLTableSectionElement;
  const empty = byId("no-results", HTMLElement);
  const pager = byId("pager", HTMLElement);
  const pageLabel = byId("page-label", HTMLElement);
  const prevButton = byId("prev-page", HTMLButtonElement);
  const nextButton = byId("next-page", HTMLButtonElement);

  let state: ExplorerState = parseState(win.location.search);
  let inFlight: AbortController | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  /** A poll came due while the tab was hidden; it runs when the tab is shown again. */
  let pollPending = false;
  let pages = 1;

  function syncControls(): void {
    searchInput.value = state.q;
    sortSelect.value = state.sort;
    orderSelect.value = state.order;
    sizeSelect.value = String(state.size);
    renderSortHeaders(tableHead, state);
  }

  function navigate(next: ExplorerState): void {
    state = next;
    const query = serializeState(state);
    win.history.pushState(null, "", query === "" ? win.location.pathname : `?${query}`);
    syncControls();
    void load(false);
  }

  function schedulePoll(delayMs: number): void {
    pollTimer = setTimeout(() => {
      pollTimer = undefined;
      if (win.document.visibilityState === "hidden") pollPending = true;
      else void load(true);
    }, delayMs);
  }

  async function load(silent: boolean): Promise<void> {
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    pollTimer = undefined;
    pollPending = false;
    inFlight?.abort();
    if (state.q === "") {
      intro.hidden = false;
      results.hidden = true;
      showMessage(listError, "");
      return;
    }
    intro.hidden = true;
    const controller = new AbortController();
    inFlight = controller;
    if (!silent) results.setAttribute("aria-busy", "true");
    let answer: Awaited<ReturnType<ApiClient["listTransfers"]>>;
    try {
      answer = await client.listTransfers(listQuery(state), controller.signal);
    } catch {
      return; // aborted: a newer load owns the view
    }
    if (controller !== inFlight) return;
    inFlight = undefined;
    results.removeAttribute("aria-busy");
    if (!answer.ok && silent) {
      schedulePoll(pollMs * 3);
      return;
    }
    if (!answer.ok) {
      results.hidden = true;
      showMessage(listError, answer.msg);
      return;
    }
    showMessage(listError, "");
    results.hidden = false;
    const { data, total } = answer.data;
    pages = pageCount(total, state.size);
    renderTransferRows(tableBody, data, { onSearch: (q) => navigate({ ...state, q, page: 1 }) });
    table.hidden = data.length === 0;
    empty.hidden = data.length > 0;
    empty.textContent =
      total === 0 ? `No transfers match ${state.q}.` : `Page ${state.page} is past the last page.`;
    summary.textContent = `${total} transfer${total === 1 ? "" : "s"}`;
    pageLabel.textContent = `Page ${state.page} of ${pages}`;
    prevButton.disabled = state.page <= 1;
    nextButton.disabled = state.page >= pages;
    pager.hidden = total === 0;
    if (data.some((transfer) => transfer.status === "Processing")) {
      schedulePoll(pollMs);
    }
  }

  return {
    start() {
      syncControls();
      searchForm.addEventListener("submit", (event) => {
        event.preventDefault();
        navigate({ ...state, q: searchInput.value.trim(), page: 1 });
      });
      sortSelect.addEventListener("change", () => {
        if (isSortField(sortSelect.value)) navigate({ ...state, sort: sortSelect.value, page: 1 });
      });
      orderSelect.addEventListener("change", () => {
        navigate({ ...state, order: orderSelect.value as SortOrder, page: 1 });
      });
      sizeSelect.addEventListener("change", () => {
        const size = Number(sizeSelect.value);
        if ((PAGE_SIZES as readonly number[]).includes(size)) {
          navigate({ ...state, size: size as PageSize, page: 1 });
        }
      });
      tableHead.addEventListener("click", (event) => {
        const button = (event.target as Element).closest<HTMLButtonElement>("button[data-sort]");
        const field = button?.dataset.sort;
        if (field !== undefined && isSortField(field)) navigate(toggleSort(state, field));
      });
      prevButton.addEventListener("click", () => {
        if (state.page > 1) navigate({ ...state, page: Math.min(state.page - 1, pages) });
      });
      nextButton.addEventListener("click", () => {
        if (state.page < pages) navigate({ ...state, page: state.page + 1 });
      });
      win.document.addEventListener("visibilitychange", () => {
        if (win.document.visibilityState === "visible" && pollPending) void load(true);
      });
      win.addEventListener("popstate", () => {
        state = parseState(win.location.search);
        syncControls();
        void load(false);
      });
      void load(false);
    },
  };
}
