/**
 * The server-sent event stream of transfer changes, `GET /api/oracle/bridge-transactions/stream`
 * (docs/client.md, "waitForTransfer"): each change of a matching record is an event `transfer`
 * whose data is the whole record and whose id is the change's sequence number; `Last-Event-ID`
 * resumes after it. Comments (`:` lines) are heartbeats.
 *
 * `openTransferStream` resolves once the server has accepted the stream (so a change committed
 * after that reaches it), or rejects with a BridgeOracleError: an answer that is not an event
 * stream (404 from a server without the endpoint, a 429 over the stream limit, ...) or no answer.
 */
import {
  errorOfResponse,
  type FetchFunction,
  headersOf,
  send,
  type Transport,
  urlOf,
} from "./request.js";

export const TRANSFER_STREAM_PATH = "/api/oracle/bridge-transactions/stream";

export interface StreamEvent {
  /** The `event:` field; "message" when absent. */
  event: string;
  data: string;
  id: string | undefined;
}

export interface OpenTransferStreamParameters {
  transport: Transport & { fetch: FetchFunction };
  addressOrTxHash: string;
  lastEventId: string | undefined;
  signal: AbortSignal;
}

export async function openTransferStream(
  parameters: OpenTransferStreamParameters,
): Promise<AsyncGenerator<StreamEvent>> {
  const { transport, addressOrTxHash, lastEventId, signal } = parameters;
  const headers = headersOf(transport, "text/event-stream");
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  const url = urlOf(transport.baseUrl, TRANSFER_STREAM_PATH, { addressOrTxHash });
  const response = await send(transport.fetch, url, { method: "GET", headers, signal });
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !type.startsWith("text/event-stream") || response.body === null) {
    throw await errorOfResponse(response, `GET ${TRANSFER_STREAM_PATH}`);
  }
  return readEvents(response.body);
}

/** The events of an event-stream body (the WHATWG rules this service's stream needs). */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        if (line === "") {
          if (data.length > 0)
            yield { event: event === "" ? "message" : event, data: data.join("\n"), id };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
