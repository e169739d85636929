/**
 * Finds connections that went silent under a statement with no query bound (the indexer's,
 * imports', migrations'), and drops them so the statement fails and its caller retries.
 *
 * Why: those statements may legitimately run for minutes, so no client-side timeout can tell a
 * slow statement from a connection behind a stalled proxy or a dropped NAT entry, where the
 * answer never comes and the caller would wait for good (docs/store.md, "Timeouts"). The server
 * can tell: when a statement has had no answer for `checkAfterMs`, a separate short connection
 * asks pg_stat_activity what the server is doing for this connection, found by the unique
 * application_name each watched connection carries:
 * - running a statement (waiting on a lock included): the statement is slow, not lost; wait on,
 *   and ask again after another `checkAfterMs`;
 * - idle for a while (it finished, or the statement never arrived), or no session at all (it
 *   ended): the answer is not coming; the connection is dropped;
 * - the server does not answer the check within the connect bound: it cannot be reached now,
 *   so the connection is dropped too; the caller's retry then fails to connect, which its status
 *   reports, until the server is back;
 * - anything else (the check gets an error answer, or cannot see its own session, as behind a
 *   pooler that does not pass application_name on): no verdict; the connection is left alone.
 * Dropping destroys the socket with an error that says why; pg fails the statement with it. The
 * connection's session on the server is then ended (pg_terminate_backend, retried while the
 * server cannot be reached): when the path went silent it would otherwise live on, idle in
 * transaction and holding its locks, until the server's keepalive noticed.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface SilentConnectionWatchOptions {
  /** Opens the check's own connection (the pool's URL, bounded by `probeMs`). */
  clientConfig: pg.ClientConfig;
  /** A statement without an answer this long gets its connection checked. */
  checkAfterMs: number;
  /** Bound of the check: connecting and its one query each. */
  probeMs: number;
}

export interface SilentConnectionWatch {
  /** Gives `client` its unique application_name; call before it connects. */
  name(client: pg.Client): void;
  /** Watches `client`'s statements from now until its connection ends. */
  track(client: pg.Client): void;
  /** Stops watching; ends the server sessions of dropped connections if it still can. */
  stop(): Promise<void>;
}

/** What the server shows for a watched connection. */
type ServerView =
  | { verdict: "working" }
  | { verdict: "undecided"; why: string }
  | { verdict: "lost"; why: string };

interface Watched {
  /** Statements sent and not yet answered. */
  outstanding: number;
  /** When the connection last made progress (a statement sent while idle, or one answered). */
  since: number;
  /** When it was last checked, so a slow statement is checked once per `checkAfterMs`. */
  checkedAt: number;
  checking: boolean;
}

/** PostgreSQL keeps 63 bytes of application_name and turns non-printable-ASCII into '?'. */
const APPLICATION_NAME_BYTES = 63;
const DEFAULT_APPLICATION_NAME = "bridge-oracle";
const PROBE_CLOSE_MS = 1000;

/** This process's part of every watched connection's name; the counter tells its connections apart. */
const processTag = randomBytes(4).toString("hex");
let connectionCount = 0;

/** A unique application_name that keeps the configured one (or ours) in front, as the server stores it. */
export function uniqueApplicationName(configured: string | undefined): string {
  const suffix = ` #${processTag}.${++connectionCount}`;
  const base = (configured || DEFAULT_APPLICATION_NAME).replace(/[^\x20-\x7e]/g, "?");
  return base.slice(0, APPLICATION_NAME_BYTES - suffix.length) + suffix;
}

export function createSilentConnectionWatch(
  options: SilentConnectionWatchOptions,
): SilentConnectionWatch {
  const watched = new Map<pg.Client, Watched>();
  /**
   * Sessions of dropped connections still to be ended on the server. Dropping our socket ends
   * nothing there when the path is what went silent: the session lives on (idle in transaction,
   * holding the indexer's lock and row locks, so every later transaction would wait on it) until
   * the server's own keepalive notices, two hours by default.
   */
  const orphans = new Set<string>();
  let reaping: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [client, state] of watched) {
        if (state.checking || state.outstanding === 0) continue;
        if (now - Math.max(state.since, state.checkedAt) < options.checkAfterMs) continue;
        state.checking = true;
        void check(client, now - state.since).finally(() => {
          state.checking = false;
          state.checkedAt = performance.now();
        });
      }
      if (orphans.size > 0) reap();
    },
    Math.max(50, Math.floor(options.checkAfterMs / 4)),
  );
  timer.unref();

  function reap(): Promise<void> {
    reaping ??= endSessions(options, [...orphans])
      .then((ended) => {
        for (const name of ended) orphans.delete(name);
      })
      .finally(() => {
        reaping = undefined;
      });
    return reaping;
  }

  async function check(client: pg.Client, waitedMs: number): Promise<void> {
    // A statement larger than the kernel's send buffer still being written (a big batch over a
    // slow link): the server shows the session idle until all of it has arrived. Not silence.
    if (client.connection.stream.writableLength > 0) return;
    const name = applicationName(client);
    const asked = watched.get(client)?.since;
    const view = await askServer(options, name, Math.floor(options.checkAfterMs / 3));
    const state = watched.get(client);
    // Answered meanwhile (progress moved `since`): the verdict is about a statement now done.
    if (view.verdict !== "lost" || state === undefined || state.since !== asked) return;
    const error = new Error(
      `the database connection went silent: a statement had no answer for ` +
        `${seconds(waitedMs)} and ${view.why}; dropped the connection, failing the statement ` +
        "(its session on the server is ended too)",
    );
    orphans.add(name);
    client.connection.stream.destroy(error);
    void reap();
  }

  return {
    name(client) {
      const parameters = connectionParameters(client);
      parameters.application_name = uniqueApplicationName(parameters.application_name);
    },
    track(client) {
      const state: Watched = { outstanding: 0, since: 0, checkedAt: 0, checking: false };
      watched.set(client, state);
      client.once("end", () => watched.delete(client));
      const sent = () => {
        if (state.outstanding++ === 0) state.since = performance.now();
      };
      const answered = () => {
        state.outstanding--;
        state.since = performance.now();
      };
      // Every statement goes through query(): ours with a promise, pg-pool's pool.query with a
      // callback. Submittables (cursors) are not used here and are left untracked.
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const callback = args.at(-1);
        if (typeof callback === "function") {
          sent();
          args[args.length - 1] = (...results: unknown[]) => {
            answered();
            return callback(...results);
          };
          return query(...args);
        }
        const result = query(...args);
        if (result instanceof Promise) {
          sent();
          result.then(answered, answered);
        }
        return result;
      };
    },
    async stop() {
      clearInterval(timer);
      watched.clear();
      // One last attempt for sessions not ended yet (the server may be unreachable now).
      if (orphans.size > 0) await reap().catch(() => {});
    },
  };
}

