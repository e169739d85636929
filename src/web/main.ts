/// <reference lib="dom" />
/**
 * Entry point of the explorer page bundle (build-web.ts bundles this file into app.js): wires
 * the transfers view and the quote form to one API client on the page's own origin.
 */
import { createApiClient } from "./api-client.js";
import { byId } from "./dom.js";
import { createQuoteForm } from "./quote-form.js";
import { createTransfersView } from "./transfers-view.js";

function localStorageOrUndefined(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage disabled: the API key is not remembered
  }
}

const client = createApiClient();
createTransfersView({ client, window }).start();
createQuoteForm({
  form: byId("quote-form", HTMLFormElement),
  result: byId("quote-result", HTMLElement),
  error: byId("quote-error", HTMLElement),
  client,
  storage: localStorageOrUndefined(),
}).start();
