/**
 * Swagger UI at /docs in headless Chromium against the real API (auth, router fixture, SQLite):
 * "Authorize" with an API key, then "Try it out" on the router and the list sends the key in
 * `Authorization` and gets 200, so the document's security scheme works for the people who read
 * it in the UI. Without the key the router answers 401 40101 there.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Locator, Page } from "playwright-core";
import { PARAMS_FIELDS } from "../router/quote-relations.js";
import { evmAddress, makeTransfer } from "../setup/transfer-fixtures.js";
import {
  type Browser,
  type ExplorerHarness,
  launchChromium,
  startExplorerApi,
} from "./explorer-harness.js";

const ALICE = evmAddress("docs-ui-alice");

interface Sent {
  authorization: string | undefined;
  status: number;
  body: { code: number };
}

describe("/docs (Swagger UI): Authorize and Try it out", () => {
  let api: ExplorerHarness;
  let browser: Browser;

  before(async () => {
    api = await startExplorerApi([makeTransfer({ from_address: ALICE })]);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await api?.close();
  });

  /** Runs the operation's "Try it out" and returns the request it sent and the answer. */
  async function tryItOut(
    page: Page,
    operation: Locator,
    fill: (operation: Locator) => Promise<void>,
  ): Promise<Sent> {
    await operation.locator(".opblock-summary").click();
    await operation.getByRole("button", { name: "Try it out" }).click();
    await fill(operation);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/api/oracle/")),
      operation.getByRole("button", { name: "Execute" }).click(),
    ]);
    return {
      authorization: response.request().headers()["authorization"],
      status: response.status(),
      body: (await response.json()) as { code: number },
    };
  }

  const quoteBody = () => ({
    sourceChain: String(api.router.chain("alpha").chainId),
    sourceToken: api.router.token("alpha", "USDC").address,
    destChain: String(api.router.chain("beta").chainId),
    destToken: api.router.token("beta", "USDC").address,
    amount: "10",
    to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });
  const router = (page: Page) => page.locator("#operations-router-getQuote");
  const fillQuote = (operation: Locator) =>
    operation.locator("textarea.body-param__text").fill(JSON.stringify(quoteBody()));

  it("behavior: the key from Authorize reaches the router and the list", async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${api.baseUrl}/docs`);
      await page
        .getByRole("button", { name: /Authorize/ })
        .first()
        .click();
      const modal = page.locator(".modal-ux");
      await modal.locator("input").first().fill(api.apiKey);
      await modal.locator("button.authorize").click();
      await modal.getByRole("button", { name: "Close" }).click();

      const quote = await tryItOut(page, router(page), fillQuote);
      assert.equal(quote.authorization, api.apiKey);
      assert.equal(quote.status, 200, JSON.stringify(quote.body));
      assert.equal(quote.body.code, 0);

      const list = page.locator("#operations-bridge_transactions-listTransfers");
      const listed = await tryItOut(page, list, async (operation) => {
        await operation.locator('tr[data-param-name="addressOrTxHash"] input').fill(ALICE);
        await operation.locator('tr[data-param-name="pageNo"] input').fill("1");
        await operation.locator('tr[data-param-name="pageSize"] input').fill("10");
      });
      assert.equal(listed.authorization, api.apiKey);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.code, 0);
    } finally {
      await page.close();
    }
  });

  it("default: our name, favicon and a link back to the explorer instead of Fastify's branding", async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${api.baseUrl}/docs`);
      const back = page.locator("#swagger-ui .topbar a.back-to-explorer");
      await back.waitFor();
      assert.equal(await page.title(), "bridge-oracle API");
      assert.equal(await back.getAttribute("href"), "/");
      assert.equal(await back.textContent(), "← Explorer");
      const logo = page.locator("#swagger-ui .topbar a.link img");
      await logo.waitFor();
      const src = (await logo.getAttribute("src")) ?? "";
      const svg = Buffer.from(
        src.replace(/^data:image\/svg\+xml;base64,/, ""),
        "base64",
      ).toString();
      assert.match(svg, /bridge-oracle API/);
      assert.doesNotMatch(svg, /fastify/i);
      assert.equal(
        await page
          .locator('link[rel="icon"]')
          .evaluateAll((links) => links.map((l) => l.getAttribute("href")?.split("/").pop()))
          .then((names) => names.join(",")),
        "favicon.svg",
      );
      await back.click();
      await page.waitForURL(`${api.baseUrl}/`);
      await page.locator("#feed").waitFor();
    } finally {
      await page.close();
    }
  });

  it("default: the schemas of params' decoded object and of /readyz's data render", async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    // The names in a rendered model's property rows (a required one ends in "*").
    const propertyNames = async (model: Locator) =>
      (await model.locator("tr.property-row > td:first-child").allTextContents()).map((name) =>
        name.replace(/\*$/, ""),
      );
    try {
      await page.goto(`${api.baseUrl}/docs`);
      // The component x-contentSchema points to, with its fourteen fields in order.
      const model = page.locator("#model-RouteQuoteParams");
      await model.locator(".model-box-control").first().click();
      await model.locator("tr.property-row").first().waitFor();
      assert.deepEqual(await propertyNames(model), PARAMS_FIELDS);
      // /readyz's 200 schema: data with the router's and the indexer's keys.
      const readyz = page.locator("#operations-health-readyz");
      await readyz.locator(".opblock-summary").click();
      const success = readyz.locator('tr.response[data-code="200"]');
      await success.getByRole("tab", { name: "Schema" }).click();
      const data = success
        .locator("tr.property-row")
        .filter({ has: page.locator("td:first-child", { hasText: /^data\*?$/ }) });
      await data.locator(".model-box-control").first().click();
      await data.locator("tr.property-row").first().waitFor();
      assert.deepEqual(await propertyNames(data), ["status", "database", "router", "indexer"]);
      // No resolver or rendering error (an unresolved $ref would show here).
      assert.equal(await page.locator(".swagger-ui .errors-wrapper").count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it("error: without Authorize the router answers 401 40101 in the UI", async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${api.baseUrl}/docs`);
      const quote = await tryItOut(page, router(page), fillQuote);
      assert.equal(quote.authorization, undefined);
      assert.equal(quote.status, 401);
      assert.equal(quote.body.code, 40101);
    } finally {
      await page.close();
    }
  });
});
