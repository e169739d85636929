/**
 * `bridge-oracle generate --count N --out FILE [--seed S] [--hot-addresses K --hot-share P]`:
 * writes N synthetic bridge transactions as JSONL (src/transfers/generate.ts), for demos and
 * benchmarks. The output imports with `bridge-oracle import FILE`.
 */
import { parseArgs } from "node:util";
import { createTransferGenerator, GENERATE_DEFAULTS } from "../transfers/generate.js";
import { writeJsonl } from "../transfers/write-jsonl.js";
import type { CliOutput } from "./import.js";

const USAGE = `usage: bridge-oracle generate --count N --out FILE [--seed S]
                               [--hot-addresses K] [--hot-share P]

Writes N realistic synthetic bridge transactions as JSONL (one record per line, the API's record
shape): several EVM chains and one non-EVM chain, tokens with their real decimals, all three
statuses, fees, increasing times, and K "hot" addresses that take part in a share P of all
transfers (for benchmarks: the defaults give 2 addresses with about 125,000 transfers each in
1,000,000 records). The same options and seed always give the same file.

  --count N          number of records (required)
  --out FILE         output path (required; written atomically)
  --seed S           integer seed (default ${GENERATE_DEFAULTS.seed})
  --hot-addresses K  number of hot addresses (default ${GENERATE_DEFAULTS.hotAddresses})
  --hot-share P      share of records, 0..1, involving a hot address (default ${GENERATE_DEFAULTS.hotShare})
`;

export async function run(args: string[], deps: { output?: CliOutput } = {}): Promise<number> {
  const { stdout, stderr } = deps.output ?? process;
  let options: ReturnType<typeof parseGenerateArgs>;
  try {
    options = parseGenerateArgs(args);
  } catch (error) {
    stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (options === "help") {
    stdout.write(USAGE);
    return 0;
  }
  const started = performance.now();
  const generator = createTransferGenerator(options);
  const tty = stderr.isTTY === true;
  try {
    const result = await writeJsonl(options.out, generator.records(), {
      onProgress: tty
        ? (written) => {
            if (written % 50_000 === 0 || written === options.count) {
              const percent = ((written / Math.max(options.count, 1)) * 100).toFixed(0);
              stderr.write(`\r\x1b[Kgenerating: ${written.toLocaleString("en-US")} (${percent}%)`);
            }
          }
        : undefined,
    });
    if (tty) stderr.write("\r\x1b[K");
    const seconds = (performance.now() - started) / 1000;
    stdout.write(
      `wrote ${result.records} records (${(result.bytes / 1e6).toFixed(1)} MB) to ${options.out}` +
        ` in ${seconds.toFixed(2)} s\nhot addresses: ${generator.hotAddresses.join(", ") || "none"}\n`,
    );
    return 0;
  } catch (error) {
    if (tty) stderr.write("\r\x1b[K");
    stderr.write(`cannot write ${options.out}: ${(error as Error).message}\n`);
    return 1;
  }
}

function parseGenerateArgs(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      count: { type: "string" },
      out: { type: "string" },
      seed: { type: "string" },
      "hot-addresses": { type: "string" },
      "hot-share": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help" as const;
  if (positionals.length > 0) throw new Error(`unexpected argument: ${positionals[0]}`);
  if (values.count === undefined) throw new Error("--count is required");
  if (values.out === undefined || values.out === "") throw new Error("--out is required");
  const integer = (name: string, text: string, max: number): number => {
    const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= 0 && n <= max))
      throw new Error(`${name} must be an integer from 0 to ${max}, got '${text}'`);
    return n;
  };
  const share = values["hot-share"] ?? String(GENERATE_DEFAULTS.hotShare);
  const hotShare = /^(0|1|0?\.[0-9]+|1\.0*)$/.test(share) ? Number(share) : Number.NaN;
  if (!(hotShare >= 0 && hotShare <= 1)) {
    throw new Error(`--hot-share must be a number from 0 to 1, got '${share}'`);
  }
  return {
    count: integer("--count", values.count, 2 ** 30 - 1),
    out: values.out,
    seed: integer("--seed", values.seed ?? String(GENERATE_DEFAULTS.seed), 2 ** 32 - 1),
    hotAddresses: integer(
      "--hot-addresses",
      values["hot-addresses"] ?? String(GENERATE_DEFAULTS.hotAddresses),
      1000,
    ),
    hotShare,
  };
}
