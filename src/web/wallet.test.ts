import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type BridgeChain,
  bridgeWithWallet,
  type Eip1193Provider,
  type ExecutableQuote,
  executableQuote,
} from "./wallet.js";
import { walletErrorMessage } from "./wallet-errors.js";

const ACCOUNT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const BRIDGE = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;

function quote(overrides: Partial<ExecutableQuote> = {}): ExecutableQuote {
  return {
    transactionRequest: { chainId: 71001, to: BRIDGE, data: "0x1234", value: "0x0" },
    approval: {
      token: TOKEN,
      spender: BRIDGE,
      amount: "10",
      transactionRequest: {
        chainId: 71001,
        to: TOKEN,
        data: `0x095ea7b3${word(0n).slice(2)}${word(10_000_000n).slice(2)}`,
        value: "0x0",
      },
    },
    expiresAt: "2026-11-26 12:00:30",
    ...overrides,
  };
}

/** A wallet answering from `state`; every call is recorded. */
function fakeWallet(state: {
  chainId: number;
  tokenBalance: bigint;
  allowance: bigint;
  native: bigint;
  known?: number[];
  /** wallet_addEthereumChain: switch to the added chain too (MetaMask does; EIP-3085 may). */
  switchOnAdd?: boolean;
  /** wallet_addEthereumChain: refuse with this error instead. */
  addError?: unknown;
}) {
  const calls: string[] = [];
  const added: unknown[] = [];
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push(method);
      switch (method) {
        case "eth_requestAccounts":
          return [ACCOUNT];
        case "eth_chainId":
          return `0x${state.chainId.toString(16)}`;
        case "wallet_switchEthereumChain": {
          const wanted = Number((params as { chainId: string }[])[0]?.chainId);
          if (!(state.known ?? [71001, 71002]).includes(wanted)) throw { code: 4902, message: "?" };
          state.chainId = wanted;
          return null;
        }
        case "wallet_addEthereumChain": {
          if (state.addError !== undefined) throw state.addError;
          const chain = (params as { chainId: string }[])[0];
          added.push(chain);
          state.known = [...(state.known ?? []), Number(chain?.chainId)];
          if (state.switchOnAdd) state.chainId = Number(chain?.chainId);
          return null;
        }
        case "eth_call": {
          const data = (params as { data: string }[])[0]?.data ?? "";
          return word(data.startsWith("0x70a08231") ? state.tokenBalance : state.allowance);
        }
        case "eth_getBalance":
          return `0x${state.native.toString(16)}`;
        case "eth_sendTransaction":
          return `0x${"ab".repeat(32)}`;
        case "eth_getTransactionReceipt":
          return { status: "0x1" };
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  };
  return { provider, calls, added };
}

const run = (
  provider: Eip1193Provider,
  q: ExecutableQuote,
  now = Date.UTC(2026, 10, 26, 12),
  chain: BridgeChain = { chainId: 71001, name: "alpha" },
) =>
  bridgeWithWallet({
    provider,
    quote: q,
    chain,
    onStatus: () => undefined,
    now: () => now,
    sleep: async () => undefined,
  });

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return walletErrorMessage(error);
  }
  throw new Error("the flow did not refuse");
}

