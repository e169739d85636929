/**
 * `bridge-oracle devnet [--traffic PER_MINUTE] [--chains N] [--relay-delay MS]
 * [--confirmations N] [--block-time S] [--seed N] [--rpc-port N] [--persist] [--quiet]`: runs
 * the local devnet until Ctrl-C (SIGINT), SIGTERM or SIGHUP (a closed terminal), then stops traffic, relayer and every anvil
 * node and exits 0. The summary goes to stdout; log lines (relayer, traffic, shutdown) to stderr.
 */
import { join } from "node:path";
import { acquireDevnetLock, DevnetDirInUseError, type DevnetLock } from "../devnet/devnet-lock.js";
import { createStderrLogger, silentLogger } from "../devnet/logger.js";
import {
  DEVNET_DEFAULTS,
  type RunDevnetOptions,
  runDevnet,
  validateRunDevnetOptions,
} from "../devnet/run-devnet.js";
import { devnetDir } from "../devnet/write-manifest.js";
import { STOP_SIGNALS } from "../stop-signals.js";
import { rpcPortsProblem } from "./port-in-use.js";

export const DEVNET_USAGE = `usage: bridge-oracle devnet [options]

Runs local anvil chains (alpha 71001, beta 71002, gamma 71003) with the bridge contracts,
a relayer and optional random traffic; writes $DEVNET_DIR/manifest.json (default .devnet/).

options:
  --traffic N        start N random transfers per minute (default 0: none; at most 6000)
  --chains N         number of chains, 2 or 3 (default ${DEVNET_DEFAULTS.chains})
  --relay-delay MS   relayer waits MS after a confirmed event (default ${DEVNET_DEFAULTS.relayDelayMs})
  --confirmations N  blocks on top of an event before relaying (default ${DEVNET_DEFAULTS.confirmations}; 0 with automine)
  --block-time S     seconds per block, 0 = automine (default ${DEVNET_DEFAULTS.blockTime})
  --seed N           seed of the traffic's random choices
  --rpc-port N       alpha's RPC port; beta and gamma take N+1 and N+2 (default: free ports,
                     new at every start)
  --persist          keep the chains' state in $DEVNET_DIR/state and resume from it next time
                     (the same files \`bridge-oracle start\` uses; see docs/start.md)
  --quiet            no relayer / traffic log lines
`;

export type ParsedDevnetArgs =
  | { ok: true; options: RunDevnetOptions; quiet: boolean; help: boolean }
  | { ok: false; message: string };

const NUMERIC_FLAGS: Record<string, keyof RunDevnetOptions> = {
  "--traffic": "traffic",
  "--chains": "chains",
  "--relay-delay": "relayDelayMs",
  "--confirmations": "confirmations",
  "--block-time": "blockTime",
  "--seed": "seed",
  "--rpc-port": "rpcPort",
};

/** Parses `--flag value` and `--flag=value`; every value must be a non-negative number. */
export function parseDevnetArgs(args: string[]): ParsedDevnetArgs {
  const options: Record<string, number | string | boolean> = {};
  let quiet = false;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (arg === "--quiet") {
      quiet = true;
      continue;
    }
    if (arg === "--persist") {
      // The nodes must outlive the terminal's Ctrl-C long enough to be stopped with SIGTERM,
      // which makes them write their state.
      Object.assign(options, { stateDir: join(devnetDir(), "state"), callerHandlesSignals: true });
      continue;
    }
    const [flag = "", inline] = arg.split("=", 2);
    const key = NUMERIC_FLAGS[flag];
    if (key === undefined) return { ok: false, message: `unknown option ${arg}` };
    const text = inline ?? args[++i];
    if (text === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(text)) {
      return {
        ok: false,
        message: `${flag} needs a non-negative number, got ${text ?? "nothing"}`,
      };
    }
    options[key] = Number(text);
  }
  return { ok: true, options: options as RunDevnetOptions, quiet, help };
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseDevnetArgs(args);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.message}\n\n${DEVNET_USAGE}`);
    return 1;
  }
  if (parsed.help) {
    process.stdout.write(DEVNET_USAGE);
    return 0;
  }
  const invalid = validateRunDevnetOptions(parsed.options);
  if (invalid !== null) {
    process.stderr.write(`${invalid}\n\n${DEVNET_USAGE}`);
    return 1;
  }

  // Signals are caught from the start, so Ctrl-C during start-up also ends in a clean stop.
  let signalled: (signal: string) => void = () => {};
  let received: string | undefined;
  const signal = new Promise<string>((resolve) => {
    signalled = resolve;
  });
  const onSignal = (name: string): void => {
    if (received !== undefined) return;
    received = name;
    signalled(name);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  const removeSignalHandlers = (): void => {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  };

  // One running devnet per DEVNET_DIR (devnet-lock.ts); a dead owner's nodes are stopped first.
  const dir = devnetDir();
  const say = createStderrLogger("devnet");
  let lock: DevnetLock;
  try {
    lock = await acquireDevnetLock({ dir, command: "devnet", log: (line) => say.info(line) });
  } catch (error) {
    removeSignalHandlers();
    process.stderr.write(
      error instanceof DevnetDirInUseError
        ? `${error.message}\n`
        : `cannot take the devnet directory ${dir} (DEVNET_DIR): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const { rpcPort } = parsed.options;
  const portsProblem =
    rpcPort === undefined
      ? null
      : await rpcPortsProblem(rpcPort, parsed.options.chains ?? DEVNET_DEFAULTS.chains);
  if (portsProblem !== null) {
    lock.release();
    removeSignalHandlers();
    process.stderr.write(`${portsProblem}\n`);
    return 1;
  }

  const logger = parsed.quiet ? silentLogger : say;
  const startedAt = Date.now();
  try {
    const starting = runDevnet({
      ...parsed.options,
      dir,
      onNodeStarted: (node) => lock.addNode(node),
      progress: (line) => say.info(line),
      logger,
    });
    const first = await Promise.race([starting, signal]);
    if (typeof first === "string") {
      await starting.then((devnet) => devnet.stop()).catch(() => {});
      return 0;
    }
    const devnet = first;
    const { manifest } = devnet;
    const lines = [
      `devnet up in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
      ...manifest.chains.map(
        (chain) => `  ${chain.name.padEnd(6)} chain id ${chain.chainId}  ${chain.rpcUrl}`,
      ),
      `manifest: ${devnet.manifestPath}`,
      `relayer: ${manifest.relayer.address}; traffic: ${parsed.options.traffic ?? 0} per minute`,
      ...(parsed.options.stateDir !== undefined
        ? [
            `state: ${parsed.options.stateDir} (${devnet.restored ? "resumed" : `fresh: ${devnet.freshReason}`})`,
          ]
        : []),
      "press Ctrl-C to stop",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    // Shutdown lines are log lines (stderr): stdout holds only the summary above.
    const name = await signal;
    say.info(`${name}: stopping the devnet`);
    await devnet.stop();
    say.info("devnet stopped");
    return 0;
  } catch (error) {
    process.stderr.write(
      `devnet failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  } finally {
    // The nodes have exited by now (runDevnet stops them on a failed start too).
    lock.release();
    removeSignalHandlers();
  }
}
