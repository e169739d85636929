/**
 * Bridging from a browser wallet, end to end: a devnet (two anvil chains, the relayer, the
 * indexer, the real API with the router over the chains' live state) and headless Chromium with
 * an EIP-1193 wallet injected by the test. The wallet announces itself (EIP-6963), starts on
 * the wrong chain and does not know the source chain (4902 to the switch) until the page adds it
 * with the RPC URL the server publishes (GET /api/oracle/chains `rpcUrls`, the devnet's anvil
 * URL); it forwards everything else to the RPC URL it knows for its current chain (anvil, whose
 * accounts are unlocked, so eth_sendTransaction works). The test asks for a quote in the page,
 * bridges it (switch -> add chain -> switch -> approve -> bridge), follows the transfer page from
 * Processing to Success, and checks the amounts against the chain; a rejected request is shown
 * in plain words; the home feed takes transfers while traffic runs.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import { type Address, parseEventLogs } from "viem";
import { formatAmount as formatBaseUnits } from "../../src/amount.js";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { loadConfig } from "../../src/config/env.js";
import { createRelayer, type Relayer } from "../../src/devnet/protocols/reference/relayer.js";
import { createTrafficGenerator } from "../../src/devnet/protocols/reference/traffic.js";
import { parseRegistry } from "../../src/domain/registry.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createRouter } from "../../src/router/create-router.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
} from "../../src/router/providers/chain-state-provider.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { configOf, openTestIndexer, type TestIndexer } from "../indexer/helpers.js";
import {
  type ChainConnection,
  connectChain,
  setupDevnet,
  type TestDevnet,
} from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { assertNoSeriousAxeViolations } from "./axe.js";
import { type Browser, launchChromium } from "./explorer-harness.js";

const RESULTS_DIR = "test-results";

/**
 * The injected wallet (runs in the page): EIP-6963 announcement, chain switching, adding a chain
 * (without switching to it, as EIP-3085 allows), forwarding to the RPC URL it knows for its chain.
 */
function installTestWallet(setup: {
  account: string;
  chainId: string;
  known: Record<string, string>;
}) {
  const w = window as unknown as {
    __rpc(
      url: string,
      method: string,
      params: unknown,
    ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
    __walletCalls: string[];
    __logCall(method: string, params: unknown): Promise<void>;
    __rejectNext: boolean;
  };
  w.__walletCalls = [];
  w.__rejectNext = false;
  let chainId = setup.chainId;
  /** Chain id (hex) -> the RPC URL the wallet sends that chain's requests to. */
  const known = new Map(Object.entries(setup.known));
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      w.__walletCalls.push(method);
      void w.__logCall(method, params ?? null);
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [setup.account];
      if (method === "eth_chainId") return chainId;
      if (method === "wallet_switchEthereumChain") {
        const wanted = (params as { chainId: string }[])[0]?.chainId ?? "";
        if (!known.has(wanted)) throw { code: 4902, message: "Unrecognized chain ID" };
        chainId = wanted;
        return null;
      }
      if (method === "wallet_addEthereumChain") {
        const chain = (params as { chainId: string; rpcUrls: string[] }[])[0];
        const url = chain?.rpcUrls[0];
        if (chain === undefined || url === undefined) throw { code: -32602, message: "no rpcUrls" };
        known.set(chain.chainId, url);
        return null;
      }
      if (method === "eth_sendTransaction" && w.__rejectNext) {
        w.__rejectNext = false;
        throw { code: 4001, message: "User rejected the request." };
      }
      const url = known.get(chainId);
      if (url === undefined) throw { code: 4901, message: "chain not connected" };
      const answer = await w.__rpc(url, method, params ?? []);
      if (answer.error !== undefined) throw answer.error;
      return answer.result;
    },
  };
  window.addEventListener("eip6963:requestProvider", () => {
    window.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", {
        detail: Object.freeze({
          info: { uuid: "7e57-0000", name: "Test wallet", icon: "data:,", rdns: "test.wallet" },
          provider,
        }),
      }),
    );
  });
}

