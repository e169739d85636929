/**
 * The client package against the whole service on a devnet (stack.ts): getQuote, executeQuote
 * (approval when the allowance is short, none when it covers the amount or for the native coin)
 * and waitForTransfer to Success with the recipient credited receive_amount; errors as
 * BridgeOracleError with the service's code, msg and status; a 429 whose Retry-After
 * waitForTransfer honours (the anonymous limit here is 3 requests per 2 s window).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseUnits,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import {
  type BridgeOracleClient,
  BridgeOracleError,
  type BridgeTransaction,
  createClient,
  executeQuote,
  type QuoteRequest,
} from "../../packages/client/src/index.js";
import type { ManifestAccount, ManifestChain } from "../../src/devnet/manifest.js";
import { type ClientStack, startClientStack } from "./stack.js";

const WINDOW_MS = 2000;

describe("client package on the devnet", { timeout: 120_000 }, () => {
  let stack: ClientStack;
  let client: BridgeOracleClient;
  let alpha: ManifestChain;
  let beta: ManifestChain;
  /** The source transaction of the first test's transfer, settled. */
  let settledHash: Hex | undefined;

  before(async () => {
    stack = await startClientStack({ anonymousPerWindow: 3, rateLimitWindowMs: WINDOW_MS });
    client = createClient({ baseUrl: stack.url, apiKey: stack.key });
    [alpha, beta] = stack.manifest.chains as [ManifestChain, ManifestChain];
  });
  after(() => stack?.stop());

  const tokenOf = (chain: ManifestChain, symbol: string): Address =>
    symbol === "ETH" ? zeroAddress : chain.tokens.find((t) => t.symbol === symbol)!.address;

  function clientsOf(chain: ManifestChain, account: ManifestAccount) {
    const viemChain = defineChain({
      id: chain.chainId,
      name: chain.name,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    return {
      walletClient: createWalletClient({
        account: privateKeyToAccount(account.privateKey),
        chain: viemChain,
        transport: http(chain.rpcUrl),
        pollingInterval: 50,
      }),
      publicClient: createPublicClient({
        chain: viemChain,
        transport: http(chain.rpcUrl),
        pollingInterval: 50,
      }),
    };
  }

  async function balanceOf(chain: ManifestChain, token: Address, owner: Address) {
    const { publicClient } = clientsOf(chain, stack.manifest.accounts[0]!);
    if (token === zeroAddress) return publicClient.getBalance({ address: owner });
    return publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
    });
  }

  function request(sourceSymbol: string, destSymbol: string, amount: string): QuoteRequest {
    return {
      sourceChain: String(alpha.chainId),
      sourceToken: tokenOf(alpha, sourceSymbol),
      destChain: String(beta.chainId),
      destToken: tokenOf(beta, destSymbol),
      amount,
      to: privateKeyToAddress(generatePrivateKey()),
    };
  }

  /** Quotes, executes from `account`, waits; returns the settled record and what it took. */
  async function bridgeAndSettle(account: ManifestAccount, body: QuoteRequest) {
    const quote = await client.getQuote(body);
    const clients = clientsOf(alpha, account);
    const nonceBefore = await clients.publicClient.getTransactionCount({
      address: clients.walletClient.account.address,
    });
    const hash = await executeQuote({ ...clients, quote });
    const nonceAfter = await clients.publicClient.getTransactionCount({
      address: clients.walletClient.account.address,
    });
    const updates: BridgeTransaction[] = [];
    const requests: { path: string; status: number; type: string }[] = [];
    const watcher = createClient({
      baseUrl: stack.url,
      apiKey: stack.key,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const type = response.headers.get("content-type") ?? "";
        requests.push({ path: new URL(input).pathname, status: response.status, type });
        return response;
      },
    });
    const transfer = await watcher.waitForTransfer(hash, {
      onUpdate: (t) => updates.push(t),
      timeoutMs: 60_000,
      pollIntervalMs: 200,
    });
    return { quote, hash, transfer, updates, requests, transactions: nonceAfter - nonceBefore };
  }

  it("default: getQuote, executeQuote (approval + bridge) and waitForTransfer settle a token transfer", async () => {
    const body = request("DAI", "DAI", "25");
    const { quote, hash, transfer, updates, requests, transactions } = await bridgeAndSettle(
      stack.manifest.accounts[1]!,
      body,
    );
    assert.notEqual(quote.approval, null);
    assert.equal(transactions, 2, "an approval, then the bridge call");
    assert.equal(transfer.status, "Success");
    settledHash = hash;
    assert.equal(transfer.source_tx_hash, hash.toLowerCase());
    assert.equal(transfer.to_address.toLowerCase(), body.to.toLowerCase());
    assert.ok(updates.length >= 1 && updates.at(-1) === transfer, "onUpdate saw the final record");
    const received = parseUnits(transfer.receive_amount, transfer.dest_token_decimals);
    assert.ok(
      received >= parseUnits(quote.destMinAmount, transfer.dest_token_decimals),
      "received >= parseUnits(quote.destMinAmount, transfer.dest_token_decimals)",
    );
    assert.equal(await balanceOf(beta, body.destToken as Address, body.to as Address), received);
    // Where the server has the transfer stream (its OpenAPI document lists it) the change came
    // through it, after one list read; where it has none, through polling the list.
    const document = (await (await fetch(`${stack.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const streams = requests.filter((r) => r.path.endsWith("/stream"));
    const lists = requests.filter((r) => !r.path.endsWith("/stream"));
    if ("/api/oracle/bridge-transactions/stream" in document.paths) {
      assert.ok(
        streams.length >= 1 && streams.every((r) => r.status === 200),
        JSON.stringify(streams),
      );
      assert.ok(
        streams[0]!.type.startsWith("text/event-stream"),
        'streams[0]!.type.startsWith("text/event-stream")',
      );
      assert.equal(lists.length, streams.length, "one list read per stream opened, no polling");
    } else {
      assert.deepEqual(
        streams.map((r) => r.status),
        [404],
      );
      assert.ok(lists.length >= 1, "lists.length >= 1");
    }
  });

  it("behavior: no approval is sent when the allowance already covers the amount", async () => {
    const account = stack.manifest.accounts[2]!;
    const body = request("DAI", "DAI", "10");
    const quote = await client.getQuote(body);
    const clients = clientsOf(alpha, account);
    const approve = await clients.walletClient.writeContract({
      address: body.sourceToken as Address,
      abi: erc20Abi,
      functionName: "approve",
      args: [quote.signData.bridge as Address, maxUint256],
    });
    await clients.publicClient.waitForTransactionReceipt({ hash: approve });
    const before = await clients.publicClient.getTransactionCount({ address: account.address });
    const hash = await executeQuote({ ...clients, quote });
    assert.equal(
      await clients.publicClient.getTransactionCount({ address: account.address }),
      before + 1,
    );
    const receipt = await clients.publicClient.getTransactionReceipt({ hash });
    assert.equal(receipt.to?.toLowerCase(), quote.signData.bridge.toLowerCase());
    // Sent with the estimate plus half (withGasMargin), not the bare estimate (about gasUsed).
    const sent = await clients.publicClient.getTransaction({ hash });
    assert.ok(
      sent.gas * 10n >= receipt.gasUsed * 14n,
      `gas limit ${sent.gas} leaves a margin over gas used ${receipt.gasUsed}`,
    );
  });

  it("behavior: the native coin needs no approval; the transfer settles", async () => {
    const body = request("ETH", "DAI", "0.5");
    const { quote, transfer, transactions } = await bridgeAndSettle(
      stack.manifest.accounts[3]!,
      body,
    );
    assert.equal(quote.approval, null);
    assert.equal(transactions, 1);
    assert.equal(transfer.status, "Success");
  });

  it("default: chains, tokens and connections describe what getQuote can quote", async () => {
    const chains = await client.chains();
    assert.deepEqual(
      chains.map((c) => [c.chainId, c.name]),
      [
        [alpha.chainId, "alpha"],
        [beta.chainId, "beta"],
      ],
    );
    const tokens = await client.tokens({ chainId: String(alpha.chainId) });
    const dai = tokens.find((t) => t.symbol === "DAI");
    assert.equal(dai?.address, tokenOf(alpha, "DAI"));
    assert.ok(
      tokens.every((t) => t.chainId === alpha.chainId),
      "tokens.every((t) => t.chainId === alpha.chainId)",
    );
    // A chain id as chains() gives it, a number, is taken as well as its string.
    assert.deepEqual(await client.tokens({ chainId: alpha.chainId }), tokens);
    const [connection] = await client.connections({
      sourceChain: alpha.chainId,
      destChain: String(beta.chainId),
    });
    assert.ok(
      connection !== undefined && connection.bridges.length > 0,
      "connection !== undefined && connection.bridges.length > 0",
    );
    await assert.rejects(client.tokens({ chainId: "1" }), (error) => {
      assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
      assert.equal(error.code, 40001);
      assert.match(error.msg, /chainId/);
      return true;
    });
  });

  it("error: a quote on another chain than the publicClient's is refused before sending", async () => {
    const quote = await client.getQuote(request("DAI", "DAI", "5"));
    await assert.rejects(
      executeQuote({ ...clientsOf(beta, stack.manifest.accounts[4]!), quote }),
      /the quote is to be sent on chain 71001, the publicClient is on chain 71002/,
    );
  });

  it("error: API errors are BridgeOracleError with the service's code, msg and status", async () => {
    const anonymous = createClient({ baseUrl: stack.url });
    await assert.rejects(anonymous.getQuote(request("DAI", "DAI", "1")), (error) => {
      assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
      assert.equal(error.status, 401);
      assert.equal(error.code, 40101);
      assert.match(error.msg, /key/i);
      assert.match(error.requestId ?? "", /./);
      return true;
    });
    await assert.rejects(client.getQuote(request("DAI", "DAI", "-1")), (error) => {
      assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
      assert.equal(error.status, 400);
      assert.equal(error.code, 40001);
      assert.match(error.msg, /amount/);
      return true;
    });
    const nowhere = createClient({ baseUrl: "http://127.0.0.1:9" });
    await assert.rejects(nowhere.listTransfers({ addressOrTxHash: zeroAddress }), (error) => {
      assert.ok(error instanceof BridgeOracleError, "error instanceof BridgeOracleError");
      assert.equal(error.status, 0);
      assert.equal(error.code, -1);
      return true;
    });
  });

  it("behavior: a 429 carries retryAfter, and waitForTransfer waits that long before asking again", async () => {
    const hash = settledHash;
    assert.ok(hash !== undefined, "needs the first test's settled transfer");
    // The list requests (not a stream request, which a 429 turns into polling).
    const seen: { at: number; status: number; retryAfter: string | null }[] = [];
    const recording = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (!new URL(input).pathname.endsWith("/stream")) {
        seen.push({
          at: Date.now(),
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
        });
      }
      return response;
    };
    const anonymous = createClient({ baseUrl: stack.url, fetch: recording });
    /** Requests until one is refused; returns that refusal. */
    const spendBudget = async (): Promise<unknown> => {
      for (let i = 0; i < 10; i++) {
        const refused = await anonymous.listTransfers({ addressOrTxHash: hash }).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (refused !== undefined) return refused;
      }
      return undefined;
    };
    // A refusal, then its Retry-After: a new window has begun (Retry-After rounds up), with at
    // least a second of it left; its budget is spent at once, so waitForTransfer's first
    // request, a few milliseconds later, falls in the same window.
    const aligned = await spendBudget();
    assert.ok(
      aligned instanceof BridgeOracleError && aligned.retryAfter !== undefined,
      "aligned instanceof BridgeOracleError && aligned.retryAfter !== undefined",
    );
    await new Promise((resolve) => setTimeout(resolve, aligned.retryAfter! * 1000));
    const limited = await spendBudget();
    assert.ok(limited instanceof BridgeOracleError, "the anonymous limit was reached");
    assert.equal(limited.status, 429);
    assert.equal(limited.code, 42901);
    assert.ok(limited.retryAfter !== undefined && limited.retryAfter >= 1, "retryAfter seconds");
    // Still inside the same window: waitForTransfer's first request is refused too.
    const first = seen.length;
    const transfer = await anonymous.waitForTransfer(hash, { pollIntervalMs: 10 });
    assert.equal(transfer.status, "Success");
    const mine = seen.slice(first);
    const refusal = mine.findIndex((s) => s.status === 429);
    assert.ok(refusal >= 0, `waitForTransfer met a 429: ${JSON.stringify(mine)}`);
    const refused = mine[refusal]!;
    const next = mine[refusal + 1]!;
    assert.equal(next.status, 200);
    assert.ok(
      next.at - refused.at >= Number(refused.retryAfter) * 1000 - 50,
      `asked again ${next.at - refused.at} ms after a 429 with Retry-After ${refused.retryAfter}`,
    );
  });
});
