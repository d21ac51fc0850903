/**
 * Fewer, larger chunks: the second step of `scripts/bundle.ts`. Deno's bundler splits the code
 * by which dynamic imports reach it, so a command loads a few dozen small files (`contact +me`
 * loaded 49, `--version` 21), and each file costs more than its bytes: resolving and reading it,
 * looking up its code cache, instantiating and evaluating it as a module; run from source with
 * lazy dynamic imports, Deno also builds the module graph of each new file. Measured with valgrind
 * on the bench machine: the 13 chunks the shortcut runtime imports cost 20.9 M instructions to
 * load, the same code and 100 KB more bundled as one file 11.4 M.
 *
 * Two kinds of merge, neither adding a file to what any command loads:
 *
 * - Every chunk the entry imports statically runs at every start-up anyway: they become one
 *   chunk (the entry stays a file of its own: its top-level `await` would hold up a chunk that
 *   imports from it).
 * - A chunk K goes into a chunk J that is loaded whenever K is: every entry point (the main
 *   entry or an `import()`ed chunk) whose static imports reach K also reaches J. Paths that load
 *   J without K then carry K's bytes, so K goes into J only when the files saved outweigh those
 *   bytes ({@link MODULE_COST_BYTES} per file saved, counted per entry point).
 *
 * A merged chunk's top-level code may then run on a path that did not run it before, which is
 * safe because hark's own modules only declare at their top level, cheaply (constants,
 * functions, classes; a constant that costs work, like the Windows keychain's encoded script, is
 * made on first use); chunks holding a dependency's code, whose top level may act, are never merged, nor
 * are chunks with a default export (the spinner's package). A merge that would make two chunks
 * import each other (through a third) is not made, so modules still evaluate after what they
 * import, and neither is one that would put two different exports of one name in one chunk. Each group is bundled again into the file of its largest member, with the
 * other chunks external, and every import of a member is pointed at that file. The bundler's
 * `// <module path>` comments, which tests use to find a module's chunk, move to the end of a
 * merged file.
 *
 * @module
 */

import { join } from "node:path";

/** A chunk's fixed cost to load, in bytes of code that cost as much (measured, see above). */
export const MODULE_COST_BYTES = 14_000;

/** What the plan needs to know of a chunk. */
export interface ChunkFacts {
  /** Size in bytes. */
  bytes: number;
  /** Chunks imported statically. */
  imports: string[];
  /** Chunks imported with `import()`. */
  dynamicImports: string[];
  /** Exported names, each with the chunk and the name there it stands for. */
  exports: Map<string, { from: string; name: string }>;
  /** Local names imported from other chunks, each with the chunk and its name there. */
  imported: Map<string, { from: string; name: string }>;
  /**
   * Never merged: it has a default export or an `export *`, or code of a dependency, whose
   * top-level code may do something when it runs (hark's own modules only declare).
   */
  fixed: boolean;
}

/**
 * Reads what the plan needs from a bundle chunk's text.
 *
 * @param name the chunk's file name
 * @param text its source
 */
export function chunkFacts(name: string, text: string): ChunkFacts {
  const imports = new Set<string>();
  const dynamicImports = new Set<string>();
  const statement = /^(?:import|export)\s+(?:[^;"']*?\sfrom\s*)?["']\.\/([^"']+)["']/gm;
  for (const [, specifier] of text.matchAll(statement)) imports.add(specifier);
  for (const [, specifier] of text.matchAll(/\bimport\(\s*["']\.\/([^"']+)["']\s*\)/g)) {
    dynamicImports.add(specifier);
  }
  const exports = new Map<string, { from: string; name: string }>();
  const exportLists = /^export\s*\{([^}]*)\}(?:\s*from\s*["']\.\/([^"']+)["'])?/gm;
  for (const [, list, from] of text.matchAll(exportLists)) {
    for (const [local, exported] of namePairs(list)) {
      exports.set(exported, { from: from ?? name, name: local });
    }
  }
  const imported = new Map<string, { from: string; name: string }>();
  const importLists = /^import\s*\{([^}]*)\}\s*from\s*["']\.\/([^"']+)["']/gm;
  for (const [, list, from] of text.matchAll(importLists)) {
    for (const [theirs, local] of namePairs(list)) imported.set(local, { from, name: theirs });
  }
  const fixed = /^export\s+(?:default\b|\*)/m.test(text) ||
    [...text.matchAll(MARKER)].some(([, path]) => !OWN_MODULE.test(path));
  return {
    bytes: new TextEncoder().encode(text).length,
    imports: [...imports],
    dynamicImports: [...dynamicImports],
    exports,
    imported,
    fixed,
  };
}

