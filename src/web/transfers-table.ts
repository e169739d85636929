/// <reference lib="dom" />
/**
 * Renders a page of transfers into the table body, and the sort state into its headers. At 640 px
 * and below the CSS turns each row into a card, using each cell's `data-label` as its caption.
 * Hashes, addresses and message ids are links to `?q=<value>`: a click searches that value
 * (so a source hash leads to the transfer and its destination hash, and back).
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { amountNode } from "./amount-view.js";
import { el } from "./dom.js";
import { EMPTY_VALUE, formatUtcTime, shortenHex, statusBadgeClass } from "./format.js";
import type { ExplorerState, SortField } from "./url-state.js";

export interface TransfersTableHandlers {
  /** Search for a hash, address or message id clicked in the table. */
  onSearch(value: string): void;
  /** The shareable URL of that search (the current view's size and sort kept). */
  hrefFor(value: string): string;
}

/** A link that searches `value`; shortened text, full value in the title. */
function searchLink(value: string, kind: string, handlers: TransfersTableHandlers): Node {
  if (value === "") return el("span", { class: "pending" }, EMPTY_VALUE);
  const link = el(
    "a",
    { class: `search-link ${kind}`, href: handlers.hrefFor(value), title: value },
    shortenHex(value),
  );
  link.addEventListener("click", (event) => {
    // Let modified clicks open a new tab with the shareable URL.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    handlers.onSearch(value);
  });
  return link;
}

/** The page of one transfer (its message id, or any hash only it has). */
export function transferHref(id: string): string {
  return `/transfer/${encodeURIComponent(id)}`;
}

/** One value wrapper per cell: in the phone card layout the label and the value are two flex items. */
function cell(label: string, className: string, ...children: (Node | string)[]) {
  return el(
    "td",
    { "data-label": label, class: className },
    el("span", { class: "value" }, ...children),
  );
}

export function transferRow(
  transfer: BridgeTransaction,
  handlers: TransfersTableHandlers,
): HTMLTableRowElement {
  const row = el("tr", {
    "data-message-id": transfer.message_id,
    "data-status": transfer.status,
  });
  row.append(
    cell(
      "Status",
      "col-status",
      el("span", { class: statusBadgeClass(transfer.status) }, transfer.status),
      el(
        "a",
        {
          class: "message-id transfer-link",
          href: transferHref(transfer.message_id),
          title: `Open transfer ${transfer.message_id}`,
        },
        "Details",
      ),
    ),
    cell("Sent", "col-sent amount", amountNode(transfer.send_amount, transfer.source_token_symbol)),
    cell(
      "Received",
      "col-received amount",
      amountNode(transfer.receive_amount, transfer.dest_token_symbol),
    ),
    cell(
      "Route",
      "col-route",
      // Wrapping may split the cell only after the arrow, never leave it alone on a line.
      el(
        "span",
        { class: "nowrap" },
        el("span", { class: "chain" }, transfer.source_chain_name),
        " →",
      ),
      " ",
      el("span", { class: "chain nowrap" }, transfer.dest_chain_name),
    ),
    cell(
      "From → To",
      "col-parties",
      searchLink(transfer.from_address, "address", handlers),
      " ",
      el("span", { class: "nowrap" }, "→ ", searchLink(transfer.to_address, "address", handlers)),
    ),
    cell("Started", "col-time", formatUtcTime(transfer.start_time)),
    cell(
      "Source tx",
      "col-source-tx",
      searchLink(transfer.source_tx_hash, "tx source-tx", handlers),
    ),
    cell(
      "Destination tx",
      "col-dest-tx",
      searchLink(transfer.dest_tx_hash, "tx dest-tx", handlers),
    ),
  );
  return row;
}

export function renderTransferRows(
  body: HTMLTableSectionElement,
  transfers: readonly BridgeTransaction[],
  handlers: TransfersTableHandlers,
): void {
  body.replaceChildren(...transfers.map((transfer) => transferRow(transfer, handlers)));
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
