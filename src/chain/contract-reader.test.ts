/** failure(): a thrown read as one line, reverted or not, the RPC URL's secrets masked. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ContractFunctionExecutionError,
  ContractFunctionZeroDataError,
  HttpRequestError,
  parseAbi,
} from "viem";
import { failure } from "./contract-reader.js";

const URL_WITH_KEY = "https://user:hunter22@rpc.example.org/v3/0123456789abcdef0123?apikey=k3yk3y";

describe("contract reader failure()", () => {
  it("behavior: a call with no such function is a revert, not an RPC failure", () => {
    const error = new ContractFunctionExecutionError(
      new ContractFunctionZeroDataError({ functionName: "endpoint" }),
      {
        abi: parseAbi(["function endpoint() view returns (address)"]),
        functionName: "endpoint",
        contractAddress: "0x0000000000000000000000000000000000000001",
      },
    );
    assert.deepEqual(failure(error, "endpoint()", URL_WITH_KEY, 1000), {
      ok: false,
      reverted: true,
      error: "endpoint() reverted or returned no data",
    });
  });

  it("error: an HTTP failure names the status, one line, no secret of the URL", () => {
    const error = new HttpRequestError({
      url: URL_WITH_KEY,
      status: 401,
      details: `unauthorized for ${URL_WITH_KEY}`,
      body: { method: "eth_chainId" },
    });
    const result = failure(error, "eth_chainId", URL_WITH_KEY, 1000);
    assert.equal(result.ok, false, "a failure");
    assert.equal(result.ok === false && result.reverted, false, "not a revert");
    const text = result.ok ? "" : result.error;
    assert.match(text, /^eth_chainId failed: HTTP 401: HTTP request failed: unauthorized for /);
    assert.ok(!text.includes("\n"), "one line");
    for (const secret of ["hunter22", "0123456789abcdef0123", "k3yk3y", "user:"]) {
      assert.ok(!text.includes(secret), `${secret} masked in ${text}`);
    }
  });

  it("error: a timeout says the bound", () => {
    const error = Object.assign(new Error("The request took too long to respond."), {
      name: "TimeoutError",
    });
    const result = failure(error, "eth_getCode(0x01)", URL_WITH_KEY, 2500);
    assert.deepEqual(result, {
      ok: false,
      reverted: false,
      error: "eth_getCode(0x01): no answer within 2500 ms",
    });
  });
});
