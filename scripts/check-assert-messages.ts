/**
 * Every `assert(x)` / `assert.ok(x)` in this repository carries a message (`npm run lint`).
 *
 * Why: when such a call fails without one, Node builds the message from the call's source text,
 * found by the call site's line and column. Under tsx those are positions in the compiled
 * module, not in the .ts file Node reads, so the message is at best `false == true`; in some
 * files (the stream tests, issue #25) the search re-parsed ever longer slices of the file and a
 * failing test spun for minutes instead of failing. With a message, Node reads nothing. `--fix`
 * appends the asserted expression's own text as the message (what Node would have printed).
 *
 *   node --import tsx scripts/check-assert-messages.ts [--fix]
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOTS = ["src", "test", "bench", "scripts", "packages"];
const SKIP = new Set(["node_modules", "dist", "artifacts"]);
const ASSERT_MODULES = new Set(["node:assert", "node:assert/strict", "assert", "assert/strict"]);

function sourceFiles(path: string, out: string[] = []): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return out;
  if (stat.isFile()) {
    if (/\.(ts|mts|tsx)$/.test(path) && !path.endsWith(".d.ts")) out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) {
    if (!SKIP.has(entry) && !entry.startsWith(".")) sourceFiles(join(path, entry), out);
  }
  return out;
}

interface Finding {
  line: number;
  /** Where the message goes: right after the one argument. */
  insertAt: number;
  expression: string;
}

/** Calls of node:assert's `ok` (as the default export, `.ok` or a named `ok`) with one argument. */
export function bareAssertions(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const okNames = new Set<string>();
  const moduleNames = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) {
      continue;
    }
    if (!ASSERT_MODULES.has(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name !== undefined) {
      okNames.add(clause.name.text);
      moduleNames.add(clause.name.text);
    }
    const bindings = clause?.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) {
      moduleNames.add(bindings.name.text);
    } else if (bindings !== undefined) {
      for (const element of bindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (imported === "ok" || imported === "strict" || imported === "default") {
          okNames.add(element.name.text);
        }
      }
    }
  }
  const findings: Finding[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const callee = node.expression;
      const isOk =
        (ts.isIdentifier(callee) && okNames.has(callee.text)) ||
        (ts.isPropertyAccessExpression(callee) &&
          callee.name.text === "ok" &&
          ts.isIdentifier(callee.expression) &&
          moduleNames.has(callee.expression.text));
      if (isOk) {
        const argument = node.arguments[0]!;
        findings.push({
          line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          insertAt: argument.getEnd(),
          expression: argument.getText().replace(/\s+/g, " "),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

function main() {
  const fix = process.argv.includes("--fix");
  const found: string[] = [];
  for (const file of ROOTS.flatMap((root) => sourceFiles(root))) {
    const text = readFileSync(file, "utf8");
    const findings = bareAssertions(file, text);
    if (findings.length === 0) continue;
    if (fix) {
      let fixed = text;
      for (const f of [...findings].sort((a, b) => b.insertAt - a.insertAt)) {
        // A template's placeholder in a plain string reads as a mistake (biome warns on it).
        const plain = f.expression.replaceAll("${", "{");
        const message = plain.length > 120 ? `${plain.slice(0, 117)}...` : plain;
        fixed = `${fixed.slice(0, f.insertAt)}, ${JSON.stringify(message)}${fixed.slice(f.insertAt)}`;
      }
      writeFileSync(file, fixed);
    }
    for (const f of findings) found.push(`${relative(".", file)}:${f.line}: ${f.expression}`);
  }
  if (found.length === 0) return;
  if (fix) {
    console.log(`gave ${found.length} assertions their expression as the message`);
    return;
  }
  console.error(
    `${found.length} assert/assert.ok calls without a message (a failure under tsx can spin for` +
      " minutes; scripts/check-assert-messages.ts says why; --fix adds one):",
  );
  for (const line of found) console.error(`  ${line}`);
  process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
