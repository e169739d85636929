/**
 * The metrics an operator reads about are the metrics /metrics serves: the table in
 * docs/operations.md lists exactly the bridge_oracle_* families of the exposition, with their
 * type and labels; every bridge_oracle_* name the docs mention exists; every PromQL query in the
 * docs and every rule of docs/prometheus-alerts.yml names existing metrics and applies rate()
 * only to counters (or a histogram's _bucket / _sum / _count); and the rules file has the
 * structure Prometheus loads, with a runbook section for each alert.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { Gauge } from "prom-client";
import { parse as parseYaml } from "yaml";
import { createApiMetrics, METRIC_NAMES } from "../../src/api/plugins/metrics.js";
import { WEBHOOK_METRIC_NAMES } from "../../src/api/plugins/webhook-metrics.js";

const root = resolve(import.meta.dirname, "../..");
const operations = readFileSync(join(root, "docs/operations.md"), "utf8");
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

interface Family {
  type: string;
  labels: Set<string>;
}

/** The bridge_oracle_* families /metrics serves, with every series present once. */
async function exposedFamilies(): Promise<Map<string, Family>> {
  const metrics = createApiMetrics({
    defaultMetrics: false,
    collectIndexerStatus: async () => [
      {
        chain: "alpha",
        chainId: 71001,
        indexedBlock: 10,
        head: 12,
        lag: 0,
        stopped: false,
        retrying: false,
        leader: "indexer-1:4242",
        updatedAt: 1_795_000_000,
      },
    ],
    collectRouterStateAges: () => [{ chain: "alpha", chainId: 71001, ageSeconds: 1.5 }],
    collectWebhookSlots: async () => ({
      busy: 3,
      maxPerSubscription: 2,
      maxPerKey: 3,
      heldBack: 7,
    }),
    webhooks: {
      collect: async (now) => ({
        pending: 2,
        due: 1,
        fanOutBacklog: 3,
        oldestPendingAt: now - 5000,
        liveProcesses: 1,
        activeSubscriptions: 2,
        disabledSubscriptions: 0,
        failing: [{ subscriptionId: 7, failingSince: now - 60_000 }],
        counts: new Map([["attempts:delivered", 4]]),
      }),
    },
  });
  // Registered by the rate-limit plugin when REDIS_URL is set (rate-limit.ts).
  new Gauge({
    name: METRIC_NAMES.rateLimitShared,
    help: "shared",
    registers: [metrics.registry],
  }).set(1);
  metrics.observeRequest("/api/oracle/bridge-transactions", "GET", 200, 0.002);
  metrics.recordQuote(1);
  const { body } = await metrics.render();
  const families = new Map<string, Family>();
  for (const line of body.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) families.set(type[1] ?? "", { type: type[2] ?? "", labels: new Set() });
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} /.exec(line);
    if (sample === null) continue;
    const name = (sample[1] ?? "").replace(/_(bucket|sum|count)$/, "");
    const family = families.get(name) ?? families.get(sample[1] ?? "");
    for (const label of (sample[2] ?? "").matchAll(/([a-zA-Z_]+)="/g)) {
      if (label[1] !== "le") family?.labels.add(label[1] ?? "");
    }
  }
  return families;
}

/** Rows of the metrics table in operations.md: name, type and labels. */
function documentedFamilies(): Map<string, Family> {
  const section = operations.split(/^## Metrics$/m)[1]?.split(/^## /m)[0] ?? "";
  const rows = new Map<string, Family>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const name = /^`(bridge_oracle_\w+)`$/.exec(cells[1] ?? "")?.[1];
    if (name === undefined) continue;
    const labels = [...(cells[3] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] ?? "");
    rows.set(name, { type: cells[2] ?? "", labels: new Set(labels) });
  }
  return rows;
}

