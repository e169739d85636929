/// <reference lib="dom" />
/**
 * Renders a page of transfers into a table body, and the sort state into its headers. At 640 px
 * and below the CSS turns each row into a compact card. Hashes and addresses are links to
 * `?q=<value>` (a click searches that value) with a copy button; a search for an address marks
 * each transfer In, Out or Self relative to it.
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { amountNode } from "./amount-view.js";
import { type ChainDirectory, EMPTY_DIRECTORY } from "./chain-directory.js";
import { el } from "./dom.js";
import { EMPTY_VALUE, protocolOf, shortenHex, statusBadgeClass } from "./format.js";
import type { ExplorerState, SortField } from "./url-state.js";
import { chainNode, copyButton, protocolBadge, timeNode, tokenChip } from "./value-views.js";

export interface TransfersTableHandlers {
  /** Search for a hash, address or message id clicked in the table. */
  onSearch(value: string): void;
  /** The shareable URL of that search (the current view's size and sort kept). */
  hrefFor(value: string): string;
}

export interface RenderOptions {
  chains?: ChainDirectory;
  /** The searched address (any case): rows are marked In / Out / Self relative to it. */
  perspective?: string;
  /** Message ids to highlight as just arrived. */
  fresh?: ReadonlySet<string>;
}

/** A transfer record as the page reads it: `protocol` is new and optional. */
export type ShownTransfer = BridgeTransaction & { protocol?: string };

/** A link that searches `value`; shortened text, full value in the title, and a copy button. */
function searchLink(
  value: string,
  kind: string,
  what: string,
  handlers: TransfersTableHandlers,
): Node {
  if (value === "") return el("span", { class: "pending" }, EMPTY_VALUE);
  const short = shortenHex(value);
  const link = el(
    "a",
    { class: `search-link ${kind}`, href: handlers.hrefFor(value), title: value },
    short,
  );
  link.addEventListener("click", (event) => {
    // Let modified clicks open a new tab with the shareable URL.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    handlers.onSearch(value);
  });
  return el("span", { class: "hex-view" }, link, copyButton(value, what));
}

/** The page of one transfer (its message id, or any hash only it has). */
export function transferHref(id: string): string {
  return `/transfer/${encodeURIComponent(id)}`;
}

/** One value wrapper per cell: in the phone card layout the label and the value are two items. */
function cell(label: string, className: string, ...children: (Node | string | null)[]) {
  return el(
    "td",
    { "data-label": label, class: className },
    el("span", { class: "value" }, ...children),
  );
}

/** What a record received, for reading: a failed transfer received nothing ("—"), not "0". */
function receivedNode(transfer: BridgeTransaction): HTMLElement {
  if (transfer.status === "Failed") {
    return el(
      "span",
      { class: "amount pending", title: "Not delivered: the transfer failed" },
      "—",
    );
  }
  return amountNode(transfer.receive_amount, transfer.dest_token_symbol);
}

export function amountWithChip(amount: HTMLElement, symbol: string): HTMLElement {
  return el("span", { class: "amount-line" }, tokenChip(symbol), amount);
}

/** In (to the searched address), Out (from it) or Self (both); null for no perspective. */
export function direction(
  transfer: BridgeTransaction,
  perspective: string | undefined,
): "In" | "Out" | "Self" | null {
  if (perspective === undefined || perspective === "") return null;
  const me = perspective.toLowerCase();
  const from = transfer.from_address.toLowerCase() === me;
  const to = transfer.to_address.toLowerCase() === me;
  return from && to ? "Self" : from ? "Out" : to ? "In" : null;
}

