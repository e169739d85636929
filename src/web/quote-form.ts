/// <reference lib="dom" />
/**
 * The quote form: POSTs /api/oracle/router and shows the chosen route, fee, min/max received and
 * the decoded `signData.params`, or the envelope's `msg`. The API key is kept in localStorage
 * (this browser only) so it need not be pasted again.
 */

import { amountNode } from "./amount-view.js";
import type { ApiClient, ExplorerChain, QuoteRequest } from "./api-client.js";
import type { RouteQuoteData } from "./api-types.js";
import { bridgeAction } from "./bridge-button.js";
import { installChainSelects, useTextInputs } from "./chain-selects.js";
import { el, showMessage } from "./dom.js";
import { bridgeKindName, formatDuration, formatUtcTime, utcMillis } from "./format.js";
import { executableQuote } from "./wallet.js";

export const API_KEY_STORAGE_KEY = "bridge-oracle:api-key";

const QUOTE_FIELDS = [
  "sourceChain",
  "sourceToken",
  "destChain",
  "destToken",
  "amount",
  "to",
] as const;

export interface QuoteFormElements {
  form: HTMLFormElement;
  /** Where the quote is shown. */
  result: HTMLElement;
  /** Where an error message is shown (role="alert"). */
  error: HTMLElement;
}

export interface QuoteFormDeps extends QuoteFormElements {
  client: ApiClient;
  /** localStorage, or undefined where storage is blocked. */
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined;
}

function fieldValue(form: HTMLFormElement, name: string): string {
  const input = form.elements.namedItem(name);
  return input instanceof HTMLInputElement || input instanceof HTMLSelectElement
    ? input.value.trim()
    : "";
}

function readRequest(form: HTMLFormElement): QuoteRequest {
  const entries = QUOTE_FIELDS.map((name) => [name, fieldValue(form, name)] as const);
  return Object.fromEntries(entries) as unknown as QuoteRequest;
}

function row(label: string, value: string | Node, className = ""): HTMLElement[] {
  return [el("dt", {}, label), el("dd", className === "" ? {} : { class: className }, value)];
}

/** `signData.params` for developers: collapsed, names unbroken, values wrapping anywhere. */
function paramsDetails(encoded: string): HTMLElement {
  const decoded = decodeParams(encoded);
  const body =
    decoded === undefined
      ? el("pre", { class: "params-raw" }, encoded)
      : el(
          "table",
          { class: "params" },
          el(
            "tbody",
            {},
            ...Object.entries(decoded).map(([key, value]) =>
              el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, String(value))),
            ),
          ),
        );
  return el(
    "details",
    { class: "developer-details" },
    el("summary", {}, "Developer details: the bridge call (signData.params)"),
    el(
      "p",
      { class: "summary" },
      "Chain ids here are the bridge's own ids (destChainId), not EVM chain ids.",
    ),
    body,
  );
}

/** Token symbols of a quote's amounts; "" where unknown (no registry): the number stands alone. */
export interface QuoteSymbols {
  /** The chains' names for people (without a registry: "chain <id>"). */
  sourceChain?: string;
  destChain?: string;
  /** signData.amount: the source token. */
  amount: string;
  /** fee: the source bridge token (params.sourceBridgeToken). */
  fee: string;
  /** destMinAmount / destMaxAmount: the destination token. */
  received: string;
}

const NO_SYMBOLS: QuoteSymbols = { amount: "", fee: "", received: "" };

