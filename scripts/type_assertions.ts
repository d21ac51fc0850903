/**
 * The type assertions (`x as T`, `<T>x`, `x!`) in product code: `src/` without tests, counted
 * with TypeScript's own parser, so a word "as" in a comment or string is not one. Each assertion
 * must carry a comment saying why (on its line or the line above); the architecture test keeps
 * their number under a ceiling.
 *
 *   deno run --allow-read scripts/type_assertions.ts [--list]
 *
 * @module
 */

import ts from "typescript";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** One assertion in a file. */
export interface Assertion {
  /** The file, relative to the repository. */
  path: string;
  /** The line, 1-based. */
  line: number;
  /** The assertion's text, shortened. */
  text: string;
  /** `as` (and `<T>x`), or `!`. */
  kind: "as" | "!";
  /** Whether a comment on its line or the line above says why. */
  explained: boolean;
}

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

/**
 * The type assertions of one source text; `as const` is not one.
 *
 * @param path the file's path, for the result
 * @param text the source
 */
export function assertionsIn(path: string, text: string): Assertion[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const found: Assertion[] = [];
  const visit = (node: ts.Node) => {
    const isConst = (type: ts.TypeNode) =>
      ts.isTypeReferenceNode(type) && type.typeName.getText(source) === "const";
    if (
      (ts.isAsExpression(node) && !isConst(node.type)) ||
      (ts.isTypeAssertionExpression(node) && !isConst(node.type)) ||
      ts.isNonNullExpression(node)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const nearby = [lines[line - 1] ?? "", lines[line] ?? ""];
      found.push({
        path,
        kind: ts.isNonNullExpression(node) ? "!" : "as",
        line: line + 1,
        text: node.getText(source).replace(/\s+/g, " ").slice(0, 80),
        explained: nearby.some((l) => /\/\/|\/\*|^\s*\*/.test(l)),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Every type assertion in the product code under `src/` (tests excluded).
 *
 * @param root the repository root
 */
export async function productAssertions(root = REPO_ROOT): Promise<Assertion[]> {
  const all: Assertion[] = [];
  for await (const file of walk(join(root, "src"))) {
    // The sandbox and test helpers never ship (they are moving out of src/).
    if (/\/src\/(sandbox|testing)\//.test(file)) continue;
    all.push(...assertionsIn(relative(root, file), await Deno.readTextFile(file)));
  }
  return all.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
}

if (import.meta.main) {
  const all = await productAssertions();
  if (Deno.args.includes("--list")) {
    for (const a of all) {
      console.log(`${a.path}:${a.line}${a.explained ? "" : " (no comment)"}: ${a.text}`);
    }
  }
  const byFile = new Map<string, number>();
  for (const a of all) byFile.set(a.path, (byFile.get(a.path) ?? 0) + 1);
  for (const [path, n] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`${String(n).padStart(4)} ${path}`);
  }
  const as = all.filter((a) => a.kind === "as").length;
  console.log(
    `${all.length} type assertions (${as} as, ${all.length - as} !), ` +
      `${all.filter((a) => !a.explained).length} unexplained`,
  );
}