/** pg keeps a client's parsed settings here; the startup message reads application_name from it. */
function connectionParameters(client: pg.Client): { application_name?: string } {
  return (client as unknown as { connectionParameters: { application_name?: string } })
    .connectionParameters;
}

function applicationName(client: pg.Client): string {
  return connectionParameters(client).application_name ?? "";
}

/** pg's own errors when its connect bound ('timeout expired') or query bound ran out. */
const NO_ANSWER = /^(timeout expired|Query read timeout)$/;

/** A short connection of the watch's own, named so that it can find itself in pg_stat_activity. */
async function withProbe<T>(
  options: Pick<SilentConnectionWatchOptions, "clientConfig" | "probeMs">,
  work: (probe: pg.Client, ownName: string) => Promise<T>,
): Promise<T> {
  const probe = new pg.Client({
    ...options.clientConfig,
    connectionTimeoutMillis: options.probeMs,
    query_timeout: options.probeMs,
    keepAlive: false,
  });
  const ownName = uniqueApplicationName(DEFAULT_APPLICATION_NAME);
  connectionParameters(probe).application_name = ownName;
  probe.on("error", () => {});
  try {
    await probe.connect();
    return await work(probe, ownName);
  } finally {
    await closeProbe(probe);
  }
}

/**
 * Asks the server, over a connection of its own, what it is doing for the connection named
 * `target`. Idle counts as lost only after `idleEvidenceMs` (the answer to a statement that just
 * ended may still be on its way).
 */
async function askServer(
  options: Pick<SilentConnectionWatchOptions, "clientConfig" | "probeMs">,
  target: string,
  idleEvidenceMs: number,
): Promise<ServerView> {
  try {
    return await withProbe(options, async (probe, own) => {
      const { rows } = await probe.query<{
        application_name: string;
        state: string | null;
        idle_ms: string | null;
      }>(
        "SELECT application_name, state," +
          " (EXTRACT(EPOCH FROM (now() - state_change)) * 1000)::bigint::text AS idle_ms" +
          " FROM pg_stat_activity WHERE application_name = ANY($1::text[])",
        [[target, own]],
      );
      return viewOf(rows, target, own, idleEvidenceMs);
    });
  } catch (error) {
    if (NO_ANSWER.test((error as Error).message)) {
      return {
        verdict: "lost",
        why: `the server did not answer a check within ${seconds(options.probeMs)}`,
      };
    }
    return { verdict: "undecided", why: `the check failed: ${(error as Error).message}` };
  }
}

function viewOf(
  rows: readonly { application_name: string; state: string | null; idle_ms: string | null }[],
  target: string,
  own: string,
  idleEvidenceMs: number,
): ServerView {
  if (!rows.some((row) => row.application_name === own)) {
    return { verdict: "undecided", why: "the check cannot see its own session" };
  }
  const sessions = rows.filter((row) => row.application_name === target);
  if (sessions.length === 0) {
    return { verdict: "lost", why: "the server has no session for it any more" };
  }
  if (sessions.length > 1) return { verdict: "undecided", why: "its name is not unique" };
  const { state, idle_ms: idleMs } = sessions[0]!;
  if (state === "active" || state === "fastpath function call") return { verdict: "working" };
  if (state?.startsWith("idle") && idleMs !== null && Number(idleMs) >= idleEvidenceMs) {
    return {
      verdict: "lost",
      why: `the server shows none running for it (${state} for ${seconds(Number(idleMs))})`,
    };
  }
  return { verdict: "undecided", why: `the server shows its session ${state ?? "hidden"}` };
}

/**
 * Ends the server sessions named `names` (pg_terminate_backend: a role may end its own
 * sessions). Returns the names dealt with: all of them once the server answered (an ended
 * session, one already gone, or an error answer, which trying again would not change); none
 * when it could not be reached, so they are tried again later.
 */
async function endSessions(
  options: Pick<SilentConnectionWatchOptions, "clientConfig" | "probeMs">,
  names: readonly string[],
): Promise<readonly string[]> {
  try {
    await withProbe(options, (probe) =>
      probe.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity" +
          " WHERE application_name = ANY($1::text[])",
        [names],
      ),
    );
    return names;
  } catch (error) {
    return NO_ANSWER.test((error as Error).message) ? [] : names;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A goodbye to the server (no "unexpected EOF" in its log), but never a wait of more than 1 s. */
async function closeProbe(probe: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    probe.end().catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, PROBE_CLOSE_MS);
    }),
  ]);
  clearTimeout(timer);
  probe.connection.stream.destroy();
}
