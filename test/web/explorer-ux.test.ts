/**
 * What issue #40 asked of the explorer, in headless Chromium against the real API (SQLite, the
 * router fixture with a block explorer per chain): controls that do something (and hide where
 * they do not apply), the feed following the event stream, links and copy buttons, the refunded
 * stage with its token explained, the protocol badge, loading placeholders under a slow API
 * without layout shift, the dark theme, a 390 px phone (no sideways scroll, tap targets of
 * 24 px), and compressed, conditional responses.
 */
import assert from "node:assert/strict";
import { get } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Page, Request, Route } from "playwright-core";
import { utcText } from "../../src/api/transfer-summary.js";
import { evmAddress, makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";
import { assertNoSeriousAxeViolations } from "./axe.js";
import {
  type Browser,
  type ExplorerHarness,
  fakeBlockExplorer,
  feedIds,
  launchChromium,
  overflowing,
  startExplorerApi,
  storeFailedAndRefunded,
} from "./explorer-harness.js";

const NOW = Math.floor(Date.now() / 1000);
const ALICE = evmAddress("ux-alice");
const BOB = evmAddress("ux-bob");
const SOURCE_BRIDGE = evmAddress("ux-source-bridge");
const DEST_BRIDGE = evmAddress("ux-dest-bridge");
const onRoute = { source_chain_name: "alpha", dest_chain_name: "beta" } as const;

const small = makeTransfer({
  ...onRoute,
  from_address: ALICE,
  to_address: BOB,
  send_amount: "5",
  start_time: utcText(NOW - 400),
});
const large = makeTransfer({
  ...onRoute,
  from_address: BOB,
  to_address: ALICE,
  send_amount: "900",
  start_time: utcText(NOW - 300),
});
// Sent in DAI, swapped into the bridge's USDC, failed, refunded in USDC.
const refunded = makeTransfer({
  ...onRoute,
  from_address: ALICE,
  to_address: BOB,
  source_contract: SOURCE_BRIDGE,
  dest_contract: DEST_BRIDGE,
  status: "Failed",
  send_amount: "40",
  source_token_symbol: "DAI",
  receive_amount: "0",
  fee_symbol: "USDC",
  fee_decimals: 6,
  start_time: utcText(NOW - 200),
  end_time: utcText(NOW - 190),
});
const moving = makeProcessingTransfer({
  ...onRoute,
  send_amount: "60",
  start_time: utcText(NOW - 100),
});
const RECORDS = [small, large, refunded, moving];

/** The bytes on the wire (not decompressed, unlike fetch) and the encoding of a GET. */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ bytes: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => {
        const encoding = response.headers["content-encoding"];
        resolve(encoding === undefined ? { bytes } : { bytes, encoding });
      });
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** Every control a finger must hit, visible on the page: smaller than 24 x 24 px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("a, button, select, input, summary"))
      .filter((e) => e.closest("[hidden]") === null && !e.classList.contains("skip-link"))
      .map((e) => ({ e, box: e.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(
        ({ e, box }) =>
          `${e.tagName.toLowerCase()}.${e.className} "${e.textContent?.trim().slice(0, 20)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
      ),
  );
}

describe("explorer UX (issue #40) in Chromium", () => {
  let api: ExplorerHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: Error[] = [];

  before(async () => {
    api = await startExplorerApi(RECORDS, { blockExplorers: true });
    storeFailedAndRefunded(api.databaseUrl, {
      transfer: refunded,
      source: { chainId: 71001, name: "alpha", bridge: SOURCE_BRIDGE },
      dest: { chainId: 71002, name: "beta", bridge: DEST_BRIDGE },
      blocks: [40, 9, 44],
      times: [NOW - 200, NOW - 190, NOW - 180],
      reason: "slippage",
      refund: { token: refunded.fee_address, amount: "39960000" },
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

  it("behavior: the home feed follows the event stream, not a timer, and its sort, order and size apply", async () => {
    const latest: string[] = [];
    const count = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/oracle/bridge-transactions/latest") latest.push(url.search);
    };
    page.on("request", count);
    const stream = page.waitForRequest((r) =>
      r.url().endsWith("/api/oracle/bridge-transactions/latest/stream"),
    );
    await page.goto(`${api.baseUrl}/`);
    await stream;
    await page.waitForFunction(
      () => document.querySelectorAll("#feed tr[data-message-id]").length === 4,
    );
    assert.deepEqual(
      await feedIds(page),
      [moving, refunded, large, small].map((t) => t.message_id),
    );
    // Idle: no change, no read (a poll would have read twice in these 7 s).
    const reads = latest.length;
    await page.waitForTimeout(7000);
    assert.equal(latest.length, reads, "no reads while nothing changes");

    // The sort and order selects reorder the feed: sent amount, ascending.
    await page.selectOption("#sort-select", "send_amount");
    await page.selectOption("#order-select", "asc");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("order") === "asc");
    await page.waitForFunction(
      (first) =>
        document.querySelector("#feed tr[data-message-id]")?.getAttribute("data-message-id") ===
        first,
      small.message_id,
    );
    assert.deepEqual(
      await feedIds(page),
      [small, refunded, moving, large].map((t) => t.message_id),
    );
    // DAI among USDC: the order is said to be by number alone.
    assert.match(
      (await page.locator("#feed-note").textContent()) ?? "",
      /Ordered by the number alone: amounts of different tokens \(DAI, USDC\)/,
    );
    // The size select asks for that many.
    await page.selectOption("#page-size-select", "25");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("size") === "25");
    await page.waitForFunction(() => true);
    await page.waitForTimeout(500);
    assert.ok(latest.includes("?limit=25"), latest.join(" "));

    // A new transfer arrives by the stream, highlighted; the columns keep their widths although
    // its amount is far longer than any before.
    const widths = () =>
      page
        .locator("#feed thead th")
        .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
    const before = await widths();
    const arriving = makeTransfer({
      ...onRoute,
      send_amount: "123456789012.123456789012345678",
      receive_amount: "123456789011.5",
      start_time: utcText(NOW - 5),
    });
    await api.store.transfers.upsertTransfers([arriving]);
    await page.locator(`#feed tr.row-new[data-message-id="${arriving.message_id}"]`).waitFor();
    assert.deepEqual(await widths(), before, "column widths do not jump");
    page.off("request", count);
  });

  it("behavior: list controls are hidden on a transfer page", async () => {
    await page.goto(`${api.baseUrl}/transfer/${small.message_id}`);
    await page.locator("#transfer-status").waitFor();
    assert.equal(await page.locator("#list-controls").isVisible(), false);
    assert.equal(await page.locator("#sort-select").isVisible(), false);
    assert.equal(await page.locator("#quote").isVisible(), false);
  });

  it("behavior: a transfer's hashes and addresses link to a search and the block explorer, and copy exactly", async () => {
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: api.baseUrl,
    });
    await page.goto(`${api.baseUrl}/transfer/${small.message_id}`);
    await page.locator("#transfer-status").waitFor();
    const from = page.locator(".parties .detail", { hasText: "From" });
    assert.equal(await from.locator("a.search-link").getAttribute("href"), `/?q=${ALICE}`);
    assert.equal(
      await from.locator("a.explorer-link").getAttribute("href"),
      `${fakeBlockExplorer("alpha")}/address/${ALICE}`,
    );
    const to = page.locator(".parties .detail", { hasText: "To" }).last();
    assert.equal(
      await to.locator("a.explorer-link").getAttribute("href"),
      `${fakeBlockExplorer("beta")}/address/${BOB}`,
    );
    const destTx = page.locator(".parties .detail", { hasText: "Destination transaction" });
    assert.equal(
      await destTx.locator("a.explorer-link").getAttribute("href"),
      `${fakeBlockExplorer("beta")}/tx/${small.dest_tx_hash}`,
    );
    assert.equal(await destTx.locator("a.explorer-link").getAttribute("target"), "_blank");
    for (const [row, value] of [
      [from, ALICE],
      [page.locator(".parties .detail", { hasText: "Message id" }), small.message_id],
      [destTx, small.dest_tx_hash],
    ] as const) {
      await row.locator("button.copy-button").click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value);
    }
    assert.equal(
      await page.locator("#copy-status").textContent(),
      "Copied destination transaction hash",
    );
    // A click on a search link searches that address.
    await from.locator("a.search-link").click();
    await page.waitForURL(`**/?q=${ALICE}`);
    await page.locator("#transfers tbody tr[data-message-id]").first().waitFor();
    // The list marks each transfer In or Out for the searched address.
    const marks = await page
      .locator("#transfers tbody tr")
      .evaluateAll((rows) =>
        Object.fromEntries(
          rows.map((r) => [
            r.getAttribute("data-message-id"),
            r.querySelector(".dir")?.textContent,
          ]),
        ),
      );
    assert.equal(marks[small.message_id], "Out");
    assert.equal(marks[large.message_id], "In");
  });

  it("default: a refunded transfer shows the Refunded stage, nothing received, and why the refund is in another token", async () => {
    await page.goto(`${api.baseUrl}/transfer/${refunded.source_tx_hash}`);
    await page.locator('.step[data-step="refunded"]').waitFor();
    assert.equal(await page.locator("#transfer-status").textContent(), "Refunded");
    assert.equal(
      await page.locator('.step[data-step="refunded"] .step-amount .amount').textContent(),
      "39.96 USDC",
    );
    assert.equal(
      await page.locator(".step-note").textContent(),
      "Refunded in USDC, the bridge's token on alpha, not the DAI sent: the DAI was swapped into USDC before bridging, and a failed transfer returns what the bridge held.",
    );
    assert.match(
      (await page.locator(".amount-received").textContent()) ?? "",
      /^— \(nothing was delivered/,
    );
    // Blocks link to the chain's block explorer.
    assert.equal(
      await page.locator('.step[data-step="failed"] .step-block a').getAttribute("href"),
      `${fakeBlockExplorer("beta")}/block/9`,
    );
    assert.equal(await page.title(), "Transfer Refunded · bridge-oracle explorer");
  });

  it("behavior: the protocol badge reads the record's protocol field, reference when absent", async () => {
    await page.route("**/api/oracle/bridge-transactions/latest?*", async (route: Route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.data[0].protocol = "cctp";
      body.data.data[1].protocol = "layerzero-oft";
      await route.fulfill({ response, json: body });
    });
    await page.goto(`${api.baseUrl}/?size=25`);
    await page.locator("#feed tr[data-protocol=cctp]").waitFor();
    const badges = await page
      .locator("#feed .badge-protocol")
      .evaluateAll((nodes) => nodes.map((n) => n.textContent));
    assert.deepEqual(badges.slice(0, 3), ["CCTP", "LayerZero OFT", "Reference"]);
    await page.unroute("**/api/oracle/bridge-transactions/latest?*");
  });

  it("behavior: while the API is slow the pages show placeholders of their final shape; nothing moves when answers arrive", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/oracle/**", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${api.baseUrl}/`);
    await page.locator("#feed tr.skeleton-row").first().waitFor();
    assert.equal(await page.locator("#stats .stat-loading").count(), 5);
    assert.equal(await page.locator("#feed-status").textContent(), "Loading the latest transfers…");
    const amount = page.locator("#quote-form [name=amount]");
    const sourceChain = page.locator("#quote-form [name=sourceChain]");
    assert.equal(await sourceChain.isDisabled(), true);
    assert.equal(await sourceChain.textContent(), "Loading chains…");
    // The user types before the lists arrive: kept, and the lists still arrive.
    await amount.fill("12.5");
    const boxBefore = await page.locator("#quote-form").boundingBox();
    const amountBefore = await amount.boundingBox();
    release();
    await page.locator("#quote-form select[name=sourceChain]:enabled").waitFor();
    await page.locator("#feed tr[data-message-id]").first().waitFor();
    assert.equal(await amount.inputValue(), "12.5");
    const boxAfter = await page.locator("#quote-form").boundingBox();
    const amountAfter = await amount.boundingBox();
    assert.equal(boxAfter?.height, boxBefore?.height, "the form keeps its height");
    assert.equal(
      (amountAfter?.y ?? 0) - (boxAfter?.y ?? 0),
      (amountBefore?.y ?? 0) - (boxBefore?.y ?? 0),
      "the amount field stays in place",
    );
    await page.unroute("**/api/oracle/**");

    // The transfer page: its head and a timeline placeholder first.
    let releaseTimeline!: () => void;
    const timelineReleased = new Promise<void>((resolve) => {
      releaseTimeline = resolve;
    });
    await page.route("**/timeline", async (route) => {
      await timelineReleased;
      await route.continue();
    });
    await page.goto(`${api.baseUrl}/transfer/${small.message_id}`);
    await page.locator(".step-skeleton").waitFor();
    assert.equal(await page.locator("#transfer-title").textContent(), "Transfer");
    releaseTimeline();
    await page.locator("#transfer-status").waitFor();
    assert.equal(await page.locator(".step-skeleton").count(), 0);
    await page.unroute("**/timeline");
  });

  it("behavior: the dark theme follows prefers-color-scheme and passes axe-core", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    try {
      for (const [path, ready] of [
        ["/", "#feed tr[data-message-id]"],
        [`/transfer/${refunded.message_id}`, '.step[data-step="refunded"]'],
      ] as const) {
        await page.goto(`${api.baseUrl}${path}`);
        await page.locator(ready).first().waitFor();
        const colours = await page.evaluate(() => ({
          background: getComputedStyle(document.documentElement).backgroundColor,
          text: getComputedStyle(document.body).color,
        }));
        assert.deepEqual(colours, { background: "rgb(15, 19, 26)", text: "rgb(230, 233, 239)" });
        await assertNoSeriousAxeViolations(page, `${path} in the dark theme`);
      }
    } finally {
      await page.emulateMedia({ colorScheme: "light" });
    }
    await page.goto(`${api.baseUrl}/`);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
      "rgb(246, 247, 249)",
    );
  });

  it("behavior: at 390 px nothing scrolls sideways and every control is at least 24 x 24 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [name, path, ready] of [
        ["home", "/", "#feed tr[data-message-id]"],
        ["search", `/?q=${ALICE}`, "#transfers tr[data-message-id]"],
        ["transfer", `/transfer/${refunded.message_id}`, '.step[data-step="refunded"]'],
      ] as const) {
        await page.goto(`${api.baseUrl}${path}`);
        await page.locator(ready).first().waitFor();
        await page
          .locator("#quote-form select[name=sourceChain]:enabled, #transfer-status")
          .first()
          .waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(
          width <= 390,
          `${name}: ${width} px wide: ${(await overflowing(page)).join(", ")}`,
        );
        assert.deepEqual(await smallTargets(page), [], `${name}: controls under 24 px`);
        if (name === "transfer") {
          // No hover on a phone: a tap shows a time's exact UTC value, another the relative one.
          const time = page.locator(".transfer-route time");
          const relative = await time.textContent();
          await time.click();
          assert.match((await time.textContent()) ?? "", /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
          await time.click();
          assert.equal(await time.textContent(), relative);
        } else {
          // Compact cards: at least three transfers on a phone's screen.
          const card = await page.locator(`${ready}`).first().boundingBox();
          assert.ok((card?.height ?? 999) <= 140, `${name}: a card is ${card?.height} px tall`);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("behavior: JSON, JavaScript and CSS come compressed; an unchanged feed is a 304", async () => {
    const encodings = new Map<string, string | undefined>();
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      encodings.set(path, response.headers()["content-encoding"]);
    });
    await page.goto(`${api.baseUrl}/?size=25`);
    await page.locator("#feed tr[data-message-id]").first().waitFor();
    await page.locator("#stats .stat-total").waitFor();
    for (const path of ["/", "/app.js", "/styles.css", "/api/oracle/bridge-transactions/latest"]) {
      assert.equal(encodings.get(path), "br", `${path} is sent with br`);
    }

    const url = `${api.baseUrl}/api/oracle/bridge-transactions/latest?limit=25`;
    const identity = await fetch(url, { headers: { "accept-encoding": "identity" } });
    const plain = await identity.text();
    assert.equal(identity.headers.get("content-encoding"), null);
    const gzip = await fetch(url, { headers: { "accept-encoding": "gzip" } });
    assert.equal(gzip.headers.get("content-encoding"), "gzip");
    assert.equal(await gzip.text(), plain, "the same JSON, decompressed");
    assert.match(String(gzip.headers.get("vary")), /accept-encoding/i);
    const etag = identity.headers.get("etag");
    assert.match(String(etag), /^W\/"/);
    assert.equal(gzip.headers.get("etag"), etag);
    const again = await fetch(url, { headers: { "if-none-match": String(etag) } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), "");
    await api.store.transfers.upsertTransfers([makeTransfer({ start_time: utcText(NOW - 1) })]);
    const changed = await fetch(url, { headers: { "if-none-match": String(etag) } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);

    // Swagger UI's bundle is compressed too (about 1.7 MB as shipped).
    const bundle = await rawGet(`${api.baseUrl}/docs/static/swagger-ui-bundle.js`, "br");
    assert.equal(bundle.encoding, "br");
    assert.ok(bundle.bytes < 600_000, `swagger-ui-bundle.js is ${bundle.bytes} bytes on the wire`);
  });
});
