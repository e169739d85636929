/**
 * One API call: builds the URL, sends the key, and unwraps the envelope `{code, msg, data}`:
 * `data` when `code` is 0, else a BridgeOracleError with the service's code, msg and status.
 */
import { BridgeOracleError, parseRetryAfter } from "./errors.js";

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

export interface ApiCall {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface Transport {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchFunction;
}

export function urlOf(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return `${baseUrl.replace(/\/+$/, "")}${path}${text === "" ? "" : `?${text}`}`;
}

/** fetch, with a network failure as BridgeOracleError (status 0) and an abort as its reason. */
export async function send(
  fetchFunction: FetchFunction,
  url: string,
  init: RequestInit,
): Promise<Response> {
  try {
    return await fetchFunction(url, init);
  } catch (error) {
    // An abort is the caller's own decision: it keeps its reason.
    if (init.signal?.aborted) throw init.signal.reason;
    throw new BridgeOracleError({
      status: 0,
      code: -1,
      msg: `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

/** The headers every call sends: JSON, and the key when there is one. */
export function headersOf(transport: Transport, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept };
  if (transport.apiKey !== undefined) headers.authorization = transport.apiKey;
  return headers;
}

export async function callApi<T>(transport: Transport, call: ApiCall): Promise<T> {
  const url = urlOf(transport.baseUrl, call.path, call.query);
  const headers = headersOf(transport, "application/json");
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const response = await send(transport.fetch, url, {
    method: call.method,
    headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    ...(call.signal !== undefined ? { signal: call.signal } : {}),
  });
  const text = await response.text();
  const envelope = envelopeOf(text);
  if (response.ok && envelope?.code === 0) return envelope.data as T;
  throw errorOf(response, envelope, `${call.method} ${call.path}`, text);
}

type Envelope = { code: number; msg?: unknown; data?: unknown };

function envelopeOf(text: string): Envelope | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const code = (parsed as { code?: unknown } | null)?.code;
    return typeof code === "number" ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** The BridgeOracleError of an answer that is not a success (its body already read as `text`). */
function errorOf(
  response: Response,
  envelope: Envelope | undefined,
  what: string,
  text: string,
): BridgeOracleError {
  return new BridgeOracleError({
    status: response.status,
    code: envelope?.code ?? -1,
    msg:
      typeof envelope?.msg === "string"
        ? envelope.msg
        : `${what}: not an answer of bridge-oracle (${text.slice(0, 200)})`,
    retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
  });
}

/** A failed error answer's BridgeOracleError, reading its body. */
export async function errorOfResponse(
  response: Response,
  what: string,
): Promise<BridgeOracleError> {
  const text = await response.text().catch(() => "");
  return errorOf(response, envelopeOf(text), what, text);
}
