/// <reference lib="dom" />
/**
 * Values people act on, the same on every page: hashes and addresses with a copy button and a
 * link to the chain's block explorer (when the server publishes one), times read relatively
 * ("3 min ago") with the exact UTC time on hover and on tap, chains with their colour dot and
 * name for people, tokens with their colour chip, and the protocol badge.
 */
import type { ChainDirectory } from "./chain-directory.js";
import { el } from "./dom.js";
import {
  EMPTY_VALUE,
  formatUtcTime,
  nameHue,
  protocolLabel,
  relativeTime,
  shortenHex,
  utcMillis,
} from "./format.js";

const SVG = "http://www.w3.org/2000/svg";

function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const p = document.createElementNS(SVG, "path");
  p.setAttribute("d", path);
  p.setAttribute("fill", "none");
  p.setAttribute("stroke", "currentColor");
  p.setAttribute("stroke-width", "1.6");
  p.setAttribute("stroke-linecap", "round");
  p.setAttribute("stroke-linejoin", "round");
  svg.append(p);
  return svg;
}

const COPY_ICON = "M5.5 5.5h8v8h-8zM10.5 5.5v-3h-8v8h3";
const OPEN_ICON = "M9 2.5h4.5V7M13.5 2.5 7 9M11.5 9.5v4h-9v-9h4";

/** Puts `text` on the clipboard: the async Clipboard API, else a hidden textarea and execCommand. */
export async function copyText(doc: Document, text: string): Promise<boolean> {
  try {
    await doc.defaultView?.navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el("textarea", { class: "visually-hidden", readonly: "" });
    area.value = text;
    doc.body.append(area);
    area.select();
    try {
      return doc.execCommand("copy");
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** The page's polite live region for "Copied" (created on first use). */
function announce(doc: Document, text: string): void {
  let region = doc.getElementById("copy-status");
  if (region === null) {
    region = el("p", { id: "copy-status", class: "visually-hidden", role: "status" });
    doc.body.append(region);
  }
  region.textContent = text;
}

/** A button copying `value` exactly; `what` names it for screen readers ("address"). */
export function copyButton(value: string, what: string): HTMLButtonElement {
  const label = `Copy ${what}`;
  const button = el("button", {
    type: "button",
    class: "icon-button copy-button",
    "aria-label": label,
    title: label,
    "data-copy": value,
  });
  button.append(icon(COPY_ICON));
  button.addEventListener("click", async () => {
    const done = await copyText(document, value);
    button.classList.toggle("copied", done);
    button.title = done ? "Copied" : "Copy failed: select the text instead";
    announce(document, done ? `Copied ${what}` : "Copying failed; select the text instead");
    setTimeout(() => {
      button.classList.remove("copied");
      button.title = label;
    }, 1500);
  });
  return button;
}

/** A link to a block explorer page, opened in a new tab. */
export function explorerLink(url: string | undefined, what: string): HTMLElement | null {
  if (url === undefined) return null;
  const label = `${what} on the block explorer (new tab)`;
  const link = el("a", {
    class: "icon-button explorer-link",
    href: url,
    target: "_blank",
    rel: "noopener noreferrer",
    "aria-label": label,
    title: label,
  });
  link.append(icon(OPEN_ICON));
  return link;
}

export interface HexOptions {
  /** What it is, for the buttons' labels ("address", "source transaction"). */
  what: string;
  /** Shorten to 0x1234…abcd (the full value stays in the title, the copy and the links). */
  short?: boolean;
  /** The value searches the explorer (`/?q=`). */
  searchHref?: string;
  /** Its block explorer page. */
  explorerUrl?: string | undefined;
  className?: string;
}

/** A hash or address with its copy button and, when known, its block explorer link. */
export function hexView(value: string, options: HexOptions): HTMLElement {
  if (value === "") return el("span", { class: "pending" }, EMPTY_VALUE);
  const text = options.short ? shortenHex(value) : value;
  const shown =
    options.searchHref === undefined
      ? el("code", { class: `hex ${options.className ?? ""}`.trim(), title: value }, text)
      : el(
          "a",
          {
            class: `hex search-link ${options.className ?? ""}`.trim(),
            href: options.searchHref,
            title: `Search ${value}`,
          },
          text,
        );
  return el(
    "span",
    { class: "hex-view" },
    shown,
    copyButton(value, options.what),
    explorerLink(options.explorerUrl, options.what),
  );
}

/** A time as "3 min ago"; the exact UTC time in the title, and shown instead on a tap. */
export function timeNode(utc: string, nowMs: number = Date.now()): HTMLElement {
  if (utc === "") return el("span", { class: "pending" }, EMPTY_VALUE);
  const at = utcMillis(utc);
  const exact = formatUtcTime(utc);
  return el(
    "time",
    {
      class: "rel-time",
      "data-utc": utc,
      title: exact,
      ...(Number.isNaN(at) ? {} : { datetime: new Date(at).toISOString() }),
    },
    relativeTime(utc, nowMs),
  );
}

/**
 * Keeps every relative time current (every 15 s), and lets a tap or click on a time or an amount
 * show its exact value (UTC time; amount and token), a second tap going back: phones have no
 * hover.
 */
export function installTimes(doc: Document): void {
  const refresh = () => {
    const now = Date.now();
    for (const node of Array.from(doc.querySelectorAll<HTMLElement>("time[data-utc]"))) {
      const utc = node.dataset.utc ?? "";
      const text = node.classList.contains("exact") ? formatUtcTime(utc) : relativeTime(utc, now);
      if (node.textContent !== text) node.textContent = text;
    }
  };
  doc.addEventListener("click", (event) => {
    const target = event.target as Element | null;
    // An amount: a tap shows its exact value with its token (again: the readable one).
    const amount = target?.closest?.<HTMLElement>("[data-exact]");
    if (amount && doc.getSelection()?.isCollapsed !== false) {
      amount.dataset.readable ??= amount.textContent ?? "";
      amount.classList.toggle("exact");
      amount.textContent = amount.classList.contains("exact")
        ? (amount.dataset.exact ?? "")
        : amount.dataset.readable;
      return;
    }
    const node = target?.closest?.<HTMLElement>("time[data-utc]");
    if (!node) return;
    node.classList.toggle("exact");
    const utc = node.dataset.utc ?? "";
    node.textContent = node.classList.contains("exact")
      ? formatUtcTime(utc)
      : relativeTime(utc, Date.now());
  });
  setInterval(refresh, 15_000);
}

/** A chain: its colour dot and its name for people ("Alpha"). */
export function chainNode(name: string, chains: ChainDirectory): HTMLElement {
  const dot = el("span", { class: "dot", "aria-hidden": "true" });
  dot.style.setProperty("--hue", String(nameHue(name)));
  return el("span", { class: "chain", title: name }, dot, chains.displayName(name));
}

/** A token symbol with its colour chip (the symbol's first letter). */
export function tokenChip(symbol: string): HTMLElement | null {
  if (symbol === "") return null;
  const chip = el("span", { class: "token-chip", "aria-hidden": "true" }, symbol.charAt(0));
  chip.style.setProperty("--hue", String(nameHue(symbol)));
  return chip;
}

/** The protocol a transfer went through (record field `protocol`; absent: reference). */
export function protocolBadge(protocol: string): HTMLElement {
  return el(
    "span",
    { class: `badge badge-protocol protocol-${protocol}`, "data-protocol": protocol },
    protocolLabel(protocol),
  );
}
