/**
 * Regenerates the explorer's screenshots in docs/img (docs/explorer.md shows them): home,
 * a transfer (failed, then refunded in the bridge token), a quote and the wallet flow's
 * "Submitted" page, each at 1280 px and at 390 px (a phone), in the light theme, plus the home
 * page in the dark theme. `npm run screenshots`.
 *
 * It runs the real API over a throwaway SQLite store with made-up transfers and the router
 * fixture (test/web/explorer-harness.ts), and headless Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium). The wallet is a stub announced by EIP-6963 that approves everything and
 * answers a made-up transaction hash, so the flow ends on the page a user sees right after
 * sending: the hash is not indexed yet.
 */
import { spawnSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { utcText } from "../src/api/transfer-summary.js";
import type { BridgeTransaction } from "../src/store/types.js";
import { evmAddress, makeTransfer } from "../test/setup/transfer-fixtures.js";
import {
  launchChromium,
  startExplorerApi,
  storeFailedAndRefunded,
} from "../test/web/explorer-harness.js";

const OUT = "docs/img";
const NOW = Math.floor(Date.now() / 1000);
const WIDTHS = { desktop: 1280, phone: 390 } as const;

const ALICE = evmAddress("screenshots-alice");
const BOB = evmAddress("screenshots-bob");
const bridge = (chain: string) => evmAddress(`screenshots-bridge-${chain}`);

function transfer(i: number, overrides: Partial<BridgeTransaction>): BridgeTransaction {
  return makeTransfer({
    source_chain_name: "alpha",
    dest_chain_name: "beta",
    source_contract: bridge("alpha"),
    dest_contract: bridge("beta"),
    start_time: utcText(NOW - 60 * i - 20),
    end_time: utcText(NOW - 60 * i),
    from_address: i % 2 === 0 ? ALICE : BOB,
    to_address: i % 2 === 0 ? BOB : ALICE,
    ...overrides,
  });
}

const records: BridgeTransaction[] = [
  transfer(0, { status: "Processing", receive_amount: "", end_time: "", dest_tx_hash: "" }),
  transfer(1, { send_amount: "250", receive_amount: "249.62", min_receive_amount: "249.5" }),
  transfer(2, {
    source_chain_name: "beta",
    dest_chain_name: "gamma",
    send_amount: "1200.5",
    source_token_symbol: "DAI",
    receive_amount: "1199.3",
    dest_token_symbol: "DAI",
    fee_symbol: "DAI",
  }),
  transfer(3, { status: "Failed", send_amount: "1500.25", receive_amount: "0" }),
  transfer(4, { send_amount: "20.493790701908068847", receive_amount: "20.47" }),
  transfer(5, { source_chain_name: "gamma", dest_chain_name: "alpha", send_amount: "75" }),
];
const failed = records[3] as BridgeTransaction;

/** The stub wallet (runs in the page): approves everything, answers made-up hashes. */
function installStubWallet(account: string): void {
  let chainId = "0x1155a"; // 71002: the wallet starts on beta, the quote's source is alpha
  const word = `0x${"f".repeat(64)}`;
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      switch (method) {
        case "eth_requestAccounts":
          return [account];
        case "eth_chainId":
          return chainId;
        case "wallet_switchEthereumChain":
          chainId = (params as [{ chainId: string }])[0].chainId;
          return null;
        case "eth_call":
          return word;
        case "eth_getBalance":
          return "0xffffffffffffffffffff";
        case "eth_sendTransaction":
          return `0x${"5e".repeat(32)}`;
        case "eth_getTransactionReceipt":
          return { status: "0x1" };
        default:
          throw { code: 4200, message: `${method} is not supported by the stub` };
      }
    },
  };
  window.addEventListener("eip6963:requestProvider", () => {
    window.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", {
        detail: Object.freeze({
          info: { uuid: "stub-0000", name: "Demo wallet", icon: "data:,", rdns: "demo.wallet" },
          provider,
        }),
      }),
    );
  });
}

