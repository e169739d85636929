/**
 * One client's stream of transfer changes (docs/push.md): what it missed (a resume), then the
 * live changes of the process's change feed, each matching change once, in seq order.
 *
 * `cursor` is the stream's position: every matching change with seq <= cursor has been written
 * (or the client was told with `reset` that it cannot be). Event ids are seqs, so the client's
 * Last-Event-ID is its cursor; heartbeats carry the cursor as a bare `id:` line (which sets the
 * client's last event id without an event) when non-matching changes moved it, so a resume
 * rescans less.
 *
 * Everything that can fail before the first byte (the feed's first read, the retention checks)
 * happens in `prepareTransferStream`, so the route still answers in the envelope; afterwards a
 * failure ends the stream and the client resumes.
 */
import type { ServerResponse } from "node:http";
import {
  type TransferChange,
  type TransferChangeRepository,
  type TransferMatch,
  transferMatches,
} from "../../store/index.js";
import type { ChangeFeed } from "./change-feed.js";
import type { OpenStream, StreamRegistry } from "./stream-registry.js";

export interface TransferStreamDeps {
  feed: ChangeFeed;
  changes: TransferChangeRepository;
  registry: StreamRegistry;
  /** Bytes a client may leave unread before its stream is ended (it resumes). */
  maxBufferedBytes: number;
  logger?: { warn(fields: object, message: string): void };
}

export interface TransferStreamRequest {
  /** The transfers to follow; undefined: every transfer (the latest feed's stream). */
  match: TransferMatch | undefined;
  /** Last-Event-ID / `since`: resume after this seq; undefined to start at the head. */
  resumeAfter: number | undefined;
  /** Called once when the stream ends, whichever way (the concurrency slot). */
  onEnd(): void;
}

/** Why a resume cannot be served exactly (the `reset` event's data). */
interface Reset {
  reason: "not retained" | "unknown position";
  lastEventId: number;
}

export interface PreparedTransferStream {
  /** Writes the head and runs the stream on `res`; the response belongs to it from now on. */
  start(res: ServerResponse, headers: Record<string, string | string[] | number>): void;
  /** Gives up before start (the request failed otherwise): unsubscribes, frees the slot. */
  abandon(): void;
}

const frames = new WeakMap<TransferChange, string>();

/** The SSE frame of a change, made once per change whatever the number of streams. */
function frameOf(change: TransferChange): string {
  let frame = frames.get(change);
  if (frame === undefined) {
    const event = change.type === "removed" ? "removed" : "transfer";
    frame = `id: ${change.seq}\nevent: ${event}\ndata: ${change.recordJson}\n\n`;
    frames.set(change, frame);
  }
  return frame;
}

export const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  // Reverse proxies (nginx) must pass events on at once instead of buffering the response.
  "x-accel-buffering": "no",
} as const;

/** Catch-up reads per query. */
const CATCH_UP_BATCH = 500;

