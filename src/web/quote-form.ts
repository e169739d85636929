/// <reference lib="dom" />
/**
 * The quote form: POSTs /api/oracle/router and shows the chosen route, fee, min/max received and
 * the decoded `signData.params`, or the envelope's `msg`. The API key is kept in localStorage
 * (this browser only) so it need not be pasted again.
 */
import type { RouteQuoteData } from "../router/quote-response.js";
import type { ApiClient, QuoteRequest } from "./api-client.js";
import { installChainSelects } from "./chain-selects.js";
import { el, showMessage } from "./dom.js";
import { bridgeKindName, groupDecimal } from "./format.js";

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

function row(label: string, value: string, className = ""): HTMLElement[] {
  return [el("dt", {}, label), el("dd", className === "" ? {} : { class: className }, value)];
}

function paramsTable(encoded: string): HTMLElement {
  let decoded: unknown;
  try {
    decoded = JSON.parse(encoded);
  } catch {
    return el("pre", { class: "params-raw" }, encoded);
  }
  if (typeof decoded !== "object" || decoded === null) return el("pre", {}, encoded);
  const body = el("tbody");
  for (const [key, value] of Object.entries(decoded)) {
    body.append(el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, String(value))));
  }
  return el("table", { class: "params" }, body);
}

export function renderQuote(target: HTMLElement, quote: RouteQuoteData): void {
  const sign = quote.signData;
  target.replaceChildren(
    el("h3", {}, "Best route"),
    el(
      "dl",
      { class: "quote-summary" },
      ...row("Bridge", bridgeKindName(sign.bridgeType), "quote-kind"),
      ...row("Bridge contract", sign.bridge, "quote-bridge hex"),
      ...row("Source chain", sign.chainName, "quote-chain"),
      ...row("Amount sent", groupDecimal(sign.amount), "quote-amount"),
      ...row("Fee (source bridge token)", groupDecimal(quote.fee), "quote-fee"),
      ...row("Minimum received", groupDecimal(quote.destMinAmount), "quote-min"),
      ...row("Maximum received", groupDecimal(quote.destMaxAmount), "quote-max"),
    ),
    el("h4", {}, "Bridge call parameters (signData.params)"),
    paramsTable(sign.params),
  );
  target.hidden = false;
}

export function createQuoteForm(deps: QuoteFormDeps): { start(): void } {
  const { form, result, error, client, storage } = deps;
  const apiKeyInput = form.elements.namedItem("apiKey");
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");

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
      const answer = await client.quote(readRequest(form), apiKey);
      if (answer.ok) renderQuote(result, answer.data);
      else showMessage(error, answer.msg);
    } finally {
      if (submit) submit.disabled = false;
      form.removeAttribute("aria-busy");
    }
  }

  return {
    start() {
      if (apiKeyInput instanceof HTMLInputElement) apiKeyInput.value = readStoredKey();
      form.addEventListener("submit", (event) => void onSubmit(event));
      // Progressive: the form works with text inputs until (and unless) the registry arrives.
      void client.chains().then((answer) => {
        if (answer.ok) installChainSelects(form, answer.data.chains);
      });
    },
  };
}
