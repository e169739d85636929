/**
 * Every relative link and #anchor in README.md and docs/*.md resolves: the file exists and, for
 * an anchor, the target document has a heading whose GitHub slug it is. Links to other sites
 * are not followed (no network in tests).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const root = resolve(import.meta.dirname, "../..");
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens, -1 for repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, "").split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/<[^>]*>/g, "")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

function links(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...reference].filter((l): l is string => l !== undefined);
}

describe("documentation links", () => {
  for (const document of documents) {
    it(`${document}: every relative link and anchor resolves`, () => {
      const markdown = readFileSync(join(root, document), "utf8");
      const broken: string[] = [];
      for (const link of links(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path = "", anchor] = link.split("#", 2);
        const target =
          path === ""
            ? join(root, document)
            : resolve(dirname(join(root, document)), decodeURI(path));
        if (!existsSync(target)) {
          broken.push(`${link} (no ${relative(root, target)})`);
          continue;
        }
        if (anchor === undefined || anchor === "") continue;
        if (!statSync(target).isFile() || !target.endsWith(".md")) {
          broken.push(`${link} (an anchor into a file that is not markdown)`);
          continue;
        }
        if (!anchors(readFileSync(target, "utf8")).has(anchor)) {
          broken.push(`${link} (no heading '#${anchor}' in ${relative(root, target)})`);
        }
      }
      assert.deepEqual(broken, []);
    });
  }

  it("anchors: GitHub's slugs", () => {
    const slugs = anchors("# API keys and rate limits\n## `npm start`: one\n## Tests\n## Tests\n");
    assert.deepEqual([...slugs], ["api-keys-and-rate-limits", "npm-start-one", "tests", "tests-1"]);
  });
});