export function transferRow(
  transfer: ShownTransfer,
  handlers: TransfersTableHandlers,
  options: RenderOptions = {},
): HTMLTableRowElement {
  const chains = options.chains ?? EMPTY_DIRECTORY;
  const protocol = protocolOf(transfer);
  const fresh = options.fresh?.has(transfer.message_id) === true;
  const row = el("tr", {
    "data-message-id": transfer.message_id,
    "data-status": transfer.status,
    "data-protocol": protocol,
    ...(fresh ? { class: "row-new" } : {}),
  });
  const dir = direction(transfer, options.perspective);
  row.append(
    cell(
      "Status",
      "col-status",
      el("span", { class: statusBadgeClass(transfer.status) }, transfer.status),
      " ",
      protocolBadge(protocol),
      " ",
      el(
        "a",
        {
          class: "message-id transfer-link",
          href: transferHref(transfer.message_id),
          "aria-label": `Details of the ${transfer.status} transfer ${transfer.message_id}`,
        },
        "Details",
      ),
    ),
    cell(
      "Sent",
      "col-sent amount",
      amountWithChip(
        amountNode(transfer.send_amount, transfer.source_token_symbol),
        transfer.source_token_symbol,
      ),
    ),
    cell(
      "Received",
      "col-received amount",
      amountWithChip(receivedNode(transfer), transfer.dest_token_symbol),
    ),
    cell(
      "Route",
      "col-route",
      // Wrapping may split the cell only after the arrow, never leave it alone on a line.
      el("span", { class: "nowrap" }, chainNode(transfer.source_chain_name, chains), " →"),
      " ",
      el("span", { class: "nowrap" }, chainNode(transfer.dest_chain_name, chains)),
    ),
    cell(
      "From → To",
      "col-parties",
      dir === null
        ? null
        : el("span", { class: `badge dir dir-${dir.toLowerCase()}`, title: dirTitle(dir) }, dir),
      dir === null ? null : " ",
      searchLink(transfer.from_address, "address", "sender address", handlers),
      " ",
      el(
        "span",
        { class: "nowrap" },
        "→ ",
        searchLink(transfer.to_address, "address", "recipient address", handlers),
      ),
    ),
    cell("Started", "col-time", timeNode(transfer.start_time)),
    cell(
      "Source tx",
      "col-source-tx",
      searchLink(transfer.source_tx_hash, "tx source-tx", "source transaction hash", handlers),
    ),
    cell(
      "Destination tx",
      "col-dest-tx",
      searchLink(transfer.dest_tx_hash, "tx dest-tx", "destination transaction hash", handlers),
    ),
  );
  return row;
}

function dirTitle(dir: "In" | "Out" | "Self"): string {
  return dir === "In"
    ? "Received by the searched address"
    : dir === "Out"
      ? "Sent by the searched address"
      : "Sent by the searched address to itself";
}

export function renderTransferRows(
  body: HTMLTableSectionElement,
  transfers: readonly ShownTransfer[],
  handlers: TransfersTableHandlers,
  options: RenderOptions = {},
): void {
  body.replaceChildren(...transfers.map((transfer) => transferRow(transfer, handlers, options)));
}

/** Placeholder rows of the table's shape while the first answer is on its way (no shift). */
export function renderSkeletonRows(body: HTMLTableSectionElement, count: number): void {
  const columns = body.closest("table")?.tHead?.rows[0]?.cells.length ?? 8;
  body.replaceChildren(
    ...Array.from({ length: count }, () =>
      el(
        "tr",
        { class: "skeleton-row", "aria-hidden": "true" },
        ...Array.from({ length: columns }, () =>
          el("td", {}, el("span", { class: "skeleton" }, " ")),
        ),
      ),
    ),
  );
}

/**
 * Marks the header of the current sort column (`aria-sort`, arrow); headers are buttons with
 * `data-sort="<field>"`.
 */
export function renderSortHeaders(head: HTMLElement, state: ExplorerState): void {
  for (const button of Array.from(head.querySelectorAll<HTMLButtonElement>("button[data-sort]"))) {
    const field = button.dataset.sort as SortField;
    const th = button.closest("th");
    const active = field === state.sort;
    th?.setAttribute(
      "aria-sort",
      active ? (state.order === "asc" ? "ascending" : "descending") : "none",
    );
    const arrow = button.querySelector(".sort-arrow");
    if (arrow) arrow.textContent = active ? (state.order === "asc" ? "▲" : "▼") : "";
  }
}

/**
 * When amounts of different tokens are ordered: says that the order is by number alone (1 DAI
 * next to 1 USDC), or "" when the rows share one token or the sort is not by an amount.
 */
export function amountSortNote(rows: readonly BridgeTransaction[], sort: SortField): string {
  if (sort !== "send_amount" && sort !== "receive_amount") return "";
  const symbols = new Set(
    rows.map((r) => (sort === "send_amount" ? r.source_token_symbol : r.dest_token_symbol)),
  );
  if (symbols.size <= 1) return "";
  return `Ordered by the number alone: amounts of different tokens (${[...symbols].sort().join(", ")}) are not converted to a common value.`;
}
