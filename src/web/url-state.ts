/**
 * The explorer's view state and its URL form (`?q=...&page=2&size=25&sort=send_amount&order=asc`),
 * so every view is a shareable link and Back/Forward work. Parsing never throws: a bad or missing
 * value falls back to its default, and the defaults are left out of the URL.
 */

export const PAGE_SIZES = [10, 25, 50] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** The list endpoint's sortName values (docs/http-api.md), with their column labels. */
export const SORT_FIELDS = {
  created_at: "Created",
  updated_at: "Updated",
  start_time: "Started",
  end_time: "Ended",
  send_amount: "Sent amount",
  receive_amount: "Received amount",
} as const;
export type SortField = keyof typeof SORT_FIELDS;
export type SortOrder = "asc" | "desc";

export interface ExplorerState {
  /** Address, transaction hash or message id; "" = nothing searched yet. */
  q: string;
  page: number;
  size: PageSize;
  sort: SortField;
  order: SortOrder;
}

export const DEFAULT_STATE: ExplorerState = {
  q: "",
  page: 1,
  size: 10,
  sort: "created_at",
  order: "desc",
};

/** The server accepts pageNo up to 1e9 (docs/http-api.md). */
const MAX_PAGE = 1_000_000_000;

export function isSortField(value: string): value is SortField {
  return Object.hasOwn(SORT_FIELDS, value);
}

export function parseState(search: string | URLSearchParams): ExplorerState {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const q = (params.get("q") ?? "").trim();
  const pageText = params.get("page") ?? "";
  const page = /^[0-9]{1,10}$/.test(pageText) ? Number(pageText) : DEFAULT_STATE.page;
  const size = Number(params.get("size"));
  const sort = params.get("sort") ?? "";
  const order = (params.get("order") ?? "").toLowerCase();
  return {
    q,
    page: page >= 1 && page <= MAX_PAGE ? page : DEFAULT_STATE.page,
    size: (PAGE_SIZES as readonly number[]).includes(size)
      ? (size as PageSize)
      : DEFAULT_STATE.size,
    sort: isSortField(sort) ? sort : DEFAULT_STATE.sort,
    order: order === "asc" || order === "desc" ? order : DEFAULT_STATE.order,
  };
}

/** The query string for `state` ("" for the defaults), without the leading "?". */
export function serializeState(state: ExplorerState): string {
  const params = new URLSearchParams();
  if (state.q !== "") params.set("q", state.q);
  if (state.page !== DEFAULT_STATE.page) params.set("page", String(state.page));
  if (state.size !== DEFAULT_STATE.size) params.set("size", String(state.size));
  if (state.sort !== DEFAULT_STATE.sort) params.set("sort", state.sort);
  if (state.order !== DEFAULT_STATE.order) params.set("order", state.order);
  return params.toString();
}

/** The list endpoint's query parameters for `state` (docs/http-api.md, API rule 3). */
export function listQuery(state: ExplorerState): Record<string, string> {
  return {
    addressOrTxHash: state.q,
    pageNo: String(state.page),
    pageSize: String(state.size),
    sortName: state.sort,
    sortOrder: state.order,
  };
}

/**
 * Clicking a sortable header: the same column flips the order, another column starts with
 * the larger / newer values first. Either way the view goes back to page 1.
 */
export function toggleSort(state: ExplorerState, field: SortField): ExplorerState {
  const order: SortOrder = state.sort === field && state.order === "desc" ? "asc" : "desc";
  return { ...state, sort: field, order, page: 1 };
}