/**
 * Makes a PNG small: 256 colours with pngquant when it is installed (apt-get install pngquant),
 * which keeps text sharp at a third of the size; as Chromium wrote it otherwise.
 */
function shrink(path: string): void {
  const run = spawnSync("pngquant", ["--force", "--skip-if-larger", "--output", path, "256", path]);
  if (run.error !== undefined && !warned) {
    warned = true;
    process.stderr.write("pngquant not found: the images stay as Chromium wrote them (larger)\n");
  }
}
let warned = false;

async function shoot(
  page: Page,
  name: string,
  area: { fullPage?: boolean; height?: number } = {},
): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  const path = `${OUT}/${name}.png`;
  const width = page.viewportSize()?.width ?? 1280;
  await page.screenshot({
    path,
    ...(area.height === undefined
      ? { fullPage: area.fullPage ?? false }
      : { clip: { x: 0, y: 0, width, height: area.height } }),
  });
  shrink(path);
  process.stdout.write(`${path}\n`);
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const api = await startExplorerApi(records, { blockExplorers: true, liveClock: true });
  storeFailedAndRefunded(api.databaseUrl, {
    transfer: failed,
    source: { chainId: 71001, name: "alpha", bridge: bridge("alpha") },
    dest: { chainId: 71002, name: "beta", bridge: bridge("beta") },
    blocks: [140, 77, 151],
    times: [NOW - 200, NOW - 188, NOW - 170],
    reason: "slippage: would receive less than the minimum",
    refund: { token: failed.fee_address, amount: "1498500000" },
  });
  const browser = await launchChromium();
  try {
    await browser.context.addInitScript(installStubWallet, ALICE);
    for (const [label, width] of Object.entries(WIDTHS)) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: label === "phone" ? 844 : 900 });
      await page.goto(`${api.baseUrl}/`);
      await page.locator("#feed tbody tr[data-message-id]").first().waitFor();
      await page.locator("#stats .stat-total").waitFor();
      await shoot(page, `home-${label}`);

      await page.goto(`${api.baseUrl}/transfer/${failed.message_id}`);
      await page.locator('.step[data-step="refunded"]').waitFor();
      await shoot(page, `transfer-${label}`, { fullPage: true });

      await page.goto(`${api.baseUrl}/#quote`);
      await page.locator("#quote-form select[name=destToken]:enabled").waitFor();
      const { router } = api;
      await page.selectOption("#quote-form [name=sourceChain]", "71001");
      await page.selectOption(
        "#quote-form [name=sourceToken]",
        router.token("alpha", "DAI").address,
      );
      await page.selectOption("#quote-form [name=destChain]", "71002");
      await page.selectOption("#quote-form [name=destToken]", router.token("beta", "USDC").address);
      await page.fill("#quote-form [name=amount]", "250");
      await page.fill("#quote-form [name=to]", BOB);
      await page.fill("#quote-form [name=apiKey]", api.apiKey);
      await page.click("#quote-form button[type=submit]");
      await page.locator("#quote-result .bridge-button").waitFor();
      await page.locator("#quote").screenshot({ path: `${OUT}/quote-${label}.png` });
      shrink(`${OUT}/quote-${label}.png`);
      process.stdout.write(`${OUT}/quote-${label}.png\n`);

      await page.click("#quote-result .bridge-button");
      await page.waitForURL("**/transfer/0x*");
      await page.locator('.step[data-step="submitted"]').waitFor();
      await shoot(page, `wallet-submitted-${label}`, { height: label === "phone" ? 480 : 320 });
      await page.close();
    }
    const dark = await browser.context.newPage();
    await dark.emulateMedia({ colorScheme: "dark" });
    await dark.setViewportSize({ width: 1280, height: 900 });
    await dark.goto(`${api.baseUrl}/transfer/${failed.message_id}`);
    await dark.locator('.step[data-step="refunded"]').waitFor();
    await shoot(dark, "transfer-dark");
  } finally {
    await browser.close();
    await api.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
