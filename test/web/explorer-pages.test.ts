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
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
import { utcText } from "../../src/api/transfer-summary.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { sqlitePath } from "../../src/store/database-url.js";
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
  launchChromium,
  startExplorerApi,
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

function rawEvent(
  transfer: BridgeTransaction,
  name: string,
  chainId: number,
  block: number,
  time: number,
  address: string,
  args: object,
): unknown[] {
  return [
    chainId,
    hexHash(`${transfer.message_id}-${name}`),
    0,
    block,
    hexHash(`block-${chainId}-${block}`),
    time,
    address,
    0,
    name,
    transfer.message_id,
    JSON.stringify(args),
    ROLES[name],
  ];
}

/** The reference events' roles (src/domain/bridge-event.ts). */
const ROLES: Record<string, string> = {
  TransferSent: "sent",
  TransferDelivered: "delivered",
  TransferFailed: "failed",
  TransferRefunded: "refunded",
};

function storeIndexedEvents(databaseUrl: string): void {
  const db = new Database(sqlitePath(databaseUrl));
  try {
    const insertChain = db.prepare(
      "INSERT INTO indexer_chains (chain_id, name, start_block, cursor_block, cursor_hash, head_block, target_block, state, error, updated_at) VALUES (?, ?, 0, 0, '', 0, 0, 'following', '', '')",
    );
    insertChain.run(71001, "devnet-a");
    insertChain.run(71002, "devnet-b");
    const insert = db.prepare(
      "INSERT INTO raw_events (chain_id, tx_hash, log_index, block_number, block_hash, block_time, address, kind, event_name, message_id, args, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const row of [
      rawEvent(failed, "TransferSent", 71001, 140, NOW - 300, SOURCE_BRIDGE, {}),
      rawEvent(failed, "TransferFailed", 71002, 77, NOW - 290, DEST_BRIDGE, {
        reason: REFUND_REASON,
      }),
      rawEvent(failed, "TransferRefunded", 71001, 151, NOW - 275, SOURCE_BRIDGE, {
        token: failed.fee_address,
        amount: "1498500000",
      }),
    ]) {
      insert.run(...row);
    }
  } finally {
    db.close();
  }
}

async function feedIds(page: Page): Promise<string[]> {
  return page
    .locator("#feed tbody tr")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-message-id") ?? ""));
}

describe("explorer home and transfer pages in Chromium", () => {
  let api: ExplorerHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: Error[] = [];

  before(async () => {
    await mkdir(RESULTS_DIR, { recursive: true });
    api = await startExplorerApi([delivered, failed, processing]);
    storeIndexedEvents(api.databaseUrl);
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
    assert.equal(await page.locator("#transfer-status").textContent(), "Failed");
    const steps = await page
      .locator(".timeline .step")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-step")));
    assert.deepEqual(steps, ["sent", "failed", "refunded"]);
    assert.match(
      (await page.locator('.step[data-step="sent"] .step-when').textContent()) ?? "",
      /devnet-a · block 140/,
    );
    const failedStep = page.locator('.step[data-step="failed"]');
    assert.match(
      (await failedStep.locator(".step-when").textContent()) ?? "",
      /block 77 · 10 s after sending$/,
    );
    assert.equal(
      await failedStep.locator(".step-reason").textContent(),
      `Reason: ${REFUND_REASON}`,
    );
    const refunded = page.locator('.step[data-step="refunded"]');
    assert.equal(await refunded.locator(".amount").textContent(), "1,498.5 USDC");
    assert.match((await refunded.locator(".step-when").textContent()) ?? "", /25 s after sending$/);
    assert.equal(await page.locator(".amount-sent").textContent(), "1,500.25 USDC");
    assert.equal(await page.locator(".amount-received").textContent(), "0 USDC");
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

  it("error: an unknown hash says so on the transfer page", async () => {
    await page.goto(`${api.baseUrl}/transfer/not*valid`);
    await page.locator("#transfer-error").waitFor();
    assert.match((await page.locator("#transfer-error").textContent()) ?? "", /^id must be/);
  });

  it("behavior: at phone width the home, search and transfer pages fit and pass axe-core (screenshots kept)", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    for (const [name, path, ready] of [
      ["home", "/", "#feed tbody tr"],
      ["search", `/?q=${failed.from_address}`, "#transfers tbody tr"],
      ["transfer", `/transfer/${failed.message_id}`, '.step[data-step="refunded"]'],
    ] as const) {
      await page.goto(`${api.baseUrl}${path}`);
      await page.locator(ready).first().waitFor();
      const width = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
      }));
      assert.ok(width.scroll <= width.inner, `${name}: ${width.scroll}px wide in ${width.inner}px`);
      await assertNoSeriousAxeViolations(page, `the ${name} page at 375 px`);
      await page.screenshot({ path: `${RESULTS_DIR}/explorer-${name}-phone.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.baseUrl}/?q=${failed.from_address}`);
    await page.locator("#transfers tbody tr").first().waitFor();
    await assertNoSeriousAxeViolations(page, "the search page");
  });
});
