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
import { installChainSelects } from "./chain-selects.js";
import { el, showMessage } from "./dom.js";
import { bridgeKindName } from "./format.js";
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

function paramsTable(encoded: string): HTMLElement {
  const decoded = decodeParams(encoded);
  if (decoded === undefined) return el("pre", { class: "params-raw" }, encoded);
  const body = el("tbody");
  for (const [key, value] of Object.entries(decoded)) {
    body.append(el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, String(value))));
  }
  return el("table", { class: "params" }, body);
}

/** Token symbols of a quote's amounts; "" where unknown (no registry): the number stands alone. */
export interface QuoteSymbols {
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
  return {
    amount: symbolOf(request.sourceChain, request.sourceToken),
    fee: symbolOf(request.sourceChain, params?.["sourceBridgeToken"]),
    received: symbolOf(request.destChain, request.destToken),
  };
}

export function renderQuote(
  target: HTMLElement,
  quote: RouteQuoteData,
  symbols: QuoteSymbols = NO_SYMBOLS,
  action: HTMLElement | null = null,
): void {
  const sign = quote.signData;
  const children: Node[] = [
    el("h3", {}, "Best route"),
    el(
      "dl",
      { class: "quote-summary" },
      ...row("Bridge", bridgeKindName(sign.bridgeType), "quote-kind"),
      ...row("Bridge contract", sign.bridge, "quote-bridge hex"),
      ...row("Source chain", sign.chainName, "quote-chain"),
      ...row("Amount sent", amountNode(sign.amount, symbols.amount), "quote-amount"),
      ...row(
        symbols.fee === "" ? "Fee (source bridge token)" : "Fee",
        amountNode(quote.fee, symbols.fee),
        "quote-fee",
      ),
      ...row("Minimum received", amountNode(quote.destMinAmount, symbols.received), "quote-min"),
      ...row("Maximum received", amountNode(quote.destMaxAmount, symbols.received), "quote-max"),
    ),
    ...(action === null ? [] : [action]),
    el("h4", {}, "Bridge call parameters (signData.params)"),
    paramsTable(sign.params),
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
      // Progressive: the form works with text inputs until (and unless) the registry arrives.
      void client.chains().then((answer) => {
        if (!answer.ok) return;
        chains = answer.data;
        installChainSelects(form, chains);
      });
    },
  };
}
