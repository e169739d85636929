/**
 * The explorer's home and transfer pages in headless Chromium against the real API on SQLite:
 * the live feed taking a new transfer without a reload, the 24-hour summary, a Failed
 * transfer's page with its timeline, reason and refund (from the indexer's stored events), a
 * Processing transfer's page advancing to Success by itself (on the event stream), amounts' exact value on hover and
 * on copy, keyboard reach, and axe-core (no serious or critical violations) on every page at
 * desktop and phone width. Screenshots go to test-results/ (gitignored), kept as CI artifacts.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Page, Request } from "playwright-core";
import { utcText } from "../../src/api/transfer-summary.js";
import { formatAmount } from "../../src/web/format.js";
import {
  evmAddress,
  hexHash,
  makeProcessingTransfer,
  makeTransfer,
} from "../setup/transfer-fixtures.js";
import { assertNoSeriousAxeViolations } from "./axe.js";
import {
  type Browser,
  type ExplorerHarness,
  feedIds,
  launchChromium,
  overflowing,
  startExplorerApi,
  storeFailedAndRefunded,
} from "./explorer-harness.js";

const RESULTS_DIR = "test-results";
const NOW = Math.floor(Date.now() / 1000);
const SOURCE_BRIDGE = evmAddress("pages-source-bridge");
const DEST_BRIDGE = evmAddress("pages-dest-bridge");

const delivered = makeTransfer({
  source_contract: SOURCE_BRIDGE,
  dest_contract: DEST_BRIDGE,
  send_amount: "20.493790701908068847",
  source_token_symbol: "DAI",
  source_token_decimals: 18,
  start_time: utcText(NOW - 600),
  end_time: utcText(NOW - 588),
});
const failed = makeTransfer({
  source_contract: SOURCE_BRIDGE,
  dest_contract: DEST_BRIDGE,
  status: "Failed",
  receive_amount: "0",
  send_amount: "1500.25",
  bridge_fee: "1.5",
  xproto_fee: "0.25",
  start_time: utcText(NOW - 300),
  end_time: utcText(NOW - 290),
});
const processing = makeProcessingTransfer({
  source_contract: SOURCE_BRIDGE,
  dest_contract: DEST_BRIDGE,
  start_time: utcText(NOW - 60),
});
const REFUND_REASON = "slippage: would receive less than the minimum";

describe("explorer home and transfer pages in Chromium", () => {
  let api: ExplorerHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: Error[] = [];

  before(async () => {
    await mkdir(RESULTS_DIR, { recursive: true });
    api = await startExplorerApi([delivered, failed, processing]);
    storeFailedAndRefunded(api.databaseUrl, {
      transfer: failed,
      source: { chainId: 71001, name: "devnet-a", bridge: SOURCE_BRIDGE },
      dest: { chainId: 71002, name: "devnet-b", bridge: DEST_BRIDGE },
      blocks: [140, 77, 151],
      times: [NOW - 300, NOW - 290, NOW - 275],
      reason: REFUND_REASON,
      refund: { token: failed.fee_address, amount: "1498500000" },
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error));
  });

  after(async () => {
    await browser?.close();
    await api?.close();
    assert.deepEqual(pageErrors, []);
  });

  it("default: the home page lists the latest transfers and the last 24 hours by status, route and token", async () => {
    await page.goto(`${api.baseUrl}/`);
    await page.waitForFunction(() => document.querySelectorAll("#feed tbody tr").length === 3);
    assert.deepEqual(await feedIds(page), [
      processing.message_id,
      failed.message_id,
      delivered.message_id,
    ]);
    await page.locator("#stats .stat-total dd").waitFor();
    assert.equal(await page.locator("#stats .stat-total dd").textContent(), "3");
    assert.equal(await page.locator("#stats .stat-success dd").textContent(), "1");
    assert.equal(await page.locator("#stats .stat-failed dd").textContent(), "1");
    assert.equal(await page.locator("#stats .stat-processing dd").textContent(), "1");
    assert.equal(await page.locator("#stats .stat-rate dd").textContent(), "50.0 %");
    assert.equal(await page.locator("#stats .routes .route-median").first().textContent(), "12 s");
    const volume = page.locator("#stats .volumes tr", { hasText: "DAI" }).locator(".amount");
    assert.equal(await volume.textContent(), "20.4938 DAI");
    assert.equal(await volume.getAttribute("title"), "20.493790701908068847 DAI");
    await assertNoSeriousAxeViolations(page, "the home page");
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-home-desktop.png`, fullPage: true });
  });

  it("behavior: the feed takes a new transfer without a reload", async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const arriving = makeProcessingTransfer({ start_time: utcText(NOW - 5), send_amount: "7" });
    await api.store.transfers.upsertTransfers([arriving]);
    await page.waitForFunction(
      (id) => document.querySelector("#feed tbody tr")?.getAttribute("data-message-id") === id,
      arriving.message_id,
    );
    assert.equal(await page.locator("#feed-status").textContent(), "1 new transfer; updates live.");
    assert.equal(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
      true,
    );
  });

  it("behavior: copying a rounded amount copies its exact value", async () => {
    const exact = await page.evaluate(() => {
      const amount = document.querySelector('#stats .volumes [data-exact$=" DAI"]') as HTMLElement;
      const range = document.createRange();
      range.selectNodeContents(amount);
      const selection = document.getSelection() as Selection;
      selection.removeAllRanges();
      selection.addRange(range);
      const event = new ClipboardEvent("copy", {
        clipboardData: new DataTransfer(),
        bubbles: true,
        cancelable: true,
      });
      amount.dispatchEvent(event);
      return event.clipboardData?.getData("text/plain");
    });
    assert.equal(exact, "20.493790701908068847 DAI");
  });

  it("default: a Failed transfer's page shows its timeline, reason, refund and fees", async () => {
    // Reached from a feed row's details link, by keyboard.
    const link = page.locator(`#feed tr[data-message-id="${failed.message_id}"] a.transfer-link`);
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/transfer/${failed.message_id}`);
    await page.locator('.step[data-step="refunded"]').waitFor();
    // The badge shows the stage: failed, then refunded.
    assert.equal(await page.locator("#transfer-status").textContent(), "Refunded");
    assert.match(
      (await page.locator("#transfer-status").getAttribute("class")) ?? "",
      /badge-refunded/,
    );
    const steps = await page
      .locator(".timeline .step")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-step")));
    assert.deepEqual(steps, ["sent", "failed", "refunded"]);
    assert.match(
      (await page.locator('.step[data-step="sent"] .step-when').textContent()) ?? "",
      /Devnet-a · block 140$/,
    );
    const failedStep = page.locator('.step[data-step="failed"]');
    assert.match(
      (await failedStep.locator(".step-when").textContent()) ?? "",
      /10 s after sending · Devnet-b · block 77$/,
    );
    assert.equal(
      await failedStep.locator(".step-reason").textContent(),
      `Reason: ${REFUND_REASON}`,
    );
    const refunded = page.locator('.step[data-step="refunded"]');
    assert.equal(await refunded.locator(".amount").textContent(), "1,498.5 USDC");
    assert.match(
      (await refunded.locator(".step-when").textContent()) ?? "",
      /25 s after sending · Devnet-a · block 151$/,
    );
    assert.equal(await page.locator(".amount-sent").textContent(), "1,500.25 USDC");
    assert.equal(
      await page.locator(".amount-received").textContent(),
      "— (nothing was delivered; see the refund above)",
    );
    assert.equal(await page.locator(".fee-bridge").textContent(), formatAmount("1.5", "USDC"));
    assert.equal(await page.locator(".fee-messaging").textContent(), "0.25 USDC");
    assert.equal(await page.locator(".details .source-tx").textContent(), failed.source_tx_hash);
    assert.equal(await page.locator(".details .dest-tx").textContent(), failed.dest_tx_hash);
    await assertNoSeriousAxeViolations(page, "a Failed transfer's page");
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-transfer-desktop.png`, fullPage: true });
  });

  it("behavior: a transfer page opened by its source hash advances from Processing to Success by itself", async () => {
    // It follows the transfer on the server-sent event stream, by message id.
    const streamed = page.waitForRequest(
      (request) =>
        request.url() ===
        `${api.baseUrl}/api/oracle/bridge-transactions/stream?addressOrTxHash=${processing.message_id}`,
    );
    await page.goto(`${api.baseUrl}/transfer/${processing.source_tx_hash}`);
    await page.locator('.step[data-step="pending"]').waitFor();
    await streamed;
    assert.equal(await page.locator("#transfer-status").textContent(), "Processing");
    assert.equal(await page.locator(".amount-received").textContent(), "—");
    await api.store.transfers.upsertTransfers([
      {
        ...processing,
        status: "Success",
        dest_tx_hash: hexHash("pages-delivered"),
        receive_amount: "99.5",
        dest_bridge_token_amount: "99.5",
        end_time: utcText(NOW - 45),
      },
    ]);
    await page.locator('.step[data-step="delivered"]').waitFor();
    assert.equal(await page.locator("#transfer-status").textContent(), "Success");
    assert.equal(await page.locator(".amount-received").textContent(), "99.5 USDC");
    assert.equal(await page.locator('.step[data-step="pending"]').count(), 0);
  });

  it("error: an id that is no transfer's is said at once on the transfer page", async () => {
    for (const [id, words, asks] of [
      ["not*valid", /^“not\*valid” is not a transfer id\. A transfer is found by/, 0],
      ["nonsense", /^No transfer has the id nonsense\.$/, 1],
      [failed.from_address, /is an address, not a transfer: search it/, 0],
    ] as const) {
      const timelines: string[] = [];
      const onRequest = (request: Request) => {
        if (request.url().endsWith("/timeline")) timelines.push(request.url());
      };
      page.on("request", onRequest);
      const started = Date.now();
      await page.goto(`${api.baseUrl}/transfer/${id}`);
      await page.locator("#transfer-error").waitFor();
      assert.match((await page.locator("#transfer-error").textContent()) ?? "", words);
      assert.ok(Date.now() - started < 3000, `${id}: said within 3 s`);
      await page.waitForTimeout(2500); // a retry would come after 2 s
      page.off("request", onRequest);
      assert.equal(timelines.length, asks, `${id}: asked ${timelines.length} times`);
    }
  });

  it("behavior: at phone width the home, search and transfer pages fit and pass axe-core (screenshots kept)", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path, ready] of [
      ["home", "/", "#feed tbody tr[data-message-id]"],
      ["search", `/?q=${failed.from_address}`, "#transfers tbody tr[data-message-id]"],
      ["transfer", `/transfer/${failed.message_id}`, '.step[data-step="refunded"]'],
    ] as const) {
      await page.goto(`${api.baseUrl}${path}`);
      await page.locator(ready).first().waitFor();
      const width = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
      }));
      assert.ok(
        width.scroll <= width.inner,
        `${name}: ${width.scroll}px wide in ${width.inner}px: ${(await overflowing(page)).join(", ")}`,
      );
      await assertNoSeriousAxeViolations(page, `the ${name} page at 390 px`);
      await page.screenshot({ path: `${RESULTS_DIR}/explorer-${name}-phone.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.baseUrl}/?q=${failed.from_address}`);
    await page.locator("#transfers tbody tr[data-message-id]").first().waitFor();
    await assertNoSeriousAxeViolations(page, "the search page");
  });
});
