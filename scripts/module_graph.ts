/**
 * Which folder of `src/` imports which: one line per folder with the folders its non-test
 * modules import, static and dynamic imports told apart. For reviewing the direction of the
 * flow (cli and mcp → session → shortcuts/auth → http → …).
 *
 *   deno run --allow-read scripts/module_graph.ts [root]   # root defaults to this checkout
 *
 * @module
 */

import { join, relative } from "node:path";

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

/** `src/cli/auth/login.ts` → `cli`; `src/context.ts` → `context.ts`. */
function folderOf(path: string): string {
  const parts = path.split("/");
  return parts.length > 2 ? parts[1] : parts[1] ?? path;
}

/** Folder → folders it imports, with how. */
export type FolderGraph = Map<string, Map<string, "static" | "dynamic">>;

/**
 * The folder graph of `<root>/src`: non-test modules only (test helpers live in
 * `tests/support/`, and the architecture test keeps them out of `src/`).
 *
 * @param root the checkout
 */
export async function folderGraph(root: string): Promise<FolderGraph> {
  const edges: FolderGraph = new Map();
  for await (const file of walk(join(root, "src"))) {
    const from = relative(root, file);
    const text = await Deno.readTextFile(file);
    const found: [string, "static" | "dynamic"][] = [
      ...[...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']+)["']/gms)]
        .map((m): [string, "static"] => [m[1], "static"]),
      ...[...text.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)]
        .map((m): [string, "dynamic"] => [m[1], "dynamic"]),
    ];
    for (const [specifier, kind] of found) {
      const target = relative(root, join(file, "..", specifier));
      if (!target.startsWith("src/")) continue;
      const a = folderOf(from);
      const b = folderOf(target);
      if (a === b) continue;
      const row = edges.get(a) ?? new Map();
      if (row.get(b) !== "static") row.set(b, kind);
      edges.set(a, row);
    }
  }
  return edges;
}

/**
 * The folder cycles of a graph (`a → b → a`) through static imports, each as the list of
 * folders on it. An `import()` is left out: it is how the command table starts a command's
 * code (`hark mcp` loads `src/mcp/`), not a dependency of the importing folder's code.
 *
 * @param graph the folder graph
 */
export function folderCycles(graph: FolderGraph): string[][] {
  const cycles: string[][] = [];
  const visit = (node: string, path: string[]) => {
    const row = graph.get(node) ?? new Map();
    for (const next of [...row.keys()].filter((k) => row.get(k) === "static")) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next]);
      else visit(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  const seen = new Set<string>();
  return cycles.filter((c) => {
    const key = [...c.slice(0, -1)].sort().join(",");
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

if (import.meta.main) {
  const root = Deno.args[0] ?? new URL("..", import.meta.url).pathname;
  const edges = await folderGraph(root);
  for (const from of [...edges.keys()].sort()) {
    const row = edges.get(from)!;
    const targets = [...row.keys()].sort().map((t) => row.get(t) === "dynamic" ? `${t}*` : t);
    console.log(`${from.padEnd(12)} → ${targets.join(", ")}`);
  }
  console.log("(* only through a dynamic import(): loaded when that code runs)");
  const cycles = folderCycles(edges);
  console.log(
    cycles.length === 0 ? "no cycles" : `cycles: ${cycles.map((c) => c.join(" → ")).join("; ")}`,
  );
}
