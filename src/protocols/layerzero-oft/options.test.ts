import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  buildExecutorOptions,
  composeGasOf,
  decodeExecutorOptions,
  LayerZeroOptionsError,
} from "./options.js";

describe("LayerZero type-3 executor options", () => {
  it("default: lzReceive 200000 is OptionsBuilder's well-known encoding", () => {
    // OptionsBuilder.newOptions().addExecutorLzReceiveOption(200000, 0), as LayerZero documents it.
    assert.equal(
      buildExecutorOptions({ lzReceive: { gas: 200_000n } }),
      "0x00030100110100000000000000000000000000030d40",
    );
    assert.equal(buildExecutorOptions({}), "0x0003");
  });

  it("behavior: lzCompose is worker 1, size 19 (34 with a value), type 3, uint16 index, uint128 gas [uint128 value]", () => {
    assert.equal(
      buildExecutorOptions({ lzCompose: [{ index: 0, gas: 500_000n }] }),
      `0x0003${"01" + "0013" + "03" + "0000" + "0000000000000000000000000007a120"}`,
    );
    assert.equal(
      buildExecutorOptions({
        lzReceive: { gas: 65_000n, value: 1n },
        lzCompose: [{ index: 2, gas: 1n, value: 3n }],
      }),
      `0x0003${"01" + "0021" + "01" + "0000000000000000000000000000fde8" + "00000000000000000000000000000001"}${
        "01" +
        "0023" +
        "03" +
        "0002" +
        "00000000000000000000000000000001" +
        "00000000000000000000000000000003"
      }`,
    );
  });

  it("behavior: decoding gives back what was built, for any gases, values and indexes", () => {
    const u128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    fc.assert(
      fc.property(
        fc.option(fc.record({ gas: u128, value: u128 }), { nil: undefined }),
        fc.array(
          fc.record({ index: fc.integer({ min: 0, max: 0xffff }), gas: u128, value: u128 }),
          {
            maxLength: 3,
          },
        ),
        (lzReceive, lzCompose) => {
          const decoded = decodeExecutorOptions(
            buildExecutorOptions({ ...(lzReceive === undefined ? {} : { lzReceive }), lzCompose }),
          );
          // fast-check's records have no prototype: compared as plain objects.
          assert.deepEqual(decoded.lzReceive, lzReceive === undefined ? null : { ...lzReceive });
          assert.deepEqual(
            decoded.lzCompose,
            lzCompose.map((o) => ({ ...o })),
          );
        },
      ),
    );
  });

  it("behavior: DVN options are skipped, empty options give nothing, compose gas per index is summed", () => {
    // A DVN precrime option (worker 2, size 2, dvnIdx 0, type 1) between two executor options.
    const options =
      `${buildExecutorOptions({ lzCompose: [{ index: 0, gas: 10n }] })}020002${"00"}01${buildExecutorOptions({ lzCompose: [{ index: 0, gas: 5n }] }).slice(6)}` as const;
    const decoded = decodeExecutorOptions(options);
    assert.equal(composeGasOf(decoded), 15n);
    assert.equal(composeGasOf(decoded, 1), null);
    assert.deepEqual(decodeExecutorOptions("0x"), {
      lzReceive: null,
      lzCompose: [],
      nativeDrops: [],
      orderedExecution: false,
    });
  });

  it("error: legacy types, truncated options and out-of-range values are refused", () => {
    assert.throws(() => decodeExecutorOptions("0x0001"), LayerZeroOptionsError);
    assert.throws(() => decodeExecutorOptions("0x000301001101"), LayerZeroOptionsError);
    assert.throws(
      () => buildExecutorOptions({ lzReceive: { gas: 1n << 128n } }),
      LayerZeroOptionsError,
    );
    assert.throws(
      () => buildExecutorOptions({ lzCompose: [{ index: 65_536, gas: 1n }] }),
      LayerZeroOptionsError,
    );
  });
});
