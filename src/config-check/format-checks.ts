/**
 * `check-config`'s text output: one line per check (`OK  `, `FAIL`, `SKIP`, then its message),
 * failures last so they are what stays on screen, and a summary line. Pure.
 */
import type { ConfigCheck, ConfigCheckStatus } from "../domain/config-check.js";

export type ConfigCheckSummary = Record<ConfigCheckStatus, number>;

export function summariseChecks(checks: readonly ConfigCheck[]): ConfigCheckSummary {
  const summary: ConfigCheckSummary = { ok: 0, fail: 0, skip: 0 };
  for (const c of checks) summary[c.status]++;
  return summary;
}

const LABEL: Record<ConfigCheckStatus, string> = { ok: "OK  ", skip: "SKIP", fail: "FAIL" };
const ORDER: Record<ConfigCheckStatus, number> = { ok: 0, skip: 1, fail: 2 };

export function formatChecks(checks: readonly ConfigCheck[], source: string): string {
  // A stable sort: within a status, the order the checks were made (chain by chain).
  const sorted = [...checks].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  const lines = sorted.map((c) => `${LABEL[c.status]} ${c.message}`);
  const s = summariseChecks(checks);
  const verdict =
    s.fail === 0 ? "the configuration matches its chains" : `${s.fail} failed: fix the FAIL lines`;
  lines.push(
    `${source}: ${checks.length} checks, ${s.ok} ok, ${s.fail} failed, ${s.skip} skipped: ${verdict}`,
  );
  return `${lines.join("\n")}\n`;
}
