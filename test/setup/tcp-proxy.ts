/**
 * A TCP proxy in front of a server (PostgreSQL in the database tests) that fails the ways a
 * network does:
 * - `down()`: every connection dropped, new ones refused (a server that went away);
 * - `freeze()`: the connections open now stay open and nothing gets through them any more, in
 *   either direction, not even a close (a NAT or firewall that dropped them); new connections
 *   still pass, as they would through a fresh NAT entry;
 * - `swallow(true)`: new connections are accepted and never answered (a listener that is not
 *   the database, or a host that went silent); `swallow(false)` forwards them again.
 *
 *   const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
 *   createStore({ databaseUrl: proxy.url(db.databaseUrl) }) ... await proxy.close();
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./free-port.js";

export interface TcpProxy {
  readonly port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /** Listens again (after down()). */
  up(): Promise<void>;
  /** Drops every connection and refuses new ones. */
  down(): Promise<void>;
  /** Every open connection goes silent for good; new ones pass (unless swallowed). */
  freeze(): void;
  /** While on, new connections are accepted and never answered. */
  swallow(on: boolean): void;
  /**
   * While on, what clients send waits in the proxy (a slow uplink: their writes back up);
   * off forwards it all.
   */
  holdUploads(on: boolean): void;
  /** Connections from clients still open through the proxy (frozen and swallowed included). */
  openConnections(): number;
  /** Connections accepted since the start (swallowed ones included): attempts to connect. */
  accepted(): number;
  /**
   * What clients sent into silenced links (frozen or swallowed), as latin1 text, its first
   * MiB: shows that a statement reached a connection that will never answer it.
   */
  swallowedText(): string;
  /** down() for good. */
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream?: Socket;
  silent?: boolean;
  /** The client closed its side (a silent link swallows that, but the client is done). */
  clientDone?: boolean;
}

const SWALLOWED_TEXT_LIMIT = 1024 * 1024;

/** Host and port of a postgres:// URL. */
export function postgresTarget(databaseUrl: string): { host: string; port: number } {
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: Number(url.port || 5432) };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const links = new Set<Link>();
  let server: Server | undefined;
  let swallowing = false;
  let accepted = 0;
  let swallowed = "";
  const ignore = () => {};
  const keep = (chunk: Buffer) => {
    if (swallowed.length < SWALLOWED_TEXT_LIMIT) swallowed += chunk.toString("latin1");
  };

  function silence(link: Link): void {
    // Unpiped and read into nothing: whatever arrives, a close included, goes nowhere.
    link.silent = true;
    link.client.unpipe();
    link.upstream?.unpipe();
    // unpipe() left them paused, and a data listener does not resume a paused stream.
    link.client.on("data", keep).resume();
    link.upstream?.on("data", ignore).resume();
  }

  function accept(client: Socket): void {
    accepted++;
    const link: Link = { client };
    links.add(link);
    client.on("close", () => {
      links.delete(link);
      link.upstream?.destroy();
    });
    client.on("error", ignore);
    client.on("end", () => {
      link.clientDone = true;
    });
    if (swallowing) {
      silence(link);
      return;
    }
    const upstream = createConnection({ ...target, allowHalfOpen: true });
    link.upstream = upstream;
    upstream.on("error", () => {
      if (link.silent !== true) client.destroy();
    });
    upstream.on("close", () => {
      if (link.silent !== true) client.destroy();
    });
    client.pipe(upstream).pipe(client);
  }

  const proxy: TcpProxy = {
    port,
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    up() {
      // allowHalfOpen: a client's close reaches the server only through the pipe, so a frozen
      // link swallows it as a dead NAT entry would.
      const listening = createServer({ allowHalfOpen: true }, accept);
      server = listening;
      return new Promise((resolve) => listening.listen(port, "127.0.0.1", () => resolve()));
    },
    down() {
      const closing = server;
      server = undefined;
      for (const link of links) {
        link.client.destroy();
        link.upstream?.destroy();
      }
      links.clear();
      return new Promise((resolve) =>
        closing === undefined ? resolve() : closing.close(() => resolve()),
      );
    },
    freeze() {
      for (const link of links) silence(link);
    },
    swallow(on) {
      swallowing = on;
    },
    holdUploads(on) {
      for (const link of links) {
        if (link.silent === true) continue;
        if (on) link.client.pause();
        else link.client.resume();
      }
    },
    openConnections: () => [...links].filter((link) => link.clientDone !== true).length,
    accepted: () => accepted,
    swallowedText: () => swallowed.slice(0, SWALLOWED_TEXT_LIMIT),
    close: () => proxy.down(),
  };
  await proxy.up();
  return proxy;
}
