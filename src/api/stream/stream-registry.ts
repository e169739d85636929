/**
 * The open streams of one API process: their concurrency limits per client address and per API
 * key, the one heartbeat timer that serves all of them, and ending them all on shutdown.
 *
 * Limits count this process's streams only (a stream is a long-lived connection to one process;
 * a deployment of N processes behind a balancer allows up to N times the limit). A request with
 * a valid key counts against its key, any other against its client address (by the rate
 * limit's buckets: IPv6 by its /64), as the rate limits do.
 */

export interface OpenStream {
  /** Writes a heartbeat comment (with the stream's position when it moved). */
  heartbeat(): void;
  /** Ends the response; the registry forgets the stream. */
  end(): void;
}

export interface StreamRegistryOptions {
  /** Concurrent streams per client address without a key; 0 = unlimited. */
  maxPerClient: number;
  /** Concurrent streams per API key; 0 = unlimited. */
  maxPerKey: number;
  /** Between two heartbeats, ms. */
  heartbeatMs: number;
}

export type AdmitResult =
  | { admitted: true; release(): void }
  | { admitted: false; limit: number; who: "client" | "key" };

export interface StreamRegistry {
  /** Takes a slot of `bucket` ("ip:..." or "key:..."), or says which limit is full. */
  admit(bucket: string, isKey: boolean): AdmitResult;
  add(stream: OpenStream): void;
  remove(stream: OpenStream): void;
  /** Open streams now. */
  size(): number;
  /** True once close() was called: new streams are refused. */
  closing(): boolean;
  /** Ends every stream and stops the heartbeat. */
  close(): void;
}

export function createStreamRegistry(options: StreamRegistryOptions): StreamRegistry {
  const counts = new Map<string, number>();
  const streams = new Set<OpenStream>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  function beat(): void {
    for (const stream of streams) stream.heartbeat();
  }

  return {
    admit(bucket, isKey) {
      const limit = isKey ? options.maxPerKey : options.maxPerClient;
      const count = counts.get(bucket) ?? 0;
      if (limit > 0 && count >= limit) {
        return { admitted: false, limit, who: isKey ? "key" : "client" };
      }
      counts.set(bucket, count + 1);
      let released = false;
      return {
        admitted: true,
        release() {
          if (released) return;
          released = true;
          const left = (counts.get(bucket) ?? 1) - 1;
          if (left <= 0) counts.delete(bucket);
          else counts.set(bucket, left);
        },
      };
    },
    add(stream) {
      streams.add(stream);
      if (timer === undefined && !closed) {
        timer = setInterval(beat, options.heartbeatMs);
        timer.unref();
      }
    },
    remove(stream) {
      streams.delete(stream);
      if (streams.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    size: () => streams.size,
    closing: () => closed,
    close() {
      closed = true;
      clearInterval(timer);
      timer = undefined;
      for (const stream of [...streams]) stream.end();
      streams.clear();
    },
  };
}
