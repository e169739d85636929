/**
 * axe-core in the page under test: its source is evaluated through the DevTools protocol
 * (page.evaluate is not subject to the page's Content-Security-Policy, which allows no inline
 * script), then `axe.run` reports. Serious and critical violations fail the test, listed with
 * their rule, help text and the offending elements.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

export async function assertNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  source ??= readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  const script = await source;
  // A string is evaluated as a script by the protocol itself (an eval() in the page would be
  // refused by its CSP).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(`${script}\n;0`);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } };
    const result = await w.axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    serious.map(
      (v) => `${v.impact} ${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    ),
    [],
    `axe-core on ${label}`,
  );
}
