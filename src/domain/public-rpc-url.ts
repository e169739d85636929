/**
 * A chain's public RPC URL: the one the operator chooses to publish (GET /api/oracle/chains
 * `rpcUrls`, which the explorer hands to a browser wallet's wallet_addEthereumChain). It is never
 * derived from `rpcUrl`, the URL the server itself reads the chain through, which may carry
 * credentials or name an internal host.
 *
 * Rules: an http(s) URL with a host, no user info, no query parameter whose name looks like a
 * secret (`?apikey=`, `?token=`), no fragment. A key written into the path cannot be told from a
 * route segment; publishing such a URL is the operator's choice (docs/router.md, "Registry").
 */
import { isSecretName } from "../redact-url.js";

/** Why `value` cannot be published as a chain's public RPC URL, or null when it can. */
export function publicRpcUrlProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0) return "must be a non-empty string";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an http:// or https:// URL such as https://rpc.example.org";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `must be an http:// or https:// URL, got scheme "${url.protocol.slice(0, -1)}"`;
  }
  if (url.hostname === "") return "must name a host";
  if (url.username !== "" || url.password !== "") {
    return "must not carry credentials (user:password@): it is published to every browser";
  }
  const secret = [...url.searchParams.keys()].find(isSecretName);
  if (secret !== undefined) {
    return `must not carry a secret-looking query parameter (${secret}=): it is published to every browser`;
  }
  if (url.hash !== "") return "must not have a #fragment";
  return null;
}
