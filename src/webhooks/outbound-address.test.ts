import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkWebhookUrl,
  ipv6Groups,
  isPrivateAddress,
  parseWebhookUrl,
  WebhookUrlError,
} from "./outbound-address.js";

describe("webhook outbound addresses", () => {
  it("behavior: private, loopback, link-local and reserved addresses are refused", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "not-an-address",
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
  });

  it("default: public addresses pass", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  // Issue #41: IPv6 forms that carry an IPv4 address are judged by that address. Each row:
  // [spelling, refused?]. The URL parser rewrites `::127.0.0.1` to `::7f00:1` before any check,
  // so both spellings of each form are listed.
  const EMBEDDED: readonly [string, boolean][] = [
    // ::/96 IPv4-compatible
    ["::127.0.0.1", true],
    ["::7f00:1", true],
    ["::a9fe:a9fe", true],
    ["::10.0.0.1", true],
    ["::c0a8:101", true],
    ["::8.8.8.8", false],
    ["::808:808", false],
    // ::ffff:0:0/96 IPv4-mapped
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["0:0:0:0:0:ffff:a9fe:a9fe", true],
    ["::ffff:172.16.5.4", true],
    ["::ffff:8.8.8.8", false],
    ["::ffff:808:808", false],
    // ::ffff:0:0:0/96 IPv4-translated (SIIT)
    ["::ffff:0:a9fe:a9fe", true],
    ["::ffff:0:127.0.0.1", true],
    ["::ffff:0:a00:1", true],
    ["::ffff:0:808:808", false],
    ["::ffff:0:1.1.1.1", false],
    // 64:ff9b::/96 NAT64 well-known prefix
    ["64:ff9b::a9fe:a9fe", true],
    ["64:ff9b::169.254.169.254", true],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b::c0a8:1", true],
    ["64:ff9b::808:808", false],
    ["64:ff9b::1.1.1.1", false],
    // 64:ff9b:1::/48 local-use NAT64: refused whatever it embeds
    ["64:ff9b:1::a9fe:a9fe", true],
    ["64:ff9b:1::808:808", true],
    ["64:ff9b:1:ffff::8.8.8.8", true],
    // 2002::/16 6to4: the IPv4 address at bits 16-47
    ["2002:7f00:1::", true],
    ["2002:a9fe:a9fe::1", true],
    ["2002:a00:1:1::1", true],
    ["2002:c0a8:101::", true],
    ["2002:808:808::1", false],
    ["2002:101:101:5::1", false],
    // 2001::/32 Teredo: server at bits 32-63, client inverted in the last 32 bits
    ["2001:0:7f00:1::", true], // server 127.0.0.1
    ["2001:0:a9fe:a9fe::", true], // server 169.254.169.254
    ["2001:0:808:808:8000:ffff:80ff:fffe", true], // client 127.0.0.1
    ["2001:0:808:808:0:0:5601:5601", true], // client 169.254.169.254
    ["2001:0:808:808:8000:ffff:f7f7:f7f7", false], // server 8.8.8.8, client 8.8.8.8
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", true], // RFC 4380's: client 192.0.2.45 (documentation)
    ["2001:0:4136:e378:8000:63bf:fefe:fefe", false], // server 65.54.227.120, client 1.1.1.1
    // plain IPv6: public and private ranges as before
    ["::", true],
    ["::1", true],
    ["fe80::1%eth0", true],
    ["fd12::1", true],
    ["ff02::1", true],
    ["2606:4700:4700::1111", false],
    ["2a00:1450:4001:80b::200e", false],
  ];

  it("behavior: IPv6 forms that embed an IPv4 address are judged by it (table)", () => {
    const wrong = EMBEDDED.filter(([address, refused]) => isPrivateAddress(address) !== refused);
    assert.deepEqual(wrong, []);
  });

  it("behavior: the embedded forms are refused in a webhook URL at creation, as the URL parser writes them", async () => {
    const resolve = async () => ["8.8.8.8"];
    for (const [address, refused] of EMBEDDED) {
      if (address.includes("%")) continue; // a zone is not allowed in a URL
      const value = `http://[${address}]:39443/`;
      const checked = checkWebhookUrl(value, { allowPrivateAddresses: false, resolve });
      if (refused) await assert.rejects(checked, WebhookUrlError, value);
      else await checked;
    }
  });

  it("behavior: a name that resolves to an embedding form is refused", async () => {
    for (const inside of ["::ffff:0:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"]) {
      await assert.rejects(
        checkWebhookUrl("https://rebind.example/h", {
          allowPrivateAddresses: false,
          resolve: async () => ["2606:4700:4700::1111", inside],
        }),
        (error: Error) => error.message.includes(inside),
      );
    }
  });

  it("default: ipv6Groups reads every spelling", () => {
    assert.deepEqual(ipv6Groups("::127.0.0.1"), [0, 0, 0, 0, 0, 0, 0x7f00, 1]);
    assert.deepEqual(ipv6Groups("::ffff:1.2.3.4"), [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    assert.deepEqual(ipv6Groups("1:2:3:4:5:6:7.8.9.10"), [1, 2, 3, 4, 5, 6, 0x708, 0x90a]);
    assert.deepEqual(ipv6Groups("2001:DB8::1%en0"), [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    assert.equal(ipv6Groups("1.2.3.4"), undefined);
    assert.equal(ipv6Groups("example.com"), undefined);
  });

  it("error: only absolute http(s) URLs", () => {
    assert.throws(() => parseWebhookUrl("ftp://example.com/"), /http or https/);
    assert.throws(() => parseWebhookUrl("example.com/hook"), /absolute/);
    assert.throws(() => parseWebhookUrl("file:///etc/passwd"), WebhookUrlError);
    assert.equal(parseWebhookUrl("https://example.com/h").hostname, "example.com");
  });

  it("behavior: names are resolved and checked at creation unless private addresses are allowed", async () => {
    const resolve = async (host: string) =>
      host === "inside.example" ? ["10.0.0.5"] : ["8.8.8.8"];
    await assert.rejects(
      checkWebhookUrl("https://inside.example/h", { allowPrivateAddresses: false, resolve }),
      /resolves to\) 10\.0\.0\.5/,
    );
    await assert.rejects(
      checkWebhookUrl("http://127.0.0.1:9/h", { allowPrivateAddresses: false, resolve }),
      /127\.0\.0\.1/,
    );
    await checkWebhookUrl("https://outside.example/h", { allowPrivateAddresses: false, resolve });
    await checkWebhookUrl("https://inside.example/h", { allowPrivateAddresses: true, resolve });
    await assert.rejects(
      checkWebhookUrl("https://nowhere.example/h", {
        allowPrivateAddresses: false,
        resolve: async () => {
          throw new Error("ENOTFOUND");
        },
      }),
      /does not resolve/,
    );
  });
});