export async function prepareTransferStream(
  deps: TransferStreamDeps,
  request: TransferStreamRequest,
): Promise<PreparedTransferStream> {
  const { feed, changes, registry, maxBufferedBytes } = deps;
  const { match, resumeAfter } = request;
  let state: "preparing" | "catching up" | "live" | "ended" = "preparing";
  let res: ServerResponse | undefined;
  /** Live changes that arrived while catching up (those up to `position` are skipped). */
  let buffered: TransferChange[] = [];
  let cursor = 0;
  let lastWrittenId = 0;

  function write(text: string): boolean {
    if (res === undefined || state === "ended") return true;
    const flushed = res.write(text);
    if (state === "live" && res.writableLength > maxBufferedBytes) {
      deps.logger?.warn(
        { buffered: res.writableLength },
        "stream: the client does not read its events; ending its stream (it resumes)",
      );
      end();
    }
    return flushed;
  }

  function send(change: TransferChange): void {
    if (change.seq <= cursor) return;
    cursor = change.seq;
    if (match !== undefined && !transferMatches(change.record, match)) return;
    lastWrittenId = change.seq;
    write(frameOf(change));
  }

  const stream: OpenStream = {
    heartbeat() {
      if (state !== "live") return;
      if (cursor > lastWrittenId) {
        lastWrittenId = cursor;
        write(`: heartbeat\nid: ${cursor}\n\n`);
      } else {
        write(": heartbeat\n\n");
      }
    },
    end,
  };

  let unsubscribe: () => void = () => {};
  function end(): void {
    if (state === "ended") return;
    state = "ended";
    unsubscribe();
    registry.remove(stream);
    request.onEnd();
    buffered = [];
    if (res !== undefined && !res.writableEnded) res.end();
  }

  registry.add(stream);
  let position: number;
  let reset: Reset | undefined;
  try {
    const subscription = await feed.subscribe({
      deliver(change) {
        if (state === "live") send(change);
        else if (state === "catching up" || state === "preparing") buffered.push(change);
      },
    });
    unsubscribe = subscription.unsubscribe;
    // The feed reads only when a notification wakes it, so it may not have read what was
    // committed just before this request. The stream starts at the log's head instead: the
    // history is read from the log up to there (ready follows it), and the feed's late copies of
    // those changes are skipped by seq. Read after subscribing: whatever is newer than the head,
    // the feed delivers.
    // Before the head is read: from now on no writer may leave its changes unlogged as history
    // nobody subscribed to (src/store/change-log-horizon.ts).
    await changes.markSubscribed();
    position = Math.max(subscription.position, await changes.latestSeq());
    cursor = position;
    if (resumeAfter !== undefined) {
      if (resumeAfter < (await changes.prunedThrough())) {
        reset = { reason: "not retained", lastEventId: resumeAfter };
      } else if (resumeAfter > position) {
        reset = { reason: "unknown position", lastEventId: resumeAfter };
      } else {
        cursor = resumeAfter;
      }
    }
  } catch (error) {
    end();
    throw error;
  }
  // end() may have run meanwhile (the server closing); TypeScript cannot see that.
  if ((state as string) === "ended") throw new StreamClosedError();

  async function catchUp(): Promise<void> {
    let after = cursor;
    while (after < position && state === "catching up") {
      const page = await changes.changesSince(after, {
        ...(match === undefined ? {} : { match }),
        limit: CATCH_UP_BATCH,
      });
      for (const change of page.changes) {
        if (change.seq > position) break;
        if (state !== "catching up") return;
        lastWrittenId = change.seq;
        cursor = change.seq;
        if (!write(frameOf(change))) await drained();
      }
      if (page.scannedThrough === after) break;
      after = page.scannedThrough;
    }
    // Pruned while being read (a resume at the very edge of retention): say so.
    if (resumeAfter !== undefined && resumeAfter < (await changes.prunedThrough())) {
      writeReset({ reason: "not retained", lastEventId: resumeAfter });
    }
  }

  function drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        res?.off("drain", done);
        res?.off("close", done);
        resolve();
      };
      res?.once("drain", done);
      res?.once("close", done);
    });
  }

  function writeReset(why: Reset): void {
    const data = JSON.stringify({ ...why, seq: position });
    lastWrittenId = position;
    write(`id: ${position}\nevent: reset\ndata: ${data}\n\n`);
  }

  return {
    start(response, headers) {
      res = response;
      response.on("close", end);
      response.writeHead(200, { ...headers, ...STREAM_HEADERS });
      state = "catching up";
      if (reset !== undefined) writeReset(reset);
      const history = reset === undefined ? catchUp() : Promise.resolve();
      history.then(
        () => {
          if (state !== "catching up") return;
          cursor = Math.max(cursor, position);
          lastWrittenId = cursor;
          write(`id: ${cursor}\nevent: ready\ndata: {"seq":${cursor}}\n\n`);
          state = "live";
          const pending = buffered;
          buffered = [];
          for (const change of pending) send(change);
        },
        (error: unknown) => {
          deps.logger?.warn(
            { err: (error as Error).message },
            "stream: reading the missed changes failed; ending the stream (the client resumes)",
          );
          end();
        },
      );
    },
    abandon: end,
  };
}

/** The server began closing while the stream was being prepared. */
export class StreamClosedError extends Error {
  constructor() {
    super("the stream was closed before it started");
    this.name = "StreamClosedError";
  }
}