describe("bridging with a wallet", () => {
  it("default: switches chain, approves when the allowance is short, sends the bridge call", async () => {
    const wallet = fakeWallet({
      chainId: 71002,
      tokenBalance: 10n ** 9n,
      allowance: 0n,
      native: 10n ** 18n,
    });
    assert.equal(await run(wallet.provider, quote()), `0x${"ab".repeat(32)}`);
    const sends = wallet.calls.filter(
      (m) => m === "wallet_switchEthereumChain" || m === "eth_sendTransaction",
    );
    assert.deepEqual(sends, [
      "wallet_switchEthereumChain",
      "eth_sendTransaction",
      "eth_sendTransaction",
    ]);
  });

  it("behavior: an allowance that covers the amount skips the approval; the native coin has none", async () => {
    const wallet = fakeWallet({
      chainId: 71001,
      tokenBalance: 10n ** 9n,
      allowance: 10n ** 9n,
      native: 10n ** 18n,
    });
    await run(wallet.provider, quote());
    assert.equal(wallet.calls.filter((m) => m === "eth_sendTransaction").length, 1);
    const native = fakeWallet({
      chainId: 71001,
      tokenBalance: 0n,
      allowance: 0n,
      native: 10n ** 18n,
    });
    await run(
      native.provider,
      quote({
        approval: null,
        transactionRequest: { chainId: 71001, to: BRIDGE, data: "0x", value: "0x10" },
      }),
    );
    assert.ok(!native.calls.includes("eth_call"), '!native.calls.includes("eth_call")');
  });

  it("error: an expired quote, a small balance, too little native coin, an unknown chain", async () => {
    const rich = () =>
      fakeWallet({ chainId: 71001, tokenBalance: 10n ** 9n, allowance: 0n, native: 10n ** 18n });
    assert.match(
      await refusal(run(rich().provider, quote(), Date.UTC(2026, 10, 26, 12, 1))),
      /^This quote expired at 2026-11-26 12:00:30 UTC/,
    );
    const poor = fakeWallet({
      chainId: 71001,
      tokenBalance: 1n,
      allowance: 0n,
      native: 10n ** 18n,
    });
    assert.match(
      await refusal(run(poor.provider, quote())),
      /does not hold enough of the token .* needs 10\)/,
    );
    assert.ok(
      !poor.calls.includes("eth_sendTransaction"),
      '!poor.calls.includes("eth_sendTransaction")',
    );
    const noGas = fakeWallet({
      chainId: 71001,
      tokenBalance: 10n ** 9n,
      allowance: 10n ** 9n,
      native: 0n,
    });
    assert.match(
      await refusal(run(noGas.provider, quote())),
      /not have enough of the native coin on alpha \(71001\)/,
    );
    const unknown = fakeWallet({
      chainId: 5,
      tokenBalance: 0n,
      allowance: 0n,
      native: 0n,
      known: [5],
    });
    assert.match(
      await refusal(run(unknown.provider, quote())),
      /does not know alpha \(chain id 71001\)/,
    );
  });

  describe("a wallet that does not know the source chain", () => {
    const NOW = Date.UTC(2026, 10, 26, 12);
    const ALPHA: BridgeChain = {
      chainId: 71001,
      name: "alpha",
      nativeName: "Ether",
      nativeSymbol: "ETH",
      nativeDecimals: 18,
      rpcUrls: ["http://127.0.0.1:8545"],
    };
    const stranger = (extra: { switchOnAdd?: boolean; addError?: unknown } = {}) =>
      fakeWallet({
        chainId: 5,
        tokenBalance: 10n ** 9n,
        allowance: 0n,
        native: 10n ** 18n,
        known: [5],
        ...extra,
      });
    const changes = (calls: string[]) =>
      calls.filter((m) => m.startsWith("wallet_") || m === "eth_sendTransaction");

    it("behavior: is asked to add it with the published RPC URL, then switched, then bridges", async () => {
      const wallet = stranger();
      assert.equal(await run(wallet.provider, quote(), NOW, ALPHA), `0x${"ab".repeat(32)}`);
      assert.deepEqual(wallet.added, [
        {
          chainId: "0x11559",
          chainName: "alpha",
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: ["http://127.0.0.1:8545"],
        },
      ]);
      // This wallet adds without switching (EIP-3085 allows it): the flow switches again.
      assert.deepEqual(changes(wallet.calls), [
        "wallet_switchEthereumChain",
        "wallet_addEthereumChain",
        "wallet_switchEthereumChain",
        "eth_sendTransaction",
        "eth_sendTransaction",
      ]);
    });

    it("behavior: a wallet that switches when it adds is not asked to switch again", async () => {
      const wallet = stranger({ switchOnAdd: true });
      await run(wallet.provider, quote(), NOW, ALPHA);
      assert.deepEqual(changes(wallet.calls), [
        "wallet_switchEthereumChain",
        "wallet_addEthereumChain",
        "eth_sendTransaction",
        "eth_sendTransaction",
      ]);
    });

    it("error: no published RPC URL, or the user declines to add it; nothing is sent", async () => {
      const unpublished = stranger();
      assert.match(
        await refusal(run(unpublished.provider, quote(), NOW, { ...ALPHA, rpcUrls: [] })),
        /does not know alpha \(chain id 71001\) and this server publishes no RPC URL for it/,
      );
      assert.ok(
        !unpublished.calls.includes("wallet_addEthereumChain"),
        '!unpublished.calls.includes("wallet_addEthereumChain")',
      );
      const declined = stranger({ addError: { code: 4001, message: "User rejected" } });
      assert.equal(
        await refusal(run(declined.provider, quote(), NOW, ALPHA)),
        "You rejected the request in your wallet. Nothing was sent.",
      );
      assert.ok(
        !declined.calls.includes("eth_sendTransaction"),
        '!declined.calls.includes("eth_sendTransaction")',
      );
    });
  });

  it("behavior: only quotes with a transactionRequest can be bridged", () => {
    assert.equal(executableQuote({ fee: "1" }), undefined);
    assert.equal(executableQuote(quote())?.transactionRequest.to, BRIDGE);
  });
});
