/**
 * The explorer page end to end in headless Chromium against the real API on SQLite: search,
 * pagination, sorting, hash links, a Processing transfer turning Success without a reload, the
 * quote form (result and error), and a phone-width layout without horizontal scrolling.
 * Screenshots go to test-results/ (gitignored), kept as CI artifacts.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Page, Request } from "playwright-core";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { fixtureQuoteRequest } from "../../src/router/fixtures.js";
import { LIST_TRANSFERS_PATH } from "../../src/web/api-client.js";
import { formatAmount } from "../../src/web/format.js";
import {
  evmAddress,
  hexHash,
  makeProcessingTransfer,
  makeTransfer,
  timeAt,
} from "../setup/transfer-fixtures.js";
import {
  type Browser,
  type ExplorerHarness,
  launchChromium,
  startExplorerApi,
} from "./explorer-harness.js";

const RESULTS_DIR = "test-results";
const ALICE = evmAddress("explorer-alice");
const BOB = evmAddress("explorer-bob");

// Twelve transfers from Alice (two pages of 10): lexical and numeric amount order differ.
const SEND_AMOUNTS = [
  "9.5",
  "10",
  "100",
  "0.001",
  "2",
  "1000000.123456",
  "75",
  "3.25",
  "40",
  "8",
  "500",
  "12",
];
const aliceTransfers: BridgeTransaction[] = SEND_AMOUNTS.map((send, i) =>
  makeTransfer({
    from_address: ALICE,
    send_amount: send,
    receive_amount: send,
    dest_bridge_token_amount: send,
    created_at: timeAt(10_000 + i * 60),
    start_time: timeAt(10_000 + i * 60 - 1),
    ...(i === 7 ? { status: "Failed" as const } : {}),
  }),
);
// The newest of Alice's transfers is still in flight.
const processing = makeProcessingTransfer({
  from_address: ALICE,
  to_address: BOB,
  send_amount: "42",
  source_token_symbol: "WETH",
  created_at: timeAt(20_000),
  start_time: timeAt(19_999),
});
const bobOnly = makeTransfer({ from_address: BOB, to_address: BOB });
const ALL_ALICE = [...aliceTransfers, processing];

/** Message ids in the list endpoint's default order: created_at descending. */
const byCreatedDesc = [...ALL_ALICE]
  .sort((a, b) => b.created_at.localeCompare(a.created_at))
  .map((t) => t.message_id);

function compareDecimal(a: string, b: string): number {
  const [aw = "", af = ""] = a.split(".");
  const [bw = "", bf = ""] = b.split(".");
  if (aw.length !== bw.length) return aw.length - bw.length;
  if (aw !== bw) return aw < bw ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, "0");
  const y = bf.padEnd(width, "0");
  return x === y ? 0 : x < y ? -1 : 1;
}

async function rowIds(page: Page): Promise<string[]> {
  return page
    .locator("#transfers tbody tr")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-message-id") ?? ""));
}

async function waitForRows(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => {
    const results = document.getElementById("results");
    return (
      results !== null &&
      !results.hidden &&
      results.getAttribute("aria-busy") === null &&
      document.querySelectorAll("#transfers tbody tr").length === n
    );
  }, count);
}

async function pageLabel(page: Page): Promise<string> {
  return (await page.locator("#page-label").textContent()) ?? "";
}

