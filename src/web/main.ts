/// <reference lib="dom" />
/**
 * Entry point of the explorer page bundle (build-web.ts bundles this file into app.js). One
 * page, three views by URL: `/transfer/<id>` is one transfer's page; `/?q=...` a search;
 * `/` the home page (live feed and 24-hour summary). The header, the search box and the quote
 * form are the same on every view, so every page looks alike.
 */
import { installExactCopy } from "./amount-view.js";
import { createApiClient } from "./api-client.js";
import { createChainDirectory, EMPTY_DIRECTORY } from "./chain-directory.js";
import { byId } from "./dom.js";
import { createHomeView } from "./home-view.js";
import { createQuoteForm } from "./quote-form.js";
import { createTransferPage, transferIdFromPath } from "./transfer-page.js";
import { createTransfersView } from "./transfers-view.js";
import { installTimes } from "./value-views.js";

function localStorageOrUndefined(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage disabled: the API key is not remembered
  }
}

const client = createApiClient();
installExactCopy(document);
installTimes(document);
// Chains' names for people, block explorers and token symbols: one read, shared by every view.
const chains = client
  .chains()
  .then((answer) => (answer.ok ? createChainDirectory(answer.data) : EMPTY_DIRECTORY))
  .catch(() => EMPTY_DIRECTORY);
const transferId = transferIdFromPath(window.location.pathname);
if (transferId !== "") {
  // One transfer: the search box leads back to the search view; the rest stays hidden.
  byId("intro", HTMLElement).hidden = true;
  byId("list-controls", HTMLElement).hidden = true;
  byId("quote", HTMLElement).hidden = true;
  const searchForm = byId("search-form", HTMLFormElement);
  searchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const q = byId("search-input", HTMLInputElement).value.trim();
    window.location.assign(q === "" ? "/" : `/?q=${encodeURIComponent(q)}`);
  });
  createTransferPage({
    client,
    window,
    id: transferId,
    section: byId("transfer-page", HTMLElement),
    content: byId("transfer-content", HTMLElement),
    error: byId("transfer-error", HTMLElement),
    chains,
  }).start();
} else {
  const home = createHomeView({
    client,
    window,
    home: byId("intro", HTMLElement),
    feedBody: byId("feed", HTMLTableElement).tBodies[0] as HTMLTableSectionElement,
    feedStatus: byId("feed-status", HTMLElement),
    feedNote: byId("feed-note", HTMLElement),
    stats: byId("stats", HTMLElement),
    chains,
  });
  createTransfersView({ client, window, home, chains }).start();
  home.start();
  createQuoteForm({
    form: byId("quote-form", HTMLFormElement),
    result: byId("quote-result", HTMLElement),
    error: byId("quote-error", HTMLElement),
    client,
    storage: localStorageOrUndefined(),
  }).start();
}
