import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../errors.js";
import { quoteFailureToApiError } from "./create-router.js";
import { createRouterFixture } from "./fixtures.js";
import { isEvmAddress, validateRouterRequest } from "./validate-request.js";

const f = createRouterFixture();
const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const valid = {
  sourceChain: "71001",
  sourceToken: f.token("alpha", "USDC").address,
  destChain: "71002",
  destToken: f.token("beta", "ETH").address,
  amount: "12.5",
  to: TO,
};

function failure(body: unknown): { kind: string; message: string } {
  const result = validateRouterRequest(body, f.registry);
  assert.ok(!result.ok, "expected a failure");
  return { kind: result.kind, message: result.message };
}

describe("validateRouterRequest", () => {
  it("default: resolves chains, tokens and the amount in base units", () => {
    const result = validateRouterRequest(valid, f.registry);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.value.sourceChain.name, "alpha");
    assert.equal(result.value.destChain.name, "beta");
    assert.equal(result.value.sourceToken, f.token("alpha", "USDC"));
    assert.equal(result.value.destToken.native, true);
    assert.equal(result.value.amount, 12_500_000n);
    assert.deepEqual(result.value.request, valid);
  });

  it("behavior: addresses match case-insensitively and are kept exactly as sent", () => {
    const lower = { ...valid, sourceToken: valid.sourceToken.toLowerCase(), to: TO.toLowerCase() };
    const result = validateRouterRequest({ ...lower, extra: 1 }, f.registry);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.value.request.sourceToken, lower.sourceToken);
    assert.equal(result.value.request.to, lower.to);
    assert.deepEqual(Object.keys(result.value.request).sort(), Object.keys(valid).sort());
    assert.ok(
      validateRouterRequest({ ...valid, amount: "0012.50000" }, f.registry).ok,
      'validateRouterRequest({ ...valid, amount: "0012.50000" }, f.registry).ok',
    );
  });

  it("error: the body and every field must be present strings (40001)", () => {
    assert.deepEqual(failure([]), {
      kind: "invalidBody",
      message: "the body must be a JSON object",
    });
    assert.deepEqual(failure(null).kind, "invalidBody");
    const { amount: _omit, ...noAmount } = valid;
    assert.deepEqual(failure(noAmount), {
      kind: "invalidParameter",
      message: "amount is required",
    });
    assert.deepEqual(failure({ ...valid, destChain: 71002 }), {
      kind: "invalidParameter",
      message: "destChain must be a string",
    });
  });

  it("error: chain ids are numeric strings of two different chains (40001)", () => {
    assert.match(
      failure({ ...valid, sourceChain: "alpha" }).message,
      /^sourceChain must be a chain id: a numeric string of 1 to 20 digits/,
    );
    assert.match(failure({ ...valid, destChain: "" }).message, /^destChain must be a chain id/);
    assert.deepEqual(failure({ ...valid, destChain: "071001" }), {
      kind: "invalidParameter",
      message: "destChain must differ from sourceChain",
    });
  });

  it("error: token addresses and `to` must be EVM addresses (40001)", () => {
    assert.deepEqual(failure({ ...valid, destToken: "0x1234" }), {
      kind: "invalidParameter",
      message: "destToken must be an address: 0x followed by 40 hex digits",
    });
    const badChecksum = TO.replace("C51812dc3A", "c51812Dc3a");
    assert.match(
      failure({ ...valid, to: badChecksum }).message,
      /^to has a mixed-case address with a wrong EIP-55 checksum/,
    );
    assert.match(failure({ ...valid, to: `${TO} ` }).message, /^to must be an address/);
    assert.equal(
      failure({ ...valid, to: "0x0000000000000000000000000000000000000000" }).message,
      "to must not be the zero address",
    );
  });

  it("error: amount format, zero, precision and size (40001, naming the rule)", () => {
    for (const amount of ["1e6", "-1", "1.", ".5", " 1", "1,5", ""]) {
      assert.match(
        failure({ ...valid, amount }).message,
        /^amount must be a decimal string/,
        amount,
      );
    }
    assert.equal(
      failure({ ...valid, amount: "0.000" }).message,
      "amount must be greater than zero",
    );
    assert.deepEqual(failure({ ...valid, amount: "1.1234567" }), {
      kind: "invalidParameter",
      message: "amount has 7 fractional digits; the token has 6 decimals (USDC)",
    });
    assert.ok(
      validateRouterRequest({ ...valid, amount: "1.123450" }, f.registry).ok,
      'validateRouterRequest({ ...valid, amount: "1.123450" }, f.registry).ok',
    );
    // Trailing zeros are digits too (docs/http-api.md, API rule 1: no more fractional digits than
    // decimals).
    assert.deepEqual(failure({ ...valid, amount: "1.1000000" }), {
      kind: "invalidParameter",
      message: "amount has 7 fractional digits; the token has 6 decimals (USDC)",
    });
    assert.equal(
      failure({ ...valid, amount: "9".repeat(80) }).message,
      "amount is too large for a uint256 in base units",
    );
  });

  it("error: unknown chains and tokens are unsupported (42201)", () => {
    assert.deepEqual(failure({ ...valid, sourceChain: "1" }), {
      kind: "noRoute",
      message:
        "sourceChain 1 is not supported; supported chains: 71001 (alpha), 71002 (beta), 71003 (gamma)",
    });
    assert.equal(failure({ ...valid, destChain: "99999999999999999999" }).kind, "noRoute");
    assert.deepEqual(failure({ ...valid, destToken: f.token("alpha", "ORC").address }), {
      kind: "noRoute",
      message: `destToken ${f.token("alpha", "ORC").address} is not a supported token on beta (71002)`,
    });
    // Format errors come before support errors.
    assert.equal(failure({ ...valid, sourceChain: "1", amount: "x" }).kind, "invalidParameter");
  });

  it("behavior: failures become ApiErrors with the codes of docs/http-api.md, API rule 6", () => {
    const unsupported = validateRouterRequest({ ...valid, sourceChain: "1" }, f.registry);
    assert.ok(!unsupported.ok, "!unsupported.ok");
    const error = quoteFailureToApiError(unsupported);
    assert.ok(error instanceof ApiError, "error instanceof ApiError");
    assert.equal(error.code, 42201);
    assert.equal(error.status, 422);
    const bad = validateRouterRequest({ ...valid, amount: "0" }, f.registry);
    assert.ok(!bad.ok, "!bad.ok");
    assert.equal(quoteFailureToApiError(bad).code, 40001);
  });
});

describe("isEvmAddress", () => {
  it("default: one-case or correctly checksummed", () => {
    assert.equal(isEvmAddress(TO), true);
    assert.equal(isEvmAddress(TO.toLowerCase()), true);
    assert.equal(isEvmAddress(`0x${TO.slice(2).toUpperCase()}`), true);
    assert.equal(isEvmAddress(TO.replace("C5", "c5")), false);
    assert.equal(isEvmAddress(`0X${TO.slice(2)}`), false);
  });
});
