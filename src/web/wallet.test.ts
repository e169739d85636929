import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
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
}) {
  const calls: string[] = [];
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
  return { provider, calls };
}

const run = (provider: Eip1193Provider, q: ExecutableQuote, now = Date.UTC(2026, 10, 26, 12)) =>
  bridgeWithWallet({
    provider,
    quote: q,
    chain: { chainId: 71001, name: "alpha" },
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
    assert.ok(!native.calls.includes("eth_call"));
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
    assert.ok(!poor.calls.includes("eth_sendTransaction"));
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

  it("behavior: only quotes with a transactionRequest can be bridged", () => {
    assert.equal(executableQuote({ fee: "1" }), undefined);
    assert.equal(executableQuote(quote())?.transactionRequest.to, BRIDGE);
  });
});
