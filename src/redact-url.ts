/**
 * RPC URLs often carry credentials (`https://user:pass@host`, `https://host/v3/<api-key>`,
 * `?apikey=...`). Every log line and error message that names an RPC endpoint goes through
 * `redactRpcUrl`, and every error text that may quote the raw URL through `redactText`.
 */

/** A path segment that looks like a key: long and made of key-ish characters. */
const KEY_LIKE_SEGMENT = /^[A-Za-z0-9_-]{16,}$/;

/** Returns the URL without user info, without query values, and with key-like path segments masked. */
export function redactRpcUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: show only its scheme-like prefix so a mistyped key still never leaks.
    return "<invalid rpc url>";
  }
  const userInfo = parsed.username !== "" || parsed.password !== "" ? "***@" : "";
  const path = parsed.pathname
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(segment) ? "***" : segment))
    .join("/");
  const query = [...parsed.searchParams.keys()].map((key) => `${key}=***`).join("&");
  const base = `${parsed.protocol}//${userInfo}${parsed.host}${path === "/" ? "" : path}`;
  return query === "" ? base : `${base}?${query}`;
}

/** Replaces every occurrence of the raw URL (and of its secrets) in `text` by the redacted form. */
export function redactText(text: string, rpcUrl: string): string {
  let out = text.split(rpcUrl).join(redactRpcUrl(rpcUrl));
  let parsed: URL | undefined;
  try {
    parsed = new URL(rpcUrl);
  } catch {
    return out;
  }
  // The Authorization header the client sends for user info (splitCredentials), in case an
  // upstream error echoes the request's headers.
  const basic =
    parsed.username !== "" || parsed.password !== ""
      ? Buffer.from(
          `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`,
        ).toString("base64")
      : "";
  const secrets = [
    basic,
    parsed.password,
    parsed.username,
    ...[...parsed.searchParams.values()],
    ...parsed.pathname.split("/").filter((s) => KEY_LIKE_SEGMENT.test(s)),
  ].filter((s) => s.length >= 4);
  for (const secret of secrets) out = out.split(secret).join("***");
  return out;
}
