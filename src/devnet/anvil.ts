/**
 * Launches a local anvil node from the @foundry-rs/anvil npm package (no global foundry install).
 * Each node listens on 127.0.0.1 only, on a free port, and dies with this process: `stop()`, the
 * process `exit` event and the stop signals (SIGINT, SIGTERM, SIGHUP) all kill it. A node started with `callerHandlesSignals`
 * is left to its caller on signals (which stops it after what still uses it, e.g. `npm start`'s
 * graceful shutdown), and gets SIGTERM on `exit`. Only a SIGKILL of this process leaves nodes
 * running; `start` and `devnet` record their pids in DEVNET_DIR's lock so that the next run stops
 * them (devnet-lock.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { STOP_SIGNALS } from "../stop-signals.js";
import { jsonRpc } from "./json-rpc.js";

export interface StartAnvilParameters {
  chainId: number;
  /** Fixed port; default: a free one. */
  port?: number;
  /** Seconds between blocks; default: automine (a block per transaction). */
  blockTime?: number;
  /** Interface to bind; default 127.0.0.1 (never exposed beyond the machine by default). */
  host?: string;
  /** Give up when the node does not answer within this many ms (default 20 000). */
  startTimeoutMs?: number;
  /**
   * Persistent chain: anvil loads this JSON file at start when it exists (blocks, receipts and
   * account state, so block hashes survive) and writes it on SIGTERM and every
   * `stateIntervalSeconds`. Default: none (the chain lives in memory only).
   */
  statePath?: string;
  /** With `statePath`: seconds between periodic dumps (crash safety). Default 30. */
  stateIntervalSeconds?: number;
  /**
   * The caller stops the node itself on SIGINT/SIGTERM (through `stop()`, after what still uses
   * it has finished). The node then runs in its own process group, so a terminal's Ctrl-C does
   * not reach it first, and this module's signal hook leaves it alone; the process `exit` hook
   * still stops it (SIGTERM: it writes its state, then exits). Default false: the node dies at
   * once on SIGINT/SIGTERM.
   */
  callerHandlesSignals?: boolean;
}

export interface AnvilInstance {
  rpcUrl: string;
  port: number;
  chainId: number;
  /** The node's process id (recorded in DEVNET_DIR's lock, see devnet-lock.ts). */
  pid: number;
  stop(): Promise<void>;
}

const PLATFORM_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** Path of the anvil binary shipped by the platform package of @foundry-rs/anvil. */
export function resolveAnvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = PLATFORM_ARCH[process.arch] ?? process.arch;
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const root = dirname(require.resolve(`${platformPackage}/package.json`));
    const binary = join(root, "bin", exe);
    if (existsSync(binary)) return binary;
  } catch {
    // fall through to the wrapper script below
  }
  // The wrapper forwards SIGINT/SIGTERM to the real binary, so stop() still works through it.
  const wrapper = join(dirname(require.resolve("@foundry-rs/anvil/package.json")), "bin.mjs");
  if (existsSync(wrapper)) return wrapper;
  throw new Error(`anvil binary not found: install ${platformPackage} (npm install)`);
}

/** A port that was free a moment ago (anvil cannot bind port 0 itself). */
export async function findFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

const live = new Set<ChildProcess>();
/** Nodes whose caller stops them on signals (`callerHandlesSignals`); subset of `live`. */
const callerManaged = new Set<ChildProcess>();
let exitHooksInstalled = false;

/**
 * Kills the nodes at once. A caller-managed node gets SIGTERM instead: it is in its own process
 * group, so it outlives this process by the moment it takes to write its state file (a forced
 * exit of `start` keeps a consistent chain state that way) and then exits by itself.
 */
function killAllSync(includeCallerManaged = true): void {
  for (const child of live) {
    const managed = callerManaged.has(child);
    if (!includeCallerManaged && managed) continue;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(managed ? "SIGTERM" : "SIGKILL");
    }
    live.delete(child);
    callerManaged.delete(child);
  }
}

/**
 * Kills every node on process exit and on each stop signal (SIGINT, SIGTERM, SIGHUP). When this module's handler is the only
 * one for a signal, it re-raises the signal afterwards so the default (terminate) still happens;
 * when the application has its own handler, that handler decides what to do next.
 */
function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on("exit", () => killAllSync());
  for (const signal of STOP_SIGNALS) {
    const onSignal = (): void => {
      killAllSync(process.listenerCount(signal) === 1);
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

async function answersChainId(rpcUrl: string): Promise<number | null> {
  try {
    const result = await jsonRpc(rpcUrl, "eth_chainId", [], { timeoutMs: 1000 });
    return result === undefined ? null : Number(result);
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL after `graceMs` (a persistent node writes its state file meanwhile). */
function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  live.delete(child);
  callerManaged.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function launchOnce(
  parameters: StartAnvilParameters,
  port: number,
): Promise<AnvilInstance | { retry: string }> {
  const host = parameters.host ?? "127.0.0.1";
  const args = ["--host", host, "--port", String(port), "--chain-id", String(parameters.chainId)];
  if (parameters.blockTime !== undefined) args.push("--block-time", String(parameters.blockTime));
  if (parameters.statePath !== undefined) {
    args.push("--state", parameters.statePath);
    args.push("--state-interval", String(parameters.stateIntervalSeconds ?? 30));
  }
  args.push("--silent");
  const binary = resolveAnvilBinary();
  const command = binary.endsWith(".mjs") ? process.execPath : binary;
  const callerHandlesSignals = parameters.callerHandlesSignals ?? false;
  const child = spawn(command, binary.endsWith(".mjs") ? [binary, ...args] : args, {
    stdio: ["ignore", "ignore", "pipe"],
    detached: callerHandlesSignals,
  });
  live.add(child);
  if (callerHandlesSignals) callerManaged.add(child);
  const graceMs = parameters.statePath !== undefined ? 15_000 : 3000;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
    live.delete(child);
    callerManaged.delete(child);
  });
  child.once("error", (error) => {
    stderr += String(error);
    exited = true;
  });

  const rpcUrl = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  const deadline = Date.now() + (parameters.startTimeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (exited) {
      if (/address already in use/i.test(stderr)) return { retry: stderr };
      throw new Error(`anvil exited before answering on ${rpcUrl}: ${stderr.trim()}`);
    }
    const chainId = await answersChainId(rpcUrl);
    if (chainId === parameters.chainId) {
      return { rpcUrl, port, chainId, pid: child.pid ?? 0, stop: () => stopChild(child, graceMs) };
    }
    if (chainId !== null) {
      await stopChild(child);
      return { retry: `port ${port} answered with chain id ${chainId}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  await stopChild(child);
  throw new Error(`anvil did not answer on ${rpcUrl} within the start timeout: ${stderr.trim()}`);
}

/** Starts an anvil node and resolves once it answers `eth_chainId` with `chainId`. */
export async function startAnvil(parameters: StartAnvilParameters): Promise<AnvilInstance> {
  installExitHooks();
  const attempts = parameters.port === undefined ? 5 : 1;
  let lastReason = "";
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = parameters.port ?? (await findFreePort(parameters.host ?? "127.0.0.1"));
    const result = await launchOnce(parameters, port);
    if (!("retry" in result)) return result;
    lastReason = result.retry;
  }
  if (parameters.port !== undefined) {
    throw new Error(
      `anvil could not listen on ${parameters.host ?? "127.0.0.1"}:${parameters.port}: ${lastReason.trim()}`,
    );
  }
  throw new Error(`anvil could not bind a port: ${lastReason}`);
}
