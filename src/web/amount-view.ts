/// <reference lib="dom" />
/**
 * Amounts on the page: the readable form (format.ts) as text, the exact value as the hover
 * title and as what a copy of the amount puts on the clipboard. Every amount on every page
 * (table, feed, timeline, quote) is made here, so the rules are the same everywhere.
 */
import { el } from "./dom.js";
import { exactAmount, formatAmount } from "./format.js";

export function amountNode(amount: string, symbol: string, className = "amount"): HTMLElement {
  const exact = exactAmount(amount, symbol);
  const attributes: Record<string, string> = { class: className };
  if (exact !== "") {
    attributes.title = exact;
    attributes["data-exact"] = exact;
  }
  return el("span", attributes, formatAmount(amount, symbol));
}

/**
 * A copy whose selection lies within one amount copies its exact value; any other copy is left
 * to the browser.
 */
export function installExactCopy(doc: Document): void {
  doc.addEventListener("copy", (event) => {
    const selection = doc.getSelection();
    if (selection === null || selection.isCollapsed || selection.rangeCount !== 1) return;
    const range = selection.getRangeAt(0);
    const container =
      range.commonAncestorContainer instanceof Element
        ? range.commonAncestorContainer
        : range.commonAncestorContainer.parentElement;
    const amount = container?.closest<HTMLElement>("[data-exact]");
    const exact = amount?.dataset.exact;
    if (exact === undefined || event.clipboardData === null) return;
    event.clipboardData.setData("text/plain", exact);
    event.preventDefault();
  });
}