/** The `a` / `a as b` items of an import or export list, as [name, alias] pairs. */
function namePairs(list: string): [string, string][] {
  return list.split(",").map((item) => item.trim()).filter(Boolean).map((item) => {
    const [name, alias = name] = item.split(/\s+as\s+/);
    return [name, alias];
  });
}

/**
 * Which chunks to merge: groups of two or more file names, each to become one chunk.
 *
 * @param chunks every chunk of the bundle, by file name
 * @param entry the entry's file name (never merged)
 * @param moduleCost a file's fixed cost in bytes; default {@link MODULE_COST_BYTES}
 */
export function planMerges(
  chunks: ReadonlyMap<string, ChunkFacts>,
  entry: string,
  moduleCost = MODULE_COST_BYTES,
): string[][] {
  const names = [...chunks.keys()].sort();
  const starts = new Set([entry, ...names.flatMap((n) => chunks.get(n)!.dynamicImports)]);
  // The entry points whose static imports load each chunk.
  const reach = new Map(names.map((n) => [n, new Set<string>()]));
  for (const start of starts) {
    for (const name of closure(chunks, start)) reach.get(name)?.add(start);
  }
  const groups = new Map<string, string[]>(); // first member → members
  const groupOf = new Map<string, string>();
  for (const name of names) {
    if (name === entry || chunks.get(name)!.fixed) continue;
    groups.set(name, [name]);
    groupOf.set(name, name);
  }
  const merge = (into: string, from: string) => {
    const moved = groups.get(from)!;
    groups.get(into)!.push(...moved);
    groups.delete(from);
    for (const name of moved) groupOf.set(name, into);
  };
  const undo = (into: string, from: string, moved: string[]) => {
    groups.set(into, groups.get(into)!.filter((n) => !moved.includes(n)));
    groups.set(from, moved);
    for (const name of moved) groupOf.set(name, from);
  };

  // Everything the entry loads statically: one chunk.
  const core = [...groups.keys()].filter((n) => reach.get(n)!.has(entry));
  for (const name of core.slice(1)) merge(core[0], name);

  // Then, while it pays: a group into one that is loaded whenever it is.
  const refused = new Set<string>();
  for (;;) {
    const facts = [...groups].map(([id, members]) => ({
      id,
      reach: new Set(members.flatMap((n) => [...reach.get(n)!])),
      bytes: members.reduce((total, n) => total + chunks.get(n)!.bytes, 0),
      imports: new Set(members.flatMap((n) => chunks.get(n)!.imports)),
    }));
    const byId = new Map(facts.map((f) => [f.id, f]));
    // The entry points that load a chunk's file (its group's, when it is in one).
    const reachOfFile = (name: string) =>
      byId.get(groupOf.get(name) ?? "")?.reach ?? reach.get(name);
    let best: { from: string; into: string; gain: number } | undefined;
    for (const from of facts) {
      for (const into of facts) {
        if (into === from || refused.has(`${from.id} ${into.id}`)) continue;
        if (![...from.reach].every((s) => into.reach.has(s))) continue;
        // What `from` imports must already load wherever `into` does: no path gets a file more.
        const importsLoaded = [...from.imports].every((name) =>
          groupOf.get(name) === into.id || groupOf.get(name) === from.id ||
          [...into.reach].every((s) => reachOfFile(name)?.has(s))
        );
        if (!importsLoaded) continue;
        const gain = from.reach.size * moduleCost -
          from.bytes * (into.reach.size - from.reach.size);
        if (gain > 0 && (best === undefined || gain > best.gain)) {
          best = { from: from.id, into: into.id, gain };
        }
      }
    }
    if (best === undefined) break;
    const moved = groups.get(best.from)!;
    merge(best.into, best.from);
    if (hasCycle(chunks, groupOf) || !exportsAgree(chunks, groups.get(best.into)!)) {
      undo(best.into, best.from, moved);
      refused.add(`${best.from} ${best.into}`);
    }
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort());
}

/**
 * The chunks `start` loads: statically, or also with `import()` when `dynamic`; itself included.
 */