/** Every PromQL expression of the docs: ```promql blocks, and the rules file's exprs. */
function promqlBlocks(): { where: string; expr: string }[] {
  const out: { where: string; expr: string }[] = [];
  for (const document of documents) {
    const markdown = readFileSync(join(root, document), "utf8");
    for (const block of markdown.matchAll(/^```promql\n([\s\S]*?)^```/gm)) {
      for (const line of (block[1] ?? "").split("\n")) {
        if (line.trim() !== "" && !line.startsWith("#")) out.push({ where: document, expr: line });
      }
    }
  }
  for (const rule of alertRules()) out.push({ where: `alert ${rule.alert}`, expr: rule.expr });
  return out;
}

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function alertRules(): AlertRule[] {
  const parsed = parseYaml(readFileSync(join(root, "docs/prometheus-alerts.yml"), "utf8")) as {
    groups: { name: string; rules: AlertRule[] }[];
  };
  return parsed.groups.flatMap((group) => group.rules);
}

/** GitHub's heading anchors (as in links.test.ts), without repeats. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, "").split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    out.add(
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return out;
}

/** Metrics Prometheus itself adds to every target. */
const SYNTHETIC = new Set(["up", "scrape_duration_seconds", "scrape_samples_scraped"]);

describe("metrics in the docs", () => {
  it("operations.md's metrics table is exactly the bridge_oracle_* families of /metrics", async () => {
    const exposed = await exposedFamilies();
    const bridgeOracle = new Map(
      [...exposed].filter(([name]) => name.startsWith("bridge_oracle_")),
    );
    const documented = documentedFamilies();
    assert.deepEqual([...documented.keys()].sort(), [...bridgeOracle.keys()].sort());
    assert.deepEqual(
      [...bridgeOracle.keys()].sort(),
      [...Object.values(METRIC_NAMES), ...Object.values(WEBHOOK_METRIC_NAMES)].sort(),
    );
    for (const [name, family] of documented) {
      const served = bridgeOracle.get(name) as Family;
      assert.equal(family.type, served.type, `${name}: type`);
      assert.deepEqual([...family.labels].sort(), [...served.labels].sort(), `${name}: labels`);
    }
  });

  it("every bridge_oracle_* name the docs mention is served", async () => {
    const exposed = await exposedFamilies();
    const unknown: string[] = [];
    for (const document of [...documents, "docs/prometheus-alerts.yml"]) {
      const text = readFileSync(join(root, document), "utf8");
      // PostgreSQL NOTIFY channels share the prefix: `NOTIFY x`, `LISTEN x`, pg_notify('x'.
      const channels = /(NOTIFY|LISTEN|pg_notify\(')\s*$/;
      for (const match of text.matchAll(/\bbridge_oracle_[a-z_]*[a-z]\b/g)) {
        const name = match[0];
        if (channels.test(text.slice(Math.max(0, match.index - 12), match.index))) continue;
        const family = name.replace(/_(bucket|sum|count)$/, "");
        const histogramPart = family !== name && exposed.get(family)?.type === "histogram";
        if (!exposed.has(name) && !histogramPart) unknown.push(`${document}: ${name}`);
      }
    }
    assert.deepEqual(unknown, []);
  });

  it("PromQL in the docs and rules: known metrics, rate() and increase() only over counters", async () => {
    const exposed = await exposedFamilies();
    const problems: string[] = [];
    const typeOf = (name: string): string | undefined => {
      if (exposed.has(name)) return exposed.get(name)?.type;
      const family = name.replace(/_(bucket|sum|count)$/, "");
      return exposed.get(family)?.type === "histogram" ? "counter" : undefined;
    };
    const blocks = promqlBlocks();
    assert.ok(blocks.length >= 8, "the docs' queries and the rules were found");
    for (const { where, expr } of blocks) {
      const names = [...expr.matchAll(/\b(bridge_oracle_\w+|process_\w+|nodejs_\w+)\b/g)].map(
        (m) => m[1] ?? "",
      );
      for (const name of names) {
        if (name.startsWith("bridge_oracle_") && typeOf(name) === undefined) {
          problems.push(`${where}: unknown metric ${name}`);
        }
      }
      for (const call of expr.matchAll(/\b(rate|irate|increase)\(\s*(\w+)/g)) {
        const name = call[2] ?? "";
        if (name.startsWith("bridge_oracle_") && typeOf(name) !== "counter") {
          problems.push(`${where}: ${call[1]}() over ${name}, which is not a counter`);
        }
      }
      for (const call of expr.matchAll(/\bhistogram_quantile\([^,]+,[\s\S]*?\b(\w+)\{/g)) {
        if (!(call[1] ?? "").endsWith("_bucket")) {
          problems.push(`${where}: histogram_quantile over ${call[1]}, not a _bucket series`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it("prometheus-alerts.yml: Prometheus's rule file shape, a runbook section for each alert", () => {
    const parsed = parseYaml(readFileSync(join(root, "docs/prometheus-alerts.yml"), "utf8"));
    assert.deepEqual(Object.keys(parsed), ["groups"]);
    const anchors = anchorsOf(operations);
    const names = new Set<string>();
    for (const group of parsed.groups) {
      assert.equal(typeof group.name, "string");
      assert.ok(
        Array.isArray(group.rules) && group.rules.length > 0,
        "Array.isArray(group.rules) && group.rules.length > 0",
      );
      for (const rule of group.rules as AlertRule[]) {
        const allowed = ["alert", "expr", "for", "keep_firing_for", "labels", "annotations"];
        const extra = Object.keys(rule).filter((key) => !allowed.includes(key));
        assert.deepEqual(extra, [], `${rule.alert}: unknown keys`);
        assert.match(rule.alert, /^[A-Za-z_][A-Za-z0-9_]*$/);
        assert.ok(!names.has(rule.alert), `${rule.alert} twice`);
        names.add(rule.alert);
        assert.equal(typeof rule.expr, "string");
        assert.ok(rule.expr.trim().length > 0, "rule.expr.trim().length > 0");
        // Balanced brackets: a typo there is the commonest unparsable expression.
        for (const [open, close] of ["()", "{}", "[]"]) {
          const count = (c: string) => rule.expr.split(c).length - 1;
          assert.equal(count(open as string), count(close as string), `${rule.alert}: ${open}`);
        }
        if (rule.for !== undefined) assert.match(rule.for, /^\d+[smhdwy]$/);
        for (const value of Object.values({ ...rule.labels, ...rule.annotations })) {
          assert.equal(typeof value, "string");
        }
        const runbook = rule.annotations?.runbook_url ?? "";
        assert.equal(runbook, `docs/operations.md#${rule.alert.toLowerCase()}`);
        assert.ok(anchors.has(rule.alert.toLowerCase()), `no runbook section ### ${rule.alert}`);
        const metrics = [...rule.expr.matchAll(/\b([a-z_]+)\s*(?:\{|\[|\)|$| [=<>!])/g)]
          .map((m) => m[1] ?? "")
          .filter((name) => name.includes("_") || SYNTHETIC.has(name));
        assert.ok(metrics.length > 0, `${rule.alert}: names no metric`);
      }
    }
    // Every runbook section under "## Alerts" has its rule.
    const section = operations.split(/^## Alerts$/m)[1]?.split(/^## /m)[0] ?? "";
    const sections = [...section.matchAll(/^### (\w+)$/gm)].map((m) => m[1]);
    assert.deepEqual(sections.sort(), [...names].sort());
  });

  it("prometheus-alerts.yml: promtool (Debian's prometheus package) checks the rules", () => {
    let output: string;
    try {
      output = execFileSync("promtool", ["check", "rules", "docs/prometheus-alerts.yml"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
      if (failure.code === "ENOENT") {
        throw new Error("promtool is not installed: `apt-get install prometheus` (.ci/run does)");
      }
      throw new Error(`promtool refuses the rules:\n${failure.stdout}${failure.stderr}`);
    }
    assert.match(output, /SUCCESS: \d+ rules found/);
  });
});
