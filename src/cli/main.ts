/**
 * `bridge-oracle <command> [options]`: dispatches to one module per command. Each command module
 * exports `run(args)` returning the process exit code; modules load lazily so `serve` never pays
 * for the devnet's compiler and vice versa.
 */
export interface CommandModule {
  run(args: string[]): Promise<number>;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  serve: { summary: "run the HTTP API", load: () => import("./serve.js") },
  index: { summary: "run the chain indexer", load: () => import("./index-chains.js") },
  "check-config": {
    summary: "check a configuration against its live chains",
    load: () => import("./check-config.js"),
  },
  import: {
    summary: "import bridge transactions from a JSONL file",
    load: () => import("./import.js"),
  },
  generate: {
    summary: "write synthetic bridge transactions as JSONL",
    load: () => import("./generate.js"),
  },
  devnet: {
    summary: "run local anvil chains with our bridges, a relayer and traffic",
    load: () => import("./devnet.js"),
  },
  compile: {
    summary: "compile the devnet's Solidity contracts",
    load: () => import("./compile.js"),
  },
  keys: { summary: "create, list and revoke API keys", load: () => import("./keys.js") },
  webhooks: {
    summary: "create, list and delete webhook subscriptions; see deliveries",
    load: () => import("./webhooks.js"),
  },
  deliver: { summary: "run the webhook delivery process", load: () => import("./deliver.js") },
  bench: {
    summary: "run a benchmark (list | router | index | push)",
    load: () => import("./bench.js"),
  },
  start: {
    summary: "devnet + indexer + API on SQLite, all in one (npm start)",
    load: () => import("./start.js"),
  },
};

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return `usage: bridge-oracle <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

let outputWatched = false;

/**
 * Standard output or error closed by its reader (`bridge-oracle index | head -1`, a log
 * shipper that died): the next write fails with EPIPE, which Node emits as an 'error' event on
 * the stream, and unhandled it ended `index` or `devnet` at once, mid-batch, with nothing said
 * (the devnet's lock file left behind), while `serve` stayed up without ever listening. A
 * closed output is taken as the pipe's way of saying stop, as SIGPIPE says it to other programs: the process sends itself SIGTERM, so each command stops
 * the way it documents for SIGTERM (the indexer finishes its batch, `serve` drains its requests,
 * `devnet` stops its nodes; a command without a SIGTERM handler ends at once).
 */
export function stopOnClosedOutput(): void {
  if (outputWatched) return;
  outputWatched = true;
  let signalled = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      if (signalled) return;
      signalled = true;
      process.kill(process.pid, "SIGTERM");
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  stopOnClosedOutput();
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(usage());
    return name === undefined ? 1 : 0;
  }
  // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`unknown command: ${name}\n\n${usage()}`);
    return 1;
  }
  let module: CommandModule;
  try {
    module = await command.load();
  } catch (error) {
    process.stderr.write(`command ${name} is not available in this build: ${String(error)}\n`);
    return 1;
  }
  return module.run(args);
}
