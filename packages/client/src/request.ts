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

export async function callApi<T>(transport: Transport, call: ApiCall): Promise<T> {
  const url = urlOf(transport.baseUrl, call.path, call.query);
  const headers: Record<string, string> = { accept: "application/json" };
  if (transport.apiKey !== undefined) headers.authorization = transport.apiKey;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await transport.fetch(url, {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      ...(call.signal !== undefined ? { signal: call.signal } : {}),
    });
  } catch (error) {
    // An abort is the caller's own decision: it keeps its reason.
    if (call.signal?.aborted) throw call.signal.reason;
    throw new BridgeOracleError({
      status: 0,
      code: -1,
      msg: `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  const text = await response.text();
  let envelope: { code?: unknown; msg?: unknown; data?: unknown } | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      typeof (parsed as { code?: unknown }).code === "number"
    ) {
      envelope = parsed as typeof envelope;
    }
  } catch {
    envelope = undefined;
  }
  if (response.ok && envelope?.code === 0) return envelope.data as T;
  throw new BridgeOracleError({
    status: response.status,
    code: typeof envelope?.code === "number" ? envelope.code : -1,
    msg:
      typeof envelope?.msg === "string"
        ? envelope.msg
        : `${call.method} ${call.path}: not an answer of bridge-oracle (${text.slice(0, 200)})`,
    retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
  });
}