function decodeParams(encoded: string): Record<string, unknown> | undefined {
  try {
    const decoded: unknown = JSON.parse(encoded);
    return typeof decoded === "object" && decoded !== null
      ? (decoded as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The symbols of a quote's amounts from the router's chains and tokens (discovery). */
export function quoteSymbols(
  chains: readonly ExplorerChain[],
  request: QuoteRequest,
  quote: RouteQuoteData,
): QuoteSymbols {
  const symbolOf = (chainId: string, address: unknown): string => {
    if (typeof address !== "string") return "";
    const chain = chains.find((c) => String(c.chainId) === chainId);
    const token = chain?.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase());
    return token?.symbol ?? "";
  };
  const params = decodeParams(quote.signData.params);
  const nameOf = (chainId: string) =>
    chains.find((c) => String(c.chainId) === chainId)?.displayName ?? `chain ${chainId}`;
  return {
    sourceChain: nameOf(request.sourceChain),
    destChain: nameOf(request.destChain),
    amount: symbolOf(request.sourceChain, request.sourceToken),
    fee: symbolOf(request.sourceChain, params?.["sourceBridgeToken"]),
    received: symbolOf(request.destChain, request.destToken),
  };
}

/** "about 45 s (9 in 10 within 2 min, from 12 transfers)"; no estimate: says so. */
export function etaText(quote: RouteQuoteData): string {
  const eta = quote.estimatedDuration;
  if (eta === undefined) return "";
  if (eta === null) return "No estimate yet: too few transfers on this route";
  return `About ${formatDuration(eta.p50Seconds)} (9 in 10 within ${formatDuration(eta.p90Seconds)}; from ${eta.samples} transfers)`;
}

/** "Valid for 27 s" / "Expired: get a new quote" at `nowMs`. */
export function expiryText(expiresAt: string, nowMs: number): string {
  const left = Math.floor((utcMillis(expiresAt) - nowMs) / 1000);
  if (Number.isNaN(left)) return "";
  return left > 0 ? `Valid for ${formatDuration(left)}` : "Expired: get a new quote";
}

/** The interval of the shown quote's countdown (one quote is shown at a time). */
let countdown: ReturnType<typeof setInterval> | undefined;

export function renderQuote(
  target: HTMLElement,
  quote: RouteQuoteData,
  symbols: QuoteSymbols = NO_SYMBOLS,
  action: HTMLElement | null = null,
): void {
  const sign = quote.signData;
  const eta = etaText(quote);
  const feeInOtherToken = symbols.fee !== "" && symbols.fee !== symbols.amount;
  const expiry =
    quote.expiresAt === undefined
      ? null
      : el("span", { class: "quote-expiry", title: formatUtcTime(quote.expiresAt) });
  const tick = () => {
    if (expiry === null || quote.expiresAt === undefined) return;
    const text = expiryText(quote.expiresAt, Date.now());
    if (expiry.textContent !== text) expiry.textContent = text;
    expiry.classList.toggle("expired", text.startsWith("Expired"));
  };
  if (countdown !== undefined) clearInterval(countdown);
  countdown = expiry === null ? undefined : setInterval(tick, 1000);
  tick();
  const children: Node[] = [
    el("h3", {}, "Best route"),
    el(
      "dl",
      { class: "quote-summary" },
      ...row("You send", amountNode(sign.amount, symbols.amount), "quote-amount"),
      ...row("From", symbols.sourceChain ?? sign.chainName, "quote-chain"),
      ...row("To", symbols.destChain ?? "", "quote-dest-chain"),
      ...row("Minimum received", amountNode(quote.destMinAmount, symbols.received), "quote-min"),
      ...row("Maximum received", amountNode(quote.destMaxAmount, symbols.received), "quote-max"),
      ...row(
        "Fee",
        el(
          "span",
          {},
          amountNode(quote.fee, symbols.fee),
          symbols.fee === ""
            ? " (in the source bridge token)"
            : feeInOtherToken
              ? ` (in ${symbols.fee}, the bridge's token: the ${symbols.amount} sent is swapped into it first)`
              : "",
        ),
        "quote-fee",
      ),
      ...(eta === "" ? [] : row("Estimated time", eta, "quote-eta")),
      ...(expiry === null ? [] : row("Quote", expiry, "quote-expires")),
      ...row("Bridge", bridgeKindName(sign.bridgeType), "quote-kind"),
      ...row("Bridge contract", sign.bridge, "quote-bridge hex"),
    ),
    ...(action === null ? [] : [action]),
    paramsDetails(sign.params),
  ];
  target.replaceChildren(...children);
  target.hidden = false;
}

export function createQuoteForm(deps: QuoteFormDeps): { start(): void } {
  const { form, result, error, client, storage } = deps;
  const apiKeyInput = form.elements.namedItem("apiKey");
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  /** The registry's chains once loaded (for symbols); [] until then or without a registry. */
  let chains: readonly ExplorerChain[] = [];

  function readStoredKey(): string {
    try {
      return storage?.getItem(API_KEY_STORAGE_KEY) ?? "";
    } catch {
      return "";
    }
  }

  function storeKey(key: string): void {
    try {
      if (key === "") storage?.removeItem(API_KEY_STORAGE_KEY);
      else storage?.setItem(API_KEY_STORAGE_KEY, key);
    } catch {
      // Storage full or blocked: the key simply is not remembered.
    }
  }

  async function onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const apiKey = apiKeyInput instanceof HTMLInputElement ? apiKeyInput.value.trim() : "";
    storeKey(apiKey);
    showMessage(error, "");
    result.hidden = true;
    if (submit) submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    try {
      const request = readRequest(form);
      const answer = await client.quote(request, apiKey);
      if (answer.ok) {
        const action = bridgeAction(window, executableQuote(answer.data), chains);
        renderQuote(result, answer.data, quoteSymbols(chains, request, answer.data), action);
      } else showMessage(error, answer.msg);
    } finally {
      if (submit) submit.disabled = false;
      form.removeAttribute("aria-busy");
    }
  }

  return {
    start() {
      if (apiKeyInput instanceof HTMLInputElement) apiKeyInput.value = readStoredKey();
      form.addEventListener("submit", (event) => void onSubmit(event));
      // A shown quote or error belongs to the inputs it was asked for: any edit clears it.
      form.addEventListener("input", () => {
        showMessage(error, "");
        result.hidden = true;
      });
      // The selects say "Loading chains…" until the registry arrives; none: text inputs.
      void client.chains().then(
        (answer) => {
          if (!answer.ok) {
            useTextInputs(form);
            return;
          }
          chains = answer.data;
          installChainSelects(form, chains);
        },
        () => useTextInputs(form),
      );
    },
  };
}
