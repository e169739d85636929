/**
 * TRUST_PROXY behind a reverse proxy: the rate limit counts the address the proxy appended to
 * X-Forwarded-For, never an entry the client wrote itself, whether the proxies are given by
 * number or by address; without TRUST_PROXY the header is ignored.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { loadConfig } from "../../src/config/env.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { buildTestApp } from "./setup.js";

const PROXY = "203.0.113.7";
const CLIENT = "198.51.100.1";

describe("TRUST_PROXY and the rate limit", () => {
  let db: IsolatedDatabase;
  let store: Store;
  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    store = await createStore({ databaseUrl: db.databaseUrl });
  });
  after(async () => {
    await store.close();
    await db.cleanup();
  });

  /** Status codes of `count` list requests from CLIENT through the proxy, each with a new forged entry. */
  async function statuses(trustProxy: string | undefined, count: number): Promise<number[]> {
    const { app } = await buildTestApp(store, {
      config: loadConfig({ LOG_LEVEL: "silent", TRUST_PROXY: trustProxy }),
      plugins: [(root) => registerRateLimit(root, { anonymousPerMinute: 3, keyPerMinute: 0 })],
    });
    try {
      const out: number[] = [];
      for (let i = 0; i < count; i++) {
        const response = await app.inject({
          url: "/api/oracle/bridge-transactions?addressOrTxHash=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&pageNo=1&pageSize=10",
          remoteAddress: PROXY,
          // What the client wrote, then what the proxy appended (the client's real address).
          headers: { "x-forwarded-for": `10.9.${i}.1, ${CLIENT}` },
        });
        out.push(response.statusCode);
      }
      return out;
    } finally {
      await app.close();
    }
  }

  it("error: forged X-Forwarded-For entries do not escape the limit (one proxy by number or by address)", async () => {
    // Regression: TRUST_PROXY=true took the left-most entry, so every forged entry was a fresh
    // client address with a fresh budget.
    assert.deepEqual(await statuses("1", 5), [200, 200, 200, 429, 429]);
    assert.deepEqual(await statuses(PROXY, 5), [200, 200, 200, 429, 429]);
    assert.deepEqual(await statuses("203.0.113.0/24", 5), [200, 200, 200, 429, 429]);
  });

  it("error: text that is not an address (more hops trusted than there are proxies) counts as the socket", async () => {
    // TRUST_PROXY=2 with one proxy: the client's own entry is taken; not an IP, so the bucket
    // is the socket's address, not the client's text (which was a fresh bucket per request).
    const { app } = await buildTestApp(store, {
      config: loadConfig({ LOG_LEVEL: "silent", TRUST_PROXY: "2" }),
      plugins: [(root) => registerRateLimit(root, { anonymousPerMinute: 2, keyPerMinute: 0 })],
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await app.inject({
          url: "/api/oracle/bridge-transactions?addressOrTxHash=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&pageNo=1&pageSize=10",
          remoteAddress: PROXY,
          headers: { "x-forwarded-for": `not-an-ip-${i}` },
        });
        codes.push(response.statusCode);
      }
      assert.deepEqual(codes, [200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it("default: without TRUST_PROXY the header is ignored and the proxy's address is counted", async () => {
    assert.deepEqual(await statuses(undefined, 4), [200, 200, 200, 429]);
  });
});