function closure(
  chunks: ReadonlyMap<string, ChunkFacts>,
  start: string,
  dynamic = false,
): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name) || !chunks.has(name)) continue;
    seen.add(name);
    const facts = chunks.get(name)!;
    queue.push(...facts.imports, ...(dynamic ? facts.dynamicImports : []));
  }
  return seen;
}

/** Whether the chunks, with each group as one file, import each other in a circle. */
function hasCycle(
  chunks: ReadonlyMap<string, ChunkFacts>,
  groupOf: ReadonlyMap<string, string>,
): boolean {
  const node = (name: string) => groupOf.get(name) ?? name;
  const edges = new Map<string, Set<string>>();
  for (const [name, facts] of chunks) {
    const from = node(name);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of facts.imports) {
      if (node(target) !== from) edges.get(from)!.add(node(target));
    }
  }
  const state = new Map<string, "open" | "done">();
  const visit = (n: string): boolean => {
    if (state.get(n) === "done") return false;
    if (state.get(n) === "open") return true;
    state.set(n, "open");
    for (const next of edges.get(n) ?? []) if (visit(next)) return true;
    state.set(n, "done");
    return false;
  };
  return [...edges.keys()].some(visit);
}

/** Where an exported name finally comes from, following `export { … } from` chains. */
function binding(
  chunks: ReadonlyMap<string, ChunkFacts>,
  chunk: string,
  name: string,
): string {
  for (let hops = 0; hops < 100; hops++) {
    const facts = chunks.get(chunk);
    const target = facts?.exports.get(name);
    if (target === undefined) return `${chunk}#${name}`;
    const next = target.from !== chunk ? target : facts!.imported.get(target.name);
    if (next === undefined) return `${chunk}#${target.name}`;
    [chunk, name] = [next.from, next.name];
  }
  return `${chunk}#${name}`;
}

/** Whether no name is exported by two members of a group as two different things. */
function exportsAgree(chunks: ReadonlyMap<string, ChunkFacts>, members: string[]): boolean {
  const seen = new Map<string, string>();
  for (const member of members) {
    for (const name of chunks.get(member)!.exports.keys()) {
      const where = binding(chunks, member, name);
      if ((seen.get(name) ?? where) !== where) return false;
      seen.set(name, where);
    }
  }
  return true;
}

/** What {@link mergeChunks} did. */
export interface MergeReport {
  /** Chunk files before. */
  before: number;
  /** Chunk files after. */
  after: number;
  /** Each merged chunk's file name, with the chunks now in it. */
  groups: { file: string; members: string[] }[];
}

/**
 * Merges a bundle folder's chunks as {@link planMerges} plans, in place.
 *
 * @param dir the bundle folder
 * @param entry the entry's file name
 * @param options `env`: the bundler's environment (default: this process's)
 * @throws {Error} when the bundler fails, or when a merged chunk lacks a name an import needs
 */
export async function mergeChunks(
  dir: string,
  entry: string,
  options: { env?: Record<string, string> } = {},
): Promise<MergeReport> {
  const texts = new Map<string, string>();
  for await (const item of Deno.readDir(dir)) {
    if (item.isFile && item.name.endsWith(".js")) {
      texts.set(item.name, await Deno.readTextFile(join(dir, item.name)));
    }
  }
  // Only what the entry can load: files of an earlier bundle in the folder stay as they are.
  const all = new Map([...texts].map(([name, text]) => [name, chunkFacts(name, text)]));
  const chunks = new Map([...closure(all, entry, true)].map((name) => [name, all.get(name)!]));
  for (const name of texts.keys()) if (!chunks.has(name)) texts.delete(name);
  const groups = planMerges(chunks, entry).map((members) => ({
    // The largest member's name: the fewest imports to point elsewhere.
    file: members.reduce((a, b) => chunks.get(b)!.bytes > chunks.get(a)!.bytes ? b : a),
    members,
  }));
  const fileOf = new Map(groups.flatMap((g) => g.members.map((m) => [m, g.file])));
  const staging = await Deno.makeTempDir({ prefix: "hark-merge-" });
  try {
    for (const [i, group] of groups.entries()) {
      const starter = join(dir, `.merge-${i}.js`);
      await Deno.writeTextFile(
        starter,
        group.members.map((m) => `export * from "./${m}";\n`).join(""),
      );
      try {
        for (const member of group.members) {
          await Deno.writeTextFile(join(dir, member), keepMarkers(texts.get(member)!));
        }
        await bundleOne(
          dir,
          starter,
          join(staging, group.file),
          [...texts.keys()].filter((n) => !group.members.includes(n)),
          options.env,
        );
      } finally {
        await Deno.remove(starter);
        for (const member of group.members) {
          await Deno.writeTextFile(join(dir, member), texts.get(member)!);
        }
      }
    }
    for (const group of groups) {
      const text = restoreMarkers(
        await Deno.readTextFile(join(staging, group.file)),
        group.members,
      );
      texts.set(group.file, text);
      for (const member of group.members) if (member !== group.file) texts.delete(member);
    }
  } finally {
    await Deno.remove(staging, { recursive: true });
  }
  for (const [name, text] of texts) texts.set(name, pointImports(text, fileOf));
  checkImports(texts);
  for (const group of groups) {
    for (const member of group.members) {
      if (member !== group.file) await Deno.remove(join(dir, member));
    }
  }
  for (const [name, text] of texts) await Deno.writeTextFile(join(dir, name), text);
  return { before: chunks.size, after: texts.size, groups };
}

