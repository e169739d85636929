/// <reference lib="dom" />
/**
 * The quote result's "Bridge with your wallet" action: finds a wallet (wallet.ts), runs the
 * bridging flow with a status line, shows wallet errors in plain words (wallet-errors.ts), and
 * on success opens the transfer's page, which follows it until Success or Failed.
 */
import type { ExplorerChain } from "./api-client.js";
import { el, showMessage } from "./dom.js";
import { submittedHref } from "./transfer-page.js";
import { bridgeWithWallet, discoverWallets, type ExecutableQuote } from "./wallet.js";
import { walletErrorMessage } from "./wallet-errors.js";

export function bridgeAction(
  win: Window,
  quote: ExecutableQuote | undefined,
  chains: readonly ExplorerChain[],
): HTMLElement {
  if (quote === undefined) {
    return el(
      "p",
      { class: "summary bridge-unavailable" },
      "This server's quotes carry no ready transaction, so they cannot be sent from a wallet here.",
    );
  }
  const button = el(
    "button",
    { type: "button", class: "bridge-button" },
    "Bridge with your wallet",
  );
  const status = el("p", { class: "summary bridge-status", role: "status" });
  const error = el("p", { class: "error bridge-error", role: "alert", hidden: "" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    showMessage(error, "");
    try {
      const wallets = await discoverWallets(win);
      const wallet = wallets[0];
      if (wallet === undefined) {
        showMessage(
          error,
          "No browser wallet was found. Install one (or enable it for this page) and try again.",
        );
        return;
      }
      const chainId = quote.transactionRequest.chainId;
      const known = chains.find((c) => c.chainId === chainId);
      const hash = await bridgeWithWallet({
        provider: wallet.provider,
        quote,
        chain: {
          chainId,
          name: known?.displayName ?? `chain ${chainId}`,
          ...(known === undefined
            ? {}
            : {
                nativeName: known.nativeName,
                nativeSymbol: known.nativeSymbol,
                nativeDecimals: known.nativeDecimals,
                rpcUrls: known.rpcUrls,
                blockExplorerUrls: known.blockExplorerUrls,
              }),
        },
        onStatus: (text) => {
          status.textContent = `${wallet.name}: ${text}`;
        },
      });
      status.textContent = `Sent in ${hash}. Opening the transfer…`;
      win.location.assign(submittedHref(hash, chainId));
    } catch (caught) {
      status.textContent = "";
      showMessage(error, walletErrorMessage(caught));
    } finally {
      button.disabled = false;
    }
  });
  return el("div", { class: "bridge-action" }, button, status, error);
}