describe("explorer page in Chromium", () => {
  let api: ExplorerHarness;
  let browser: Browser;
  let page: Page;

  before(async () => {
    await mkdir(RESULTS_DIR, { recursive: true });
    api = await startExplorerApi([...ALL_ALICE, bobOnly]);
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on("pageerror", (error) => {
      throw error;
    });
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  /** The quote request straight to the API (with the demo key), as the form will send it. */
  const quoteDirectly = (body: Record<string, string>) =>
    api.app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: { authorization: api.apiKey },
      payload: body,
    });

  it("default: searching an address lists its transfers, newest first, with badges, amounts, chains and UTC times", async () => {
    await page.goto(`${api.baseUrl}/`);
    assert.equal(await page.locator("#intro").isVisible(), true);
    await page.fill("#search-input", ALICE.toLowerCase());
    await page.press("#search-input", "Enter");
    await waitForRows(page, 10);
    assert.deepEqual(await rowIds(page), byCreatedDesc.slice(0, 10));
    assert.equal(await page.locator("#result-summary").textContent(), "13 transfers");
    assert.equal(await pageLabel(page), "Page 1 of 2");
    assert.equal(new URL(page.url()).searchParams.get("q"), ALICE.toLowerCase());

    const first = page.locator("#transfers tbody tr").first();
    const status = first.locator(".col-status .badge").first();
    assert.equal(await status.textContent(), "Processing");
    assert.match((await status.getAttribute("class")) ?? "", /badge-processing/);
    // No protocol field on these records: the reference bridge.
    assert.equal(await first.locator(".badge-protocol").textContent(), "Reference");
    assert.equal(await first.locator(".col-sent .amount").textContent(), "42 WETH");
    assert.equal(await first.locator(".col-received .amount").textContent(), "—");
    // Chains by their names for people (none listed by the server: capitalised), with a dot.
    assert.equal(await first.locator(".col-route").textContent(), "Devnet-a → Devnet-b");
    assert.equal(await first.locator(".col-route .dot").count(), 2);
    // Relative time, the exact UTC time on hover.
    const time = first.locator(".col-time time");
    assert.match((await time.textContent()) ?? "", / ago$| d ago$/);
    assert.equal(await time.getAttribute("title"), `${processing.start_time} UTC`);
    // In / Out relative to the searched address.
    assert.equal(await first.locator(".dir").textContent(), "Out");
    const received = page.locator(
      `#transfers tr[data-message-id="${bobOnly.message_id}"], #transfers .dir-in`,
    );
    assert.equal(await received.count(), 0, "Alice received none of these");
    const sourceLink = first.locator(".col-source-tx a");
    assert.equal(await sourceLink.getAttribute("title"), processing.source_tx_hash);
    const shown = (await sourceLink.textContent()) ?? "";
    assert.ok(shown.length < 16 && shown.startsWith(processing.source_tx_hash.slice(0, 8)), shown);

    const failedRow = page.locator(
      `#transfers tr[data-message-id="${aliceTransfers[7]!.message_id}"]`,
    );
    assert.equal(await failedRow.locator(".badge").first().textContent(), "Failed");
    // A failed transfer received nothing: "—", not "0 USDC".
    assert.equal(await failedRow.locator(".col-received .amount").textContent(), "—");
    const big = page.locator(
      `#transfers tr[data-message-id="${aliceTransfers[5]!.message_id}"] .col-sent .amount`,
    );
    assert.equal(await big.textContent(), "1,000,000.12 USDC");
    assert.equal(await big.getAttribute("title"), "1000000.123456 USDC");
  });

  it("behavior: next / prev change the rows, the page label and the URL; the page size select applies", async () => {
    await page.click("#next-page");
    await waitForRows(page, 3);
    assert.deepEqual(await rowIds(page), byCreatedDesc.slice(10));
    assert.equal(await pageLabel(page), "Page 2 of 2");
    assert.equal(new URL(page.url()).searchParams.get("page"), "2");
    assert.equal(await page.locator("#next-page").isDisabled(), true);

    await page.click("#prev-page");
    await waitForRows(page, 10);
    assert.deepEqual(await rowIds(page), byCreatedDesc.slice(0, 10));
    assert.equal(await pageLabel(page), "Page 1 of 2");
    assert.equal(await page.locator("#prev-page").isDisabled(), true);

    await page.selectOption("#page-size-select", "25");
    await waitForRows(page, 13);
    assert.equal(await pageLabel(page), "Page 1 of 1");
    assert.equal(new URL(page.url()).searchParams.get("size"), "25");
    await page.selectOption("#page-size-select", "10");
    await waitForRows(page, 10);
  });

  it("behavior: sorting by send_amount (select or header click) orders the rows numerically", async () => {
    const ascending = [...ALL_ALICE]
      .sort((a, b) => compareDecimal(a.send_amount, b.send_amount))
      .map((t) => t.message_id);
    await page.selectOption("#sort-select", "send_amount");
    await page.selectOption("#order-select", "asc");
    await waitForRows(page, 10);
    await page.waitForFunction(() => new URL(location.href).searchParams.get("order") === "asc");
    await waitForRows(page, 10);
    assert.deepEqual(await rowIds(page), ascending.slice(0, 10));
    assert.equal(
      await page.locator("th:has(button[data-sort=send_amount])").getAttribute("aria-sort"),
      "ascending",
    );

    // The header flips the order of its column.
    await page.click("button[data-sort=send_amount]");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("order") === null);
    await waitForRows(page, 10);
    assert.deepEqual(await rowIds(page), [...ascending].reverse().slice(0, 10));
    assert.equal(await page.locator("#order-select").inputValue(), "desc");
    assert.equal(new URL(page.url()).searchParams.get("sort"), "send_amount");
    // USDC and WETH on one page: the order is said to be by number alone.
    assert.equal(
      await page.locator("#sort-note").textContent(),
      "Ordered by the number alone: amounts of different tokens (USDC, WETH) are not converted to a common value.",
    );
  });

  it("behavior: a hash or message id of one transfer opens its page; Back returns to the list", async () => {
    const target = aliceTransfers[3]!;
    await page.goto(`${api.baseUrl}/?q=${ALICE}&size=25`);
    await waitForRows(page, 13);
    await page.click(`#transfers tr[data-message-id="${target.message_id}"] .col-source-tx a`);
    await page.waitForURL(`**/transfer/${target.message_id}`);
    await page.locator("#transfer-status").waitFor();
    assert.equal(await page.locator(".parties .source-tx").textContent(), target.source_tx_hash);
    await page.goBack();
    await waitForRows(page, 13);
    assert.equal(await page.inputValue("#search-input"), ALICE);

    // Typed into the search box: a destination hash, then a message id.
    for (const q of [target.dest_tx_hash, target.message_id]) {
      await page.goto(`${api.baseUrl}/`);
      await page.fill("#search-input", q);
      await page.press("#search-input", "Enter");
      await page.waitForURL(`**/transfer/${target.message_id}`);
      await page.locator("#transfer-status").waitFor();
    }
  });

  it("behavior: a Processing transfer turns Success in place when the store updates it (no reload)", async () => {
    await page.goto(`${api.baseUrl}/?q=${ALICE}`);
    await waitForRows(page, 10);
    const badge = page
      .locator(`#transfers tr[data-message-id="${processing.message_id}"] .badge`)
      .first();
    assert.equal(await badge.textContent(), "Processing");
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    // A keyboard user on a link: background refreshes keep the focus there, whether they bring
    // the same rows (nothing is re-rendered) or changed ones (focus returns to the same link).
    const firstLink = page.locator("tbody a.search-link").first();
    const focusedTitle = await firstLink.getAttribute("title");
    await firstLink.focus();
    const activeTitle = () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.title ?? null);
    // At least one refresh with the same rows went by: the page asks for the next one only
    // once it has rendered the one before.
    const isList = (request: Request) => new URL(request.url()).pathname === LIST_TRANSFERS_PATH;
    await page.waitForRequest(isList, { timeout: 20_000 });
    await page.waitForRequest(isList, { timeout: 20_000 });
    assert.equal(await activeTitle(), focusedTitle);

    await api.store.transfers.upsertTransfers([
      {
        ...processing,
        status: "Success",
        dest_tx_hash: hexHash("explorer-processing-delivered"),
        receive_amount: "41.9",
        dest_bridge_token_amount: "41.9",
        end_time: timeAt(20_030),
        updated_at: timeAt(20_031),
      },
    ]);
    await page.waitForFunction(
      (id) =>
        document.querySelector(`#transfers tr[data-message-id="${id}"] .badge`)?.textContent ===
        "Success",
      processing.message_id,
      { timeout: 15_000 },
    );
    assert.equal(await activeTitle(), focusedTitle, "focus kept across the re-render");
    const row = page.locator(`#transfers tr[data-message-id="${processing.message_id}"]`);
    assert.equal(await row.locator(".col-received .amount").textContent(), "41.9 USDC");
    assert.equal(
      await row.locator(".col-dest-tx a").getAttribute("title"),
      hexHash("explorer-processing-delivered"),
    );
    assert.equal(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
      true,
    );
  });

  it("behavior: the quote form shows the route, fee and min/max received; the API key is remembered", async () => {
    const alpha = api.router.chain("alpha");
    const body = fixtureQuoteRequest(api.router, ["alpha", "USDC"], ["beta", "DAI"], "250", BOB);
    const direct = await quoteDirectly(body);
    assert.equal(direct.statusCode, 200, direct.body);
    const expected = direct.json().data;

    await page.goto(`${api.baseUrl}/#quote`);
    // With a registry the chain and token fields are selects; tokens follow the chosen chain.
    await page.locator("#quote-form select[name=destToken]:enabled").waitFor();
    const sourceTokens = await page
      .locator("#quote-form select[name=sourceToken] option")
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(
      sourceTokens,
      alpha.tokens.map((t) => t.address),
    );
    await page.selectOption("#quote-form [name=sourceChain]", body.sourceChain);
    await page.selectOption("#quote-form [name=sourceToken]", body.sourceToken);
    await page.selectOption("#quote-form [name=destChain]", body.destChain);
    await page.selectOption("#quote-form [name=destToken]", body.destToken);
    await page.fill("#quote-form [name=amount]", body.amount);
    await page.fill("#quote-form [name=to]", body.to);
    await page.fill("#quote-form [name=apiKey]", api.apiKey);
    await page.click("#quote-form button[type=submit]");
    await page.locator("#quote-result .quote-fee").waitFor();
    // Amounts carry their tokens' symbols: the fee is in the source bridge token.
    const feeToken = api.router.registry.token(
      alpha.chainId,
      JSON.parse(expected.signData.params).sourceBridgeToken,
    );
    assert.ok(feeToken, "feeToken");
    assert.equal(
      await page.locator(".quote-fee .amount").textContent(),
      formatAmount(expected.fee, feeToken.symbol),
    );
    assert.equal(await page.locator(".quote-amount").textContent(), "250 USDC");
    assert.equal(
      await page.locator(".quote-min").textContent(),
      formatAmount(expected.destMinAmount, "DAI"),
    );
    assert.equal(
      await page.locator(".quote-max").textContent(),
      formatAmount(expected.destMaxAmount, "DAI"),
    );
    assert.equal(await page.locator(".quote-bridge").textContent(), expected.signData.bridge);
    assert.equal(await page.locator(".quote-chain").textContent(), "Alpha");
    assert.equal(await page.locator(".quote-dest-chain").textContent(), "Beta");
    // The fixture's router has no durations: the ETA row says so. Its clock stopped at 0, so
    // the quote expired long ago (src/web/quote-form.test.ts counts down a live one).
    assert.equal(
      await page.locator(".quote-eta").textContent(),
      "No estimate yet: too few transfers on this route",
    );
    assert.equal(await page.locator(".quote-expiry").textContent(), "Expired: get a new quote");
    // The developer's view of the call is folded away, out of the main flow.
    assert.equal(await page.locator("#quote-result details.developer-details").count(), 1);
    assert.equal(
      await page.locator("#quote-result details.developer-details").getAttribute("open"),
      null,
    );
    assert.match(
      (await page.locator(".quote-kind").textContent()) ?? "",
      new RegExp(`\\(kind ${expected.signData.bridgeType}\\)$`),
    );
    const params = JSON.parse(expected.signData.params) as Record<string, unknown>;
    const shownParams = await page
      .locator("#quote-result table.params tr")
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector("th")?.textContent,
          row.querySelector("td")?.textContent,
        ]),
      );
    assert.deepEqual(
      shownParams,
      Object.entries(params).map(([key, value]) => [key, String(value)]),
    );
    assert.equal(await page.locator("#quote-error").isHidden(), true);
    await page.locator("#quote").screenshot({ path: `${RESULTS_DIR}/explorer-quote.png` });

    // The key survives a reload (localStorage), prefilled into the form.
    await page.reload();
    assert.equal(await page.inputValue("#quote-form [name=apiKey]"), api.apiKey);
  });

  it("error: the quote form shows the envelope's msg for a refused request", async () => {
    const body = fixtureQuoteRequest(api.router, ["alpha", "USDC"], ["beta", "USDC"], "0.5", BOB);
    const direct = await quoteDirectly(body);
    assert.equal(direct.statusCode, 422, direct.body);

    // Without a registry (chains: []) the chain and token fields stay free text inputs.
    await page.route("**/api/oracle/chains", (route) =>
      route.fulfill({ json: { code: 0, msg: "success", data: { chains: [] } } }),
    );
    const chainsAnswered = page.waitForResponse("**/api/oracle/chains");
    await page.goto(`${api.baseUrl}/`); // not "/#quote": from there that would not reload
    await chainsAnswered;
    for (const [name, value] of Object.entries(body))
      await page.fill(`#quote-form input[name=${name}]`, value);
    // Only now: the answer awaited above may be the previous page's (the last test reloads), and
    // this page's own request, unrouted too early, got the real chains and no text inputs.
    await page.unroute("**/api/oracle/chains");
    await page.click("#quote-form button[type=submit]");
    await page.locator("#quote-error").waitFor();
    assert.equal(await page.locator("#quote-error").textContent(), direct.json().msg);
    assert.equal(await page.locator("#quote-result").isHidden(), true);

    // Without a key the server's own 40101 message is shown.
    await page.fill("#quote-form [name=apiKey]", "");
    await page.fill("#quote-form [name=amount]", "10");
    await page.click("#quote-form button[type=submit]");
    await page.waitForFunction(() =>
      document.getElementById("quote-error")?.textContent?.startsWith("missing API key"),
    );
  });

  it("error: an invalid search is said in words at once, without asking the API", async () => {
    const asked: string[] = [];
    const onRequest = (request: Request) => {
      if (new URL(request.url()).pathname === LIST_TRANSFERS_PATH) asked.push(request.url());
    };
    page.on("request", onRequest);
    await page.goto(`${api.baseUrl}/?q=${encodeURIComponent("not an address!")}`);
    await page.locator("#list-error").waitFor();
    const text = (await page.locator("#list-error").textContent()) ?? "";
    assert.match(text, /^“not an address!” is not something we can search for\./);
    assert.doesNotMatch(text, /addressOrTxHash|must be/);
    assert.equal(await page.locator("#results").isHidden(), true);
    page.off("request", onRequest);
    assert.deepEqual(asked, []);
    // A short hex string could be an imported message id: searched, and the hint given.
    await page.goto(`${api.baseUrl}/?q=0x1234`);
    await page.locator("#no-results").waitFor();
    assert.match(
      (await page.locator("#no-results").textContent()) ?? "",
      /^No transfers match 0x1234\. “0x1234” is not a complete address or hash/,
    );
  });

  it("behavior: at phone width the table becomes cards without horizontal scrolling (screenshots kept)", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.baseUrl}/?q=${ALICE}`);
    await waitForRows(page, 10);
    const table = await page.evaluate(() => {
      const box = document.querySelector(".table-scroll") as Element;
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
    });
    assert.ok(
      table.scrollWidth <= table.clientWidth,
      `table overflows at 1280px: ${JSON.stringify(table)}`,
    );
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-desktop.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${api.baseUrl}/?q=${ALICE}`);
    await waitForRows(page, 10);
    const layout = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      theadDisplay: getComputedStyle(document.querySelector("#transfers thead") as Element).display,
      rowDisplay: getComputedStyle(document.querySelector("#transfers tbody tr") as Element)
        .display,
    }));
    assert.equal(layout.theadDisplay, "none");
    assert.equal(layout.rowDisplay, "grid");
    assert.ok(
      layout.scrollWidth <= layout.innerWidth,
      `page is ${layout.scrollWidth}px wide in a ${layout.innerWidth}px viewport`,
    );
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-phone.png`, fullPage: true });
  });
});
