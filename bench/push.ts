/**
 * `npm run bench:push`. This file holds the webhook half until the stream half
 * (1,000 concurrent streams under the list mix) joins it: the latency from a change's commit to
 * its webhook's arrival, at 100 changes/s (push-webhooks.ts). Writes the "push: webhooks"
 * section of bench/RESULTS.md.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeResultsSection } from "./list-report.js";
import {
  formatWebhookLatency,
  measureWebhookLatency,
  type WebhookLatencyResult,
} from "./push-webhooks.js";

const ROOT = join(import.meta.dirname, "..");

const USAGE = `usage: npm run bench:push -- [--store sqlite|postgres|both] [--seconds N] [--no-write]

  --store      where the change log and the deliveries live (default both; PostgreSQL from
               DATABASE_URL or --database-url, in a schema of its own, dropped after)
  --seconds N  measured seconds per store at 100 changes/s (default 20, after 3 s of warm-up)
  --no-write   print the section instead of replacing it in bench/RESULTS.md
`;

export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      store: { type: "string", default: "both" },
      seconds: { type: "string", default: "20" },
      "database-url": { type: "string" },
      "no-write": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const stores =
    values.store === "both"
      ? (["sqlite", "postgres"] as const)
      : [values.store as "sqlite" | "postgres"];
  const seconds = Number(values.seconds);
  const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
  const loadBefore = loadavg();
  const results: WebhookLatencyResult[] = [];
  for (const store of stores) {
    process.stderr.write(`webhook latency on ${store}: ${seconds} s at 100 changes/s ...\n`);
    results.push(
      await measureWebhookLatency({
        store,
        seconds,
        ...(store === "postgres" && databaseUrl?.startsWith("postgres") ? { databaseUrl } : {}),
      }),
    );
  }
  const cpu = cpus();
  const section = [
    "## push: webhooks",
    "",
    `- Command: \`npm run bench:push -- --store ${values.store} --seconds ${seconds}\``,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu[0]?.model.trim() ?? "?"}, ${cpu.length} cores, Node ${process.version}; load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(2)).join(" / ")} at start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")} at end`,
    "- What: from the commit of a change (the writer's upsert resolved) to its webhook's arrival at a receiver on loopback answering 200; 100 changes/s in one transaction each (half creations, half settlements), 3 s of warm-up not counted; `bridge-oracle deliver` in its own process on the same database (default settings: SQLite polls every 200 ms, PostgreSQL is woken by NOTIFY), the writer and the receiver in the benchmark's process.",
    ...(loadBefore[0]! > cpu.length
      ? [
          `- **Busy machine**: 1-minute load average ${loadBefore[0]!.toFixed(1)} on ${cpu.length} cores at start (other processes were running): the writer, the delivery process and the database shared what was left.`,
        ]
      : []),
    "",
    ...formatWebhookLatency(results),
  ].join("\n");
  if (values["no-write"]) process.stdout.write(`${section}\n`);
  else await writeResultsSection(join(ROOT, "bench", "RESULTS.md"), "push: webhooks", section);
  return results.every((r) => r.delivered === r.changes) ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
