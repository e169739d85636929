/// <reference lib="dom" />
/**
 * The quote form's chain and token fields. The page starts with selects saying "Loading
 * chains…" (so nothing moves when the lists arrive): when the server has a registry (GET
 * /api/oracle/chains lists chains) they are filled with chains by name and tokens by symbol
 * (value: the token address, which is what the router expects), the token list following the
 * chosen chain. Without a registry (or when it cannot be read) they become text inputs of the
 * same size for chain ids and token addresses.
 */
import type { ExplorerChain } from "./api-client.js";
import { el } from "./dom.js";
import { shortenHex } from "./format.js";

const SIDES = [
  { chain: "sourceChain", token: "sourceToken", defaultIndex: 0 },
  { chain: "destChain", token: "destToken", defaultIndex: 1 },
] as const;

const TEXT_INPUTS: Record<string, Record<string, string>> = {
  sourceChain: { inputmode: "numeric", placeholder: "Chain id, e.g. 71001" },
  destChain: { inputmode: "numeric", placeholder: "Chain id, e.g. 71002" },
  sourceToken: { spellcheck: "false", placeholder: "0x… (0x000…0 = native coin)" },
  destToken: { spellcheck: "false", placeholder: "0x…" },
};

function tokenOptions(chain: ExplorerChain | undefined): HTMLOptionElement[] {
  return (chain?.tokens ?? []).map((token) =>
    el(
      "option",
      { value: token.address, title: token.address },
      `${token.symbol} · ${shortenHex(token.address, 4, 4)}`,
    ),
  );
}

function field(form: HTMLFormElement, name: string): HTMLSelectElement | HTMLInputElement | null {
  const element = form.elements.namedItem(name);
  return element instanceof HTMLSelectElement || element instanceof HTMLInputElement
    ? element
    : null;
}

/** Fills the selects from the registry's chains; returns whether it could (two chains or more). */
export function installChainSelects(
  form: HTMLFormElement,
  chains: readonly ExplorerChain[],
): boolean {
  if (chains.length < 2) {
    useTextInputs(form);
    return false;
  }
  for (const side of SIDES) {
    const chainSelect = field(form, side.chain);
    const tokenSelect = field(form, side.token);
    if (!(chainSelect instanceof HTMLSelectElement) || !(tokenSelect instanceof HTMLSelectElement))
      continue;
    chainSelect.replaceChildren(
      ...chains.map((chain) =>
        el("option", { value: String(chain.chainId) }, `${chain.displayName} (${chain.chainId})`),
      ),
    );
    chainSelect.value = String(chains[side.defaultIndex]?.chainId);
    const fillTokens = () => {
      const chain = chains.find((c) => String(c.chainId) === chainSelect.value);
      tokenSelect.replaceChildren(...tokenOptions(chain));
    };
    fillTokens();
    chainSelect.addEventListener("change", fillTokens);
    chainSelect.disabled = false;
    tokenSelect.disabled = false;
  }
  return true;
}

/** No registry: the chain and token fields are typed (chain ids, token addresses). */
export function useTextInputs(form: HTMLFormElement): void {
  for (const name of Object.keys(TEXT_INPUTS)) {
    const current = field(form, name);
    if (!(current instanceof HTMLSelectElement)) continue;
    const input = el("input", {
      name,
      required: "",
      autocomplete: "off",
      ...(TEXT_INPUTS[name] ?? {}),
    });
    current.replaceWith(input);
  }
}
