/**
 * Colour contrast of the explorer's theme, both light and dark (styles.css custom properties):
 * every text / background pair the page uses reaches WCAG AA (4.5:1), and the token chips' white
 * letter does on every hue. axe-core checks the rendered page too, but flags text over
 * animated or layered backgrounds only for manual review; this is that review, made a test.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

const css = readFileSync(new URL("./styles.css", import.meta.url), "utf8");

function variables(block: string): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [
      m[1] as string,
      m[2] as string,
    ]),
  );
}

const light = variables(css.slice(0, css.indexOf("@media (prefers-color-scheme: dark)")));
const darkStart = css.indexOf("@media (prefers-color-scheme: dark)");
const dark = { ...light, ...variables(css.slice(darkStart, css.indexOf("}\n}", darkStart))) };

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** [text, background] custom properties used together on the page. */
const PAIRS: [string, string][] = [
  ["fg", "bg"],
  ["fg", "card"],
  ["muted", "bg"],
  ["muted", "card"],
  ["muted", "chip-bg"],
  ["accent", "bg"],
  ["accent", "card"],
  ["on-accent", "accent"],
  ["accent", "accent-bg"],
  ["ok", "ok-bg"],
  ["ok", "card"],
  ["bad", "bad-bg"],
  ["bad", "card"],
  ["wait", "wait-bg"],
  ["wait", "card"],
  ["info", "info-bg"],
  ["info", "card"],
  ["fg", "chip-bg"],
  ["fg", "new-bg"],
  ["accent", "new-bg"],
  ["muted", "new-bg"],
];

describe("explorer colour contrast", () => {
  for (const [name, theme] of [
    ["light", light],
    ["dark", dark],
  ] as const) {
    it(`default: every text colour pair reaches 4.5:1 in the ${name} theme`, () => {
      const low = PAIRS.map(([text, background]) => {
        const [t, b] = [theme[text], theme[background]];
        assert.ok(t !== undefined && b !== undefined, `--${text} and --${background} are defined`);
        return [`${text} on ${background}`, contrast(t, b)] as const;
      }).filter(([, ratio]) => ratio < 4.5);
      assert.deepEqual(low, [], `${name} theme pairs below 4.5:1`);
    });
  }

  it("default: the dark theme changes every colour the light one sets", () => {
    for (const name of Object.keys(light)) {
      assert.notEqual(dark[name], light[name], `--${name} differs in the dark theme`);
    }
  });

  it("default: a token chip's white letter reaches 4.5:1 on every hue", () => {
    for (let hue = 0; hue < 360; hue++) {
      const ratio = contrast("#ffffff", hslToHex(hue, 0.6, 0.28));
      assert.ok(ratio >= 4.5, `hue ${hue}: ${ratio.toFixed(2)}`);
    }
  });
});
