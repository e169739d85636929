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
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
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

/** Whether `address` (an IPv4 or IPv6 literal) is in a range a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family !== 6) return true; // not an address: refuse
  const lower = address.toLowerCase();
  // IPv4-mapped (::ffff:10.0.0.1) and IPv4-compatible forms reach the IPv4 address.
  const mapped = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[2];
  if (mapped !== undefined) return PRIVATE.check(mapped, "ipv4");
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex !== null) {
    const high = Number.parseInt(mappedHex[1] as string, 16);
    const low = Number.parseInt(mappedHex[2] as string, 16);
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, "ipv4");
  }
  return PRIVATE.check(address, "ipv6");
}

export class WebhookUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookUrlError";
  }
}

/**
 * The URL with any user name and password removed, for logs, listings and messages: a
 * receiver's credentials in the URL are sent (as Basic auth) but never shown.
 */
export function redactWebhookUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === "" && url.password === "") return url.toString();
    url.username = "***";
    url.password = "";
    return url.toString();
  } catch {
    return "(not a URL)";
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