describe("bridging from a browser wallet on the devnet", () => {
  let devnet: TestDevnet;
  let db: IsolatedDatabase;
  let store: Database;
  let indexer: TestIndexer;
  const stopIndexer = new AbortController();
  let indexing: Promise<void>;
  let relayer: Relayer;
  let provider: ChainStateProvider;
  let app: FastifyInstance;
  let baseUrl: string;
  let apiKey: string;
  let browser: Browser;
  let page: Page;
  let alpha: ChainConnection;
  let beta: ChainConnection;
  let user: Address;
  /** The wallet methods the page called, across page loads. */
  const walletCalls: string[] = [];
  /** The params of every wallet_addEthereumChain the page sent. */
  const addedChains: unknown[] = [];

  before(async () => {
    await mkdir(RESULTS_DIR, { recursive: true });
    devnet = await setupDevnet({ names: ["alpha", "beta"] });
    const { manifest } = devnet;
    alpha = connectChain(manifest, "alpha");
    beta = connectChain(manifest, "beta");
    user = manifest.accounts[0]!.address;
    db = await setupIsolatedDatabase("sqlite");
    store = await openDatabase(db.databaseUrl);
    indexer = await openTestIndexer(db.databaseUrl, configOf(manifest));
    indexing = indexer.indexer.run(stopIndexer.signal);
    // A delay before each delivery, so the transfer page shows Processing first.
    relayer = createRelayer({ manifest, delayMs: 2500, confirmations: 0, pollIntervalMs: 200 });
    await relayer.start();
    const registry = parseRegistry(manifest);
    provider = createChainStateProvider({ registry, maxStateAgeMs: 15_000, pollIntervalMs: 200 });
    await provider.start();
    const generated = generateApiKey();
    await store.apiKeys.createKey({ name: "wallet-test", ...generated, createdAt: new Date() });
    apiKey = generated.key;
    app = await buildApp({
      config: loadConfig({ LOG_LEVEL: "warn" }),
      store,
      logDestination: { write: () => undefined },
      plugins: [(root) => registerApiKeyAuth(root, { repository: store.apiKeys })],
      router: { router: createRouter({ registry }), state: provider, maxStateAgeMs: 15_000 },
    });
    baseUrl = await app.listen({ host: "127.0.0.1", port: 0 });

    browser = await launchChromium();
    const nodeUrls = new Set(manifest.chains.map((c) => c.rpcUrl));
    await browser.context.exposeFunction(
      "__rpc",
      async (url: string, method: string, params: unknown) => {
        if (!nodeUrls.has(url)) return { error: { code: -32603, message: `no node at ${url}` } };
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        return response.json();
      },
    );
    await browser.context.exposeFunction("__logCall", (method: string, params: unknown) => {
      walletCalls.push(method);
      if (method === "wallet_addEthereumChain") addedChains.push(params);
    });
    const betaId = `0x${beta.chain.chainId.toString(16)}`;
    await browser.context.addInitScript(installTestWallet, {
      account: user,
      // On the wrong chain, and alpha (the quotes' source) unknown: the flow must add it.
      chainId: betaId,
      known: { [betaId]: beta.chain.rpcUrl },
    });
    page = await browser.context.newPage();
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await provider?.stop();
    await relayer?.stop();
    stopIndexer.abort();
    await indexing?.catch(() => undefined);
    await indexer?.store.close();
    await store?.close();
    await db?.cleanup();
    await devnet?.cleanup();
  });

  async function fillQuote(amount: string): Promise<void> {
    await page.goto(`${baseUrl}/#quote`);
    await page.locator("#quote-form select[name=destToken]").waitFor();
    await page.selectOption("#quote-form [name=sourceChain]", String(alpha.chain.chainId));
    await page.selectOption("#quote-form [name=sourceToken]", alpha.token("USDC"));
    await page.selectOption("#quote-form [name=destChain]", String(beta.chain.chainId));
    await page.selectOption("#quote-form [name=destToken]", beta.token("USDC"));
    await page.fill("#quote-form [name=amount]", amount);
    await page.fill("#quote-form [name=to]", user);
    await page.fill("#quote-form [name=apiKey]", apiKey);
    await page.click("#quote-form button[type=submit]");
    await page.locator("#quote-result .bridge-button").waitFor();
  }

  it("default: quote -> add and switch chain -> approve -> bridge; the transfer page goes Processing then Success with the chain's amounts", async () => {
    const before = await beta.balanceOf(beta.token("USDC"), user);
    await fillQuote("125.5");
    await assertNoSeriousAxeViolations(page, "a quote with its bridge button");
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-quote-wallet.png`, fullPage: true });
    walletCalls.length = 0;
    // The indexer has not seen the transaction yet when the page opens: held back here until
    // the page has shown what a user who just sent funds must see.
    let indexed = false;
    await page.route(/\/timeline$/, (route) =>
      indexed
        ? route.continue()
        : route.fulfill({
            status: 404,
            json: { code: 40401, msg: "no transfer has it yet", data: null },
          }),
    );
    await page.click("#quote-result .bridge-button");
    await page.waitForURL(/\/transfer\/0x[0-9a-f]{64}\?submitted=\d+$/, { timeout: 30_000 });
    const submitted = page.locator('.step[data-step="submitted"]');
    await submitted.waitFor();
    assert.equal(
      await submitted.locator("h3").textContent(),
      "Submitted, waiting for the source chain",
    );
    assert.equal(await page.locator("#transfer-status").textContent(), "Submitted");
    assert.equal(await page.locator("#transfer-error").isHidden(), true, "no error shown");
    const sentHash = new URL(page.url()).pathname.split("/").pop();
    assert.equal(await submitted.locator(".copy-button").getAttribute("data-copy"), sentHash);
    assert.match((await submitted.locator(".step-tx").textContent()) ?? "", / on Alpha$/);
    await assertNoSeriousAxeViolations(page, "the submitted transfer");
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-wallet-submitted.png` });
    indexed = true;
    // alpha unknown (4902), added with the devnet's URL, switched to; then the approval and the
    // bridge transaction, sent through the URL the wallet was given.
    const changes = walletCalls.filter(
      (m) => m.startsWith("wallet_") || m === "eth_sendTransaction",
    );
    assert.deepEqual(changes, [
      "wallet_switchEthereumChain",
      "wallet_addEthereumChain",
      "wallet_switchEthereumChain",
      "eth_sendTransaction",
      "eth_sendTransaction",
    ]);
    assert.deepEqual(addedChains, [
      [
        {
          chainId: `0x${alpha.chain.chainId.toString(16)}`,
          chainName: "Alpha",
          nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
          rpcUrls: [alpha.chain.rpcUrl],
        },
      ],
    ]);
    assert.ok(
      alpha.chain.rpcUrl.startsWith("http://127.0.0.1:"),
      'alpha.chain.rpcUrl.startsWith("http://127.0.0.1:")',
    );
    const hash = new URL(page.url()).pathname.split("/").pop() as `0x${string}`;
    const receipt = await alpha.client.getTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    await page.locator("#transfer-status").waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      () => document.getElementById("transfer-status")?.textContent === "Processing",
      undefined,
      { timeout: 15_000 },
    );
    await page.locator('.step[data-step="pending"]').waitFor();
    await page.waitForFunction(
      () => document.getElementById("transfer-status")?.textContent === "Success",
      undefined,
      { timeout: 30_000 },
    );
    const received = (await beta.balanceOf(beta.token("USDC"), user)) - before;
    const decimals = beta.chain.tokens.find((t) => t.symbol === "USDC")!.decimals;
    assert.equal(
      await page.locator(".amount-received").getAttribute("data-exact"),
      `${formatBaseUnits(received, decimals)} USDC`,
    );
    const [sent] = parseEventLogs({
      abi: devnet.manifest.abis.bridge,
      logs: receipt.logs,
      eventName: "TransferSent",
    }) as unknown as { args: { sendAmount: bigint } }[];
    assert.ok(sent, "sent");
    const sourceDecimals = alpha.chain.tokens.find((t) => t.symbol === "USDC")!.decimals;
    assert.equal(
      await page.locator(".amount-sent").getAttribute("data-exact"),
      `${formatBaseUnits(sent.args.sendAmount, sourceDecimals)} USDC`,
    );
    const steps = await page
      .locator(".timeline .step")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-step")));
    assert.deepEqual(steps, ["sent", "delivered"]);
    await page.unroute(/\/timeline$/);
    await page.screenshot({ path: `${RESULTS_DIR}/explorer-wallet-transfer.png`, fullPage: true });
  });

  it("error: a request the user rejects in the wallet is said in plain words", async () => {
    await fillQuote("3");
    await page.evaluate(() => {
      (window as unknown as { __rejectNext: boolean }).__rejectNext = true;
    });
    await page.click("#quote-result .bridge-button");
    await page.locator("#quote-result .bridge-error").waitFor();
    assert.equal(
      await page.locator("#quote-result .bridge-error").textContent(),
      "You rejected the request in your wallet. Nothing was sent.",
    );
  });

  it("behavior: the home feed takes new transfers while traffic runs", async () => {
    const traffic = createTrafficGenerator({
      manifest: { ...devnet.manifest, accounts: devnet.manifest.accounts.slice(1) },
      perMinute: 600,
      seed: 26,
    });
    await page.goto(`${baseUrl}/`);
    // Rows with a message id: the placeholder rows shown while the feed loads have none.
    await page.locator("#feed tbody tr[data-message-id]").first().waitFor();
    const first = await page
      .locator("#feed tbody tr[data-message-id]")
      .first()
      .getAttribute("data-message-id");
    traffic.start();
    try {
      await page.waitForFunction(
        (id) => {
          const top = document.querySelector("#feed tbody tr")?.getAttribute("data-message-id");
          return top !== undefined && top !== null && top !== id;
        },
        first,
        { timeout: 20_000 },
      );
    } finally {
      await traffic.stop();
    }
    assert.match(
      (await page.locator("#feed-status").textContent()) ?? "",
      /new transfers?; updates live\.$/,
    );
  });
});
