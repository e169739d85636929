import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { encodePacked, type Hex, keccak256, pad, toHex } from "viem";
import {
  addressToBytes32,
  bytes32ToAddress,
  computeGuid,
  decodeOftMessage,
  decodePacket,
  encodeOftMessage,
  encodePacket,
  LayerZeroDecodeError,
} from "./packet.js";

const bytes = (length: number) =>
  fc.uint8Array({ minLength: length, maxLength: length }).map((b) => toHex(b));

/** A packet's header: what the guid is computed from. */
const header = fc.record({
  nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  srcEid: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  sender: bytes(32),
  dstEid: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  receiver: bytes(32),
});

describe("LayerZero packets and OFT messages", () => {
  it("default: a packet's fields sit at PacketV1Codec's offsets", () => {
    const sender = pad("0x1111111111111111111111111111111111111111", { size: 32 });
    const receiver = pad("0x2222222222222222222222222222222222222222", { size: 32 });
    const guid = `0x${"ab".repeat(32)}` as Hex;
    const packet = {
      nonce: 7n,
      srcEid: 40101,
      sender,
      dstEid: 40102,
      receiver,
      guid,
      message: "0xdead",
    } as const;
    const encoded = encodePacket(packet);
    // version 01 | nonce 0000000000000007 | srcEid 00009ca5 | sender | dstEid 00009ca6 | receiver | guid | message
    assert.equal(encoded.slice(0, 2 + 2 + 16 + 8), "0x01000000000000000700009ca5");
    assert.equal(encoded.length, 2 + 2 * (113 + 2));
    assert.deepEqual(decodePacket(encoded), { version: 1, ...packet });
  });

  it("behavior: encode and decode are inverse for any packet", () => {
    fc.assert(
      fc.property(
        header,
        bytes(32),
        fc.uint8Array({ maxLength: 120 }).map((b) => toHex(b)),
        (fields, guid, message) => {
          const packet = { ...fields, guid, message };
          assert.deepEqual(decodePacket(encodePacket(packet)), { version: 1, ...packet });
        },
      ),
    );
  });

  it("default: the guid is keccak256 of nonce, srcEid, sender, dstEid, receiver packed (GUID.generate)", () => {
    fc.assert(
      fc.property(header, (fields) => {
        const { nonce, srcEid, sender, dstEid, receiver } = fields;
        const expected = keccak256(
          encodePacked(
            ["uint64", "uint32", "bytes32", "uint32", "bytes32"],
            [nonce, srcEid, sender, dstEid, receiver],
          ),
        );
        assert.equal(computeGuid({ nonce, srcEid, sender, dstEid, receiver }), expected);
      }),
    );
  });

  it("behavior: OFT messages round-trip with and without compose", () => {
    fc.assert(
      fc.property(
        bytes(32),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.option(
          fc.record({
            from: bytes(32),
            message: fc.uint8Array({ maxLength: 64 }).map((b) => toHex(b)),
          }),
          {
            nil: undefined,
          },
        ),
        (sendTo, amountSD, compose) => {
          // fast-check records have a null prototype; the decoder returns plain objects.
          const message =
            compose === undefined
              ? { sendTo, amountSD }
              : { sendTo, amountSD, compose: { ...compose } };
          const encoded = encodeOftMessage(message);
          assert.equal(
            encoded.length,
            2 + 2 * (40 + (compose === undefined ? 0 : 32 + (compose.message.length - 2) / 2)),
          );
          assert.deepEqual(decodeOftMessage(encoded), message);
        },
      ),
    );
  });

  it("behavior: addresses and bytes32 convert both ways, checksummed", () => {
    const address = "0x52908400098527886E0F7030069857D2E4169EE7";
    assert.equal(bytes32ToAddress(addressToBytes32(address)), address);
  });

  it("error: short or unknown-version packets and short OFT messages are refused", () => {
    assert.throws(() => decodePacket("0x01"), LayerZeroDecodeError);
    assert.throws(() => decodePacket(`0x02${"00".repeat(112)}`), /unknown packet version 2/);
    assert.throws(() => decodeOftMessage(`0x${"00".repeat(39)}`), /at least 40 bytes/);
    assert.throws(() => decodeOftMessage(`0x${"00".repeat(41)}`), /at least 72 bytes/);
  });
});
