/// <reference lib="dom" />
/**
 * When the server has a registry (GET /api/oracle/chains lists chains), the quote form's
 * chain and token text inputs become selects: chains by name and id, tokens by symbol (value:
 * the token address, which is what the router expects), the token list following the chosen
 * chain. Without a registry, or if the user already typed into a field, the text inputs stay.
 */
import type { ExplorerChain } from "./api-client.js";
import { el } from "./dom.js";
import { shortenHex } from "./format.js";

const SIDES = [
  { chain: "sourceChain", token: "sourceToken", defaultIndex: 0 },
  { chain: "destChain", token: "destToken", defaultIndex: 1 },
] as const;

function tokenOptions(chain: ExplorerChain | undefined): HTMLOptionElement[] {
  return (chain?.tokens ?? []).map((token) =>
    el(
      "option",
      { value: token.address, title: token.address },
      `${token.symbol} · ${shortenHex(token.address, 4, 4)}`,
    ),
  );
}

/** Returns whether the selects were installed. */
export function installChainSelects(
  form: HTMLFormElement,
  chains: readonly ExplorerChain[],
): boolean {
  if (chains.length < 2) return false;
  const inputs = SIDES.map((side) => [
    form.elements.namedItem(side.chain),
    form.elements.namedItem(side.token),
  ]);
  const untouched = inputs
    .flat()
    .every((input) => input instanceof HTMLInputElement && input.value === "");
  if (!untouched) return false;

  SIDES.forEach((side, i) => {
    const [chainInput, tokenInput] = inputs[i] as [HTMLInputElement, HTMLInputElement];
    const chainSelect = el(
      "select",
      { name: side.chain, required: "" },
      ...chains.map((chain) =>
        el("option", { value: String(chain.chainId) }, `${chain.name} (${chain.chainId})`),
      ),
    );
    chainSelect.value = String(chains[side.defaultIndex]?.chainId);
    const tokenSelect = el("select", { name: side.token, required: "" });
    const fillTokens = () => {
      const chain = chains.find((c) => String(c.chainId) === chainSelect.value);
      tokenSelect.replaceChildren(...tokenOptions(chain));
    };
    fillTokens();
    chainSelect.addEventListener("change", fillTokens);
    chainInput.replaceWith(chainSelect);
    tokenInput.replaceWith(tokenSelect);
  });
  return true;
}
