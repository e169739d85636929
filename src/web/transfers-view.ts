/// <reference lib="dom" />
/**
 * The search + transfers list controller. The URL query is the single source of view state
 * (url-state.ts): every change goes through navigate(), which pushes the new URL and loads.
 * Invariants:
 * - only the newest request's answer is rendered (older in-flight requests are aborted), so a
 *   slow page cannot overwrite a newer one;
 * - while any row on screen is Processing, the page reloads itself every POLL_INTERVAL_MS
 *   without a loading flash, so the row turns Success or Failed in place; the timer is cleared
 *   on every load, so there is at most one. A background tab does not poll (it catches up when
 *   shown), and a failed background refresh (rate limit, network) keeps the rows and retries
 *   later instead of replacing the table with an error; the summary says live updates are
 *   paused until a refresh succeeds again;
 * - a background refresh that brings the same rows changes nothing on the page (focus, text
 *   selection and the live regions stay); when rows did change, focus returns to the same link;
 * - the sort and size selects load once the choice settles (arrow keys step through options
 *   without a request per step); an unchanged URL is replaced, not pushed, in the history.
 */
import type { ApiClient } from "./api-client.js";
import { type ChainDirectory, EMPTY_DIRECTORY } from "./chain-directory.js";
import { byId, showMessage } from "./dom.js";
import { invalidSearchMessage, pageCount, searchKind } from "./format.js";
import type { HomeView } from "./home-view.js";
import {
  amountSortNote,
  renderSkeletonRows,
  renderSortHeaders,
  renderTransferRows,
  transferHref,
} from "./transfers-table.js";
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

export const POLL_INTERVAL_MS = 3000;

export interface TransfersViewDeps {
  client: ApiClient;
  window: Window;
  /** The home page's feed, which follows the same sort, order and size. */
  home?: HomeView;
  chains?: Promise<ChainDirectory>;
}

/** What the page says for an API refusal of a search (no parameter names or format rules). */
export function searchErrorMessage(q: string, code: number | undefined, msg: string): string {
  if (code === 40001) return invalidSearchMessage(q);
  if (code === 42901)
    return "Too many requests from this address for now: wait a minute and search again.";
  if (code === 50301)
    return "The service cannot read its database right now: try again in a moment.";
  return `The search failed: ${msg}.`;
}

