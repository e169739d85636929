import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DevnetManifest } from "../devnet/manifest.js";
import { demoQuoteBody, formatBanner } from "./banner.js";

const TOKEN_A = "0x00000000000000000000000000000000000000a1";
const TOKEN_B = "0x00000000000000000000000000000000000000b2";
const manifest = {
  chains: [
    { name: "alpha", chainId: 71001, rpcUrl: "http://127.0.0.1:1" },
    { name: "beta", chainId: 71002, rpcUrl: "http://127.0.0.1:2" },
  ],
  links: [
    { kind: 1, sourceChainId: 71001, sourceToken: TOKEN_B, destChainId: 71002, destToken: TOKEN_B },
    { kind: 0, sourceChainId: 71001, sourceToken: TOKEN_A, destChainId: 71002, destToken: TOKEN_B },
  ],
  accounts: [
    { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
    { address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" },
  ],
} as unknown as DevnetManifest;

/** formatBanner of a fresh devnet on `manifest`, with `over` changed. */
const banner = (over: Partial<Parameters<typeof formatBanner>[0]> = {}) =>
  formatBanner({
    url: "http://127.0.0.1:8080",
    manifest,
    demoKey: "bo_KEY",
    demoKeyKept: false,
    demoKeyFile: "/x/.devnet/state/demo-key",
    restored: false,
    freshReason: "no saved devnet yet",
    trafficPerMinute: 30,
    databaseUrl: "./data/bridge-oracle.db",
    devnetDir: "/x/.devnet",
    ...over,
  });

describe("start banner", () => {
  it("default: explorer, API, docs, key and both curls", () => {
    const text = banner();
    assert.match(text, /fresh devnet \(no saved devnet yet\)/);
    assert.match(text, /explorer\s+http:\/\/127\.0\.0\.1:8080\/\n/);
    assert.match(text, /http:\/\/127\.0\.0\.1:8080\/docs/);
    assert.match(text, /^ {2}bo_KEY$/m);
    assert.match(
      text,
      /curl -s "http:\/\/127\.0\.0\.1:8080\/api\/oracle\/bridge-transactions\?addressOrTxHash=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC&pageNo=1&pageSize=10"/,
    );
    assert.match(text, /-H "Authorization: bo_KEY"/);
  });

  it("behavior: the quote is the first chain's kind-0 link, to another devnet user", () => {
    assert.deepEqual(demoQuoteBody(manifest), {
      sourceChain: "71001",
      sourceToken: TOKEN_A,
      destChain: "71002",
      destToken: TOKEN_B,
      amount: "25",
      to: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    });
  });

  it("behavior: a DATABASE_URL or directory with spaces or quotes is shell-quoted, so the line pastes", () => {
    const restored = { restored: true, freshReason: undefined };
    const text = banner({
      ...restored,
      databaseUrl: "/home/me/my data/it's.db",
      devnetDir: "/home/me/my data/.devnet",
    });
    assert.match(
      text,
      / {2}data {7}DATABASE_URL='\/home\/me\/my data\/it'\\''s\.db', devnet state in '\/home\/me\/my data\/\.devnet'\n/,
    );
    const plain = banner({
      ...restored,
      databaseUrl: "postgres://postgres@db.local:5432/oracle?sslmode=require",
    });
    assert.match(
      plain,
      /DATABASE_URL='postgres:\/\/postgres@db\.local:5432\/oracle\?sslmode=require', devnet state in \/x\/\.devnet\n/,
    );
  });
});
