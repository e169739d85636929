/**
 * The one home of URL redaction: every URL that reaches a log line, an error message or a
 * listing goes through here first. One set of rules, with stronger presets where the URL's kind
 * calls for them:
 *
 * - a password in the user info is always masked (`u:***@`);
 * - a query value is masked when its name looks like a secret (SECRET_NAME: `apiKey`, `token`,
 *   `password`, `signature`, `auth_token`, ...), and any value shaped like one of our own
 *   secrets (an API key `bo_...`, a webhook secret `whsec_...`) is masked wherever it stands;
 * - RPC URLs (redactRpcUrl): providers put keys anywhere, so the user name, every query value
 *   and key-like path segments (`/v3/<key>`) are masked as well;
 * - webhook URLs (redactWebhookUrl): the user name too (the receiver's Basic-auth credentials);
 * - request URLs (redactRequestUrl, a path and query as a client sent them): as written, only
 *   the secrets masked, so the line still says what was asked.
 *
 * A value that does not parse as a URL is masked by hand rather than echoed (configuration
 * errors quote the value they refuse).
 */

/** Query parameter names whose values are secrets. */
export const SECRET_NAME = /pass|secret|key|token|auth|cred|sig|session/i;

/**
 * Our own secrets, wherever they appear in a text: API keys (`bo_` + 43 base64url characters,
 * keys/api-key.ts) and webhook secrets (`whsec_` + 43, webhooks/signature.ts). Not preceded by a
 * letter, so a percent-encoded `%22bo_...` is caught too.
 */
const OUR_SECRET = /(?<![A-Za-z])(bo|whsec)_[A-Za-z0-9_-]{8,}/g;

/** A path segment that looks like a key: long and made of key-ish characters. */
const KEY_LIKE_SEGMENT = /^[A-Za-z0-9_-]{16,}$/;

const MASK = "***";

/** `text` with every API key and webhook secret of ours replaced by its prefix and `***`. */
export function maskOurSecrets(text: string): string {
  return text.replace(OUR_SECRET, (_whole, prefix: string) => `${prefix}_${MASK}`);
}

/** Whether a query parameter of this name (percent-encoded or not) carries a secret. */
export function isSecretName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    // a malformed escape: judge the name as written
  }
  return SECRET_NAME.test(decoded);
}

/** A query string (without `?`) with the values of secret-named (or, `all`, every) parameters masked. */
function redactQuery(query: string, all: boolean): string {
  return query
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      if (equals === -1) return part;
      const name = part.slice(0, equals);
      return all || isSecretName(name) ? `${name}=${MASK}` : part;
    })
    .join("&");
}

export interface RedactUrlOptions {
  /** Mask the user name as well as the password (the user info becomes `***@`). */
  userName?: boolean;
  /** Mask every query value, not only the secret-named ones. */
  allQueryValues?: boolean;
  /** Mask path segments that look like keys (16+ key-ish characters). */
  keyLikePathSegments?: boolean;
  /** What to show for a value that does not parse as a URL; default: the value masked by hand. */
  unparsed?: string;
}

/**
 * The URL with its secrets masked (the rules above). Comes back unchanged, character for
 * character, when it holds none; a value that is not a URL (a SQLite path) likewise.
 */
export function redactUrl(value: string, options: RedactUrlOptions = {}): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return options.unparsed ?? maskOurSecrets(redactUnparsedUrl(value));
  }
  let changed = false;
  if (url.password !== "") {
    url.password = MASK;
    changed = true;
  }
  if (options.userName === true && url.username !== "") {
    url.username = MASK;
    if (url.password !== "") url.password = "";
    changed = true;
  }
  if (options.keyLikePathSegments === true) {
    const path = url.pathname
      .split("/")
      .map((segment) => (KEY_LIKE_SEGMENT.test(segment) ? MASK : segment))
      .join("/");
    if (path !== url.pathname) {
      url.pathname = path;
      changed = true;
    }
  }
  if (url.search !== "") {
    const search = redactQuery(url.search.slice(1), options.allQueryValues === true);
    if (search !== url.search.slice(1)) {
      url.search = search;
      changed = true;
    }
  }
  return maskOurSecrets(changed ? url.toString() : value);
}

/**
 * A value URL cannot parse (a port typo, a space): it is quoted back in errors, so the password
 * is found by hand. Everything between `://` and the last `@` after the user name is masked (an
 * `@` further on only masks more), and so are secret-named query values.
 */
function redactUnparsedUrl(value: string): string {
  let redacted = value;
  const start = value.indexOf("://");
  const at = value.lastIndexOf("@");
  if (start !== -1 && at > start) {
    const userinfo = value.slice(start + 3, at);
    const colon = userinfo.indexOf(":");
    if (colon !== -1) {
      redacted = `${value.slice(0, start + 3)}${userinfo.slice(0, colon)}:${MASK}${value.slice(at)}`;
    }
  }
  const query = redacted.indexOf("?");
  if (query === -1) return redacted;
  const hash = redacted.indexOf("#", query);
  const end = hash === -1 ? redacted.length : hash;
  return `${redacted.slice(0, query + 1)}${redactQuery(redacted.slice(query + 1, end), false)}${redacted.slice(end)}`;
}

/**
 * A request's URL as logged (`/api/oracle/router?apiKey=***`): the path and query exactly as the
 * client sent them, with secret-named query values and our own secrets masked.
 */
export function redactRequestUrl(pathAndQuery: string): string {
  const query = pathAndQuery.indexOf("?");
  const redacted =
    query === -1
      ? pathAndQuery
      : `${pathAndQuery.slice(0, query + 1)}${redactQuery(pathAndQuery.slice(query + 1), false)}`;
  return maskOurSecrets(redacted);
}

/**
 * An RPC URL for logs and errors: no user info, no query values, key-like path segments masked
 * (`https://***@host/v3/***?apikey=***`); not a URL at all: `<invalid rpc url>`.
 */
export function redactRpcUrl(url: string): string {
  const redacted = redactUrl(url, {
    userName: true,
    allQueryValues: true,
    keyLikePathSegments: true,
    unparsed: "<invalid rpc url>",
  });
  // The bare origin as configured: no "/" added by the URL parser.
  return redacted !== url && redacted.endsWith("/") && new URL(url).pathname === "/"
    ? redacted.slice(0, -1)
    : redacted;
}

/**
 * A webhook URL for listings, logs and messages: the receiver's user name, password and
 * secret-named query values (`?token=`) masked; they are still sent, never shown.
 */
export function redactWebhookUrl(value: string): string {
  return redactUrl(value, { userName: true, unparsed: "(not a URL)" });
}

/** Replaces every occurrence of the raw RPC URL (and of its secrets) in `text` by the redacted form. */
export function redactText(text: string, rpcUrl: string): string {
  let out = text.split(rpcUrl).join(redactRpcUrl(rpcUrl));
  let parsed: URL | undefined;
  try {
    parsed = new URL(rpcUrl);
  } catch {
    return maskOurSecrets(out);
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
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return maskOurSecrets(out);
}
