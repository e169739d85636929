/**
 * Which webhook URLs and addresses the service will send to (docs/webhooks.md, "Outbound
 * safety"). A webhook URL is chosen by an API client, and the delivery process sits inside the
 * operator's network: without these rules a client could have it POST to the database's admin
 * port, a cloud metadata service (169.254.169.254) or anything else only reachable from inside.
 *
 * - only http: and https: URLs, with a host;
 * - addresses in private, loopback, link-local, unique-local, CGNAT, multicast, reserved and
 *   unspecified ranges are refused, unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is set (tests, a
 *   receiver on the same network on purpose). Names are resolved and every resolved address
 *   checked, both when a subscription is created and at each send, where the check runs on the
 *   address actually connected to (post-webhook.ts), so a name that later resolves inside
 *   (DNS rebinding) is refused too.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const PRIVATE_RANGES_V4: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const PRIVATE_RANGES_V6: readonly [string, number][] = [
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): refused whatever it embeds
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
];

function privateRanges(): BlockList {
  const list = new BlockList();
  for (const [net, bits] of PRIVATE_RANGES_V4) list.addSubnet(net, bits, "ipv4");
  for (const [net, bits] of PRIVATE_RANGES_V6) list.addSubnet(net, bits, "ipv6");
  return list;
}

const PRIVATE = privateRanges();

/**
 * The eight 16-bit groups of an IPv6 literal (with `::`, a trailing dotted quad and a `%zone`
 * allowed), or undefined when it is not one.
 */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  if (isIP(text) !== 6) return undefined;
  const tail: number[] = [];
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, quad.index);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = text.indexOf("::");
  if (gap === -1) return [...parse(text), ...tail];
  const head = parse(text.slice(0, gap));
  const rest = [...parse(text.slice(gap + 2)), ...tail];
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The IPv4 addresses an IPv6 address reaches (or is translated to) on the way, by its form:
 * a packet to one of these ends at (or passes through) the IPv4 host, so that host is what the
 * address filter must judge. Empty for an ordinary IPv6 address.
 *
 * - `::/96` IPv4-compatible (`::127.0.0.1`, which the URL parser writes `::7f00:1`);
 * - `::ffff:0:0/96` IPv4-mapped; `::ffff:0:0:0/96` IPv4-translated (SIIT);
 * - `64:ff9b::/96` the NAT64 well-known prefix (an IPv6-only host behind NAT64 reaches the IPv4
 *   address); local-use NAT64 `64:ff9b:1::/48` is refused as a range instead (PRIVATE_RANGES_V6);
 * - `2002::/16` 6to4: the relay at bits 16-47;
 * - `2001::/32` Teredo: the server (bits 32-63) and the client (the last 32 bits, inverted).
 */
export function embeddedIpv4(groups: readonly number[]): string[] {
  const g = (i: number) => groups[i] ?? 0;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  const last32 = ipv4Of(g(6), g(7));
  if (zeros(0, 6)) return [last32]; // ::/96
  if (zeros(0, 5) && g(5) === 0xffff) return [last32]; // ::ffff:0:0/96
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return [last32]; // ::ffff:0:0:0/96
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return [last32]; // 64:ff9b::/96
  if (g(0) === 0x2002) return [ipv4Of(g(1), g(2))]; // 6to4
  if (g(0) === 0x2001 && g(1) === 0)
    return [ipv4Of(g(2), g(3)), ipv4Of(g(6) ^ 0xffff, g(7) ^ 0xffff)];
  return [];
}

/**
 * Whether `address` (an IPv4 or IPv6 literal) is in a range a webhook may not reach. An IPv6
 * address that embeds IPv4 addresses (embeddedIpv4) is judged by them: refused when any is.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (groups === undefined) return true; // not an address: refuse
  const embedded = embeddedIpv4(groups);
  if (embedded.some((v4) => PRIVATE.check(v4, "ipv4"))) return true;
  return PRIVATE.check(groups.map((g) => g.toString(16)).join(":"), "ipv6");
}

export class WebhookUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookUrlError";
  }
}

/** The URL parsed, or a WebhookUrlError saying which rule it breaks (no address check). */
export function parseWebhookUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WebhookUrlError("url must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebhookUrlError(`url must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.hostname === "") throw new WebhookUrlError("url must name a host");
  if (value.length > 2048) throw new WebhookUrlError("url must be at most 2048 characters");
  return url;
}

/** The URL's host as DNS or an address literal sees it (IPv6 brackets removed). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveHost: ResolveHost = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
};

/**
 * Checks a subscription's URL when it is created: its form, and (unless private addresses are
 * allowed) that its host resolves and no resolved address is private. Throws WebhookUrlError.
 */
export async function checkWebhookUrl(
  value: string,
  options: { allowPrivateAddresses: boolean; resolve?: ResolveHost },
): Promise<URL> {
  const url = parseWebhookUrl(value);
  if (options.allowPrivateAddresses) return url;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await (options.resolve ?? resolveHost)(host);
  } catch {
    throw new WebhookUrlError(`url's host '${host}' does not resolve`);
  }
  if (addresses.length === 0) throw new WebhookUrlError(`url's host '${host}' does not resolve`);
  const refused = addresses.find(isPrivateAddress);
  if (refused !== undefined) {
    throw new WebhookUrlError(
      `url's host '${host}' is (or resolves to) ${refused}, a private, loopback or link-local address; webhooks are sent only to public addresses unless the server runs with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true`,
    );
  }
  return url;
}
