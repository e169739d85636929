import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { addressKey, amountSortKey, hashKey } from "./transfer-keys.js";

function numericCompare(a: string, b: string): number {
  const scale = (s: string) => {
    const [w = "0", f = ""] = s.split(".");
    return BigInt(w + f.padEnd(40, "0"));
  };
  const x = scale(a);
  const y = scale(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const canonicalAmount = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 30 }))
  .map(([units, decimals]) => {
    const digits = units.toString().padStart(decimals + 1, "0");
    const whole = digits.slice(0, digits.length - decimals);
    const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
    return fraction ? `${whole}.${fraction}` : whole;
  });

describe("amountSortKey", () => {
  it("default: byte order of keys is numeric order", () => {
    const ordered = ["", "0", "0.000001", "0.5", "1", "9.5", "10", "10.000000000000000001", "100"];
    const keys = ordered.map(amountSortKey);
    assert.deepEqual([...keys].sort(), keys);
  });

  it("behavior: any two canonical amounts compare like their values (property)", () => {
    fc.assert(
      fc.property(canonicalAmount, canonicalAmount, (a, b) => {
        const ka = amountSortKey(a);
        const kb = amountSortKey(b);
        assert.equal(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0), numericCompare(a, b));
      }),
    );
  });

  it("behavior: non-canonical input gets the key of its canonical form", () => {
    assert.equal(amountSortKey("001.500"), amountSortKey("1.5"));
  });
});

describe("lookup keys", () => {
  it("default: EVM addresses and 32-byte hashes are lowercased, anything else kept", () => {
    assert.equal(
      addressKey("0xAbCdEf0123456789abcdef0123456789ABCDEF01"),
      "0xabcdef0123456789abcdef0123456789abcdef01",
    );
    assert.equal(addressKey("So1anaAddress"), "So1anaAddress");
    assert.equal(hashKey(`0x${"AB".repeat(32)}`), `0x${"ab".repeat(32)}`);
    assert.equal(hashKey("0xABCD"), "0xABCD");
  });
});