export function createTransfersView(deps: TransfersViewDeps): { start(): void } {
  const { client, window: win, home } = deps;
  let chains: ChainDirectory = EMPTY_DIRECTORY;
  const sortNote = byId("sort-note", HTMLElement);

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
  /** The rows on screen, as their JSON: a refresh bringing the same rows renders nothing. */
  let renderedRows: string | undefined;
  /** The summary of the rows on screen, without any live-update notice. */
  let summaryText = "";
  /** The pager button last pressed, to keep focus on the pager when it becomes disabled. */
  let pagerPressed: HTMLButtonElement | undefined;
  let selectTimer: ReturnType<typeof setTimeout> | undefined;

  const setText = (element: HTMLElement, text: string) => {
    if (element.textContent !== text) element.textContent = text;
  };

  const handlers = {
    onSearch: (q: string) => {
      navigate({ ...state, q, page: 1 });
      searchInput.focus();
    },
    hrefFor: (q: string) => `?${serializeState({ ...state, q, page: 1 })}`,
  };

  function renderRows(data: readonly unknown[]): void {
    const json = JSON.stringify(data);
    if (json === renderedRows) return;
    renderedRows = json;
    const active = win.document.activeElement;
    const focused =
      active instanceof HTMLElement && tableBody.contains(active)
        ? { className: active.className, title: active.title }
        : undefined;
    renderTransferRows(tableBody, data as Parameters<typeof renderTransferRows>[1], handlers, {
      chains,
      ...(searchKind(state.q) === "address" ? { perspective: state.q } : {}),
    });
    if (focused === undefined) return;
    for (const candidate of Array.from(tableBody.querySelectorAll<HTMLElement>("a, button"))) {
      if (candidate.className === focused.className && candidate.title === focused.title) {
        candidate.focus();
        break;
      }
    }
  }

  /** A select's choice, applied once the user stops stepping through the options. */
  function settle(apply: () => void): void {
    if (selectTimer !== undefined) clearTimeout(selectTimer);
    selectTimer = setTimeout(() => {
      selectTimer = undefined;
      apply();
    }, 300);
  }

  function syncControls(): void {
    searchInput.value = state.q;
    sortSelect.value = state.sort;
    orderSelect.value = state.order;
    sizeSelect.value = String(state.size);
    renderSortHeaders(tableHead, state);
    home?.setState(state);
  }

  function navigate(next: ExplorerState): void {
    state = next;
    const query = serializeState(state);
    const url = query === "" ? win.location.pathname : `?${query}`;
    // The same search again reloads it without a second, identical history entry.
    if (win.location.search === (query === "" ? "" : `?${query}`)) {
      win.history.replaceState(null, "", url);
    } else {
      win.history.pushState(null, "", url);
    }
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
      home?.setShown(true);
      results.hidden = true;
      showMessage(listError, "");
      return;
    }
    intro.hidden = true;
    home?.setShown(false);
    if (searchKind(state.q) === "invalid") {
      // Said at once, in words: the API's answer would name parameters and format rules.
      results.hidden = true;
      showMessage(listError, invalidSearchMessage(state.q));
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    if (!silent) {
      results.setAttribute("aria-busy", "true");
      if (renderedRows === undefined) {
        // The first answer: placeholder rows of the table's shape instead of a bare header.
        results.hidden = false;
        table.hidden = false;
        empty.hidden = true;
        showMessage(listError, "");
        setText(summary, "Searching…");
        renderSkeletonRows(tableBody, 3);
      }
    }
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
      // Keep the rows, say that they are no longer live, and try again later.
      setText(summary, `${summaryText} · live updates paused (${answer.msg}); retrying`);
      schedulePoll(POLL_INTERVAL_MS * 3);
      return;
    }
    if (!answer.ok) {
      results.hidden = true;
      renderedRows = undefined;
      showMessage(listError, searchErrorMessage(state.q, answer.code, answer.msg));
      return;
    }
    showMessage(listError, "");
    results.hidden = false;
    const { data, total } = answer.data;
    // A hash or message id of one transfer opens that transfer's page (Back returns here).
    const first = data[0];
    if (!silent && total === 1 && first !== undefined && searchKind(state.q) !== "address") {
      win.location.replace(transferHref(first.message_id));
      return;
    }
    pages = pageCount(total, state.size);
    renderRows(data);
    table.hidden = data.length === 0;
    empty.hidden = data.length > 0;
    setText(
      empty,
      total > 0
        ? `Page ${state.page} is past the last page.`
        : /^0x[0-9a-f]*$/i.test(state.q)
          ? `No transfers match ${state.q}. ${invalidSearchMessage(state.q)}`
          : `No transfers match ${state.q}.`,
    );
    const note = amountSortNote(data, state.sort);
    setText(sortNote, note);
    sortNote.hidden = note === "";
    summaryText = `${total} transfer${total === 1 ? "" : "s"}`;
    setText(summary, summaryText);
    setText(pageLabel, `Page ${state.page} of ${pages}`);
    prevButton.disabled = state.page <= 1;
    nextButton.disabled = state.page >= pages;
    pager.hidden = total === 0;
    // The pressed button went disabled (first or last page): focus stays on the pager.
    if (pagerPressed?.disabled) (pagerPressed === nextButton ? prevButton : nextButton).focus();
    pagerPressed = undefined;
    if (data.some((transfer) => transfer.status === "Processing")) {
      schedulePoll(POLL_INTERVAL_MS);
    }
  }

  return {
    start() {
      void deps.chains?.then((directory) => {
        chains = directory;
        if (renderedRows === undefined) return;
        const rows = JSON.parse(renderedRows) as unknown[];
        renderedRows = undefined;
        renderRows(rows);
      });
      syncControls();
      searchForm.addEventListener("submit", (event) => {
        event.preventDefault();
        navigate({ ...state, q: searchInput.value.trim(), page: 1 });
      });
      // All three selects at once when the choice settles, so quick changes of two of them
      // (sort, then order) make one view with both.
      const applySelects = () => {
        const sort = sortSelect.value;
        const size = Number(sizeSelect.value);
        navigate({
          ...state,
          sort: isSortField(sort) ? sort : state.sort,
          order: orderSelect.value === "asc" ? "asc" : ("desc" as SortOrder),
          size: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : state.size,
          page: 1,
        });
      };
      for (const select of [sortSelect, orderSelect, sizeSelect]) {
        select.addEventListener("change", () => settle(applySelects));
      }
      tableHead.addEventListener("click", (event) => {
        const button = (event.target as Element).closest<HTMLButtonElement>("button[data-sort]");
        const field = button?.dataset.sort;
        if (field !== undefined && isSortField(field)) navigate(toggleSort(state, field));
      });
      prevButton.addEventListener("click", () => {
        pagerPressed = prevButton;
        if (state.page > 1) navigate({ ...state, page: Math.min(state.page - 1, pages) });
      });
      nextButton.addEventListener("click", () => {
        pagerPressed = nextButton;
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