/** hark's own modules, by the path the bundler names them with. */
const OWN_MODULE = /^(?:src\/|skills\/|gen\/|main\.ts$|deno\.json$)/;

/** The bundler's `// <module path>` line before each module's code. */
const MARKER = /^\/\/ ([^\s@]\S*\.[A-Za-z]+)$/gm;
/** The same, as a legal comment, which the bundler keeps (at the end of the file). */
const KEPT_MARKER = /^\/\/! hark-module (\S+)$/gm;

function keepMarkers(text: string): string {
  return text.replace(MARKER, "//! hark-module $1");
}

/** Turns kept markers back, and drops the bundler's markers of the chunks it merged. */
function restoreMarkers(text: string, merged: string[]): string {
  const names = new Set([...merged, ".merge"]);
  return text
    .replace(
      MARKER,
      (line, path: string) =>
        names.has(path.replace(/-\d+\.js$/, "")) || names.has(path) ? "" : line,
    )
    .replace(KEPT_MARKER, "// $1");
}

/** Bundles `starter` into `out`, with `external` chunks left as imports. */
async function bundleOne(
  dir: string,
  starter: string,
  out: string,
  external: string[],
  env: Record<string, string> | undefined,
): Promise<void> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--no-config",
      "--platform",
      "deno",
      ...external.map((name) => `--external=./${name}`),
      "--output",
      out,
      starter,
    ],
    cwd: dir,
    env,
    clearEnv: env !== undefined,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    throw new Error(
      `Cannot merge chunks into "${out}": deno bundle exited with ${result.code}: ` +
        new TextDecoder().decode(result.stderr),
    );
  }
}

/** Points every import of a merged chunk (static, re-export or `import()`) at its new file. */
export function pointImports(text: string, fileOf: ReadonlyMap<string, string>): string {
  const moved = (name: string) => fileOf.get(name) ?? name;
  return text
    .replace(
      /^((?:import|export)\s+(?:[^;"']*?\sfrom\s*)?["']\.\/)([^"']+)(["'])/gm,
      (_, head: string, name: string, tail: string) => `${head}${moved(name)}${tail}`,
    )
    .replace(
      /\bimport\(\s*(["'])\.\/([^"']+)\1\s*\)/g,
      (_, quote: string, name: string) => `import(${quote}./${moved(name)}${quote})`,
    );
}

/**
 * Checks that every chunk another imports exists and exports the names imported from it.
 *
 * @param texts the chunks' sources by file name
 * @throws {Error} naming the first import that would fail
 */
export function checkImports(texts: ReadonlyMap<string, string>): void {
  const facts = new Map([...texts].map(([name, text]) => [name, chunkFacts(name, text)]));
  for (const [name, chunk] of facts) {
    for (const target of [...chunk.imports, ...chunk.dynamicImports]) {
      if (!facts.has(target)) {
        throw new Error(`Cannot merge chunks: "${name}" imports "${target}", which is gone`);
      }
    }
    const wanted = [
      ...chunk.imported.values(),
      ...[...chunk.exports.values()].filter((e) => e.from !== name),
    ];
    for (const { from, name: wantedName } of wanted) {
      if (!facts.get(from)!.exports.has(wantedName)) {
        throw new Error(
          `Cannot merge chunks: "${name}" imports "${wantedName}" from "${from}", which does not export it`,
        );
      }
    }
  }
}
