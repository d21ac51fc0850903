/**
 * Builds what `deno compile` turns into the hark binary: `deno bundle --code-splitting` of
 * `main.ts` into a folder, an entry `main.js` plus chunks that load on first `import()`, so a
 * command loads only the code it needs. The compile script, the bundle test and the benchmarks
 * all build it through {@link bundleHark}, so what is measured and tested is what ships.
 *
 * Two steps follow the bundler. First a fix-up: esbuild gives bundled CommonJS code (two small
 * dependencies of the prompt library) a `__require` for the Node built-ins it requires, and Deno
 * defines it with `createRequire` from `node:module` in the shared helper chunk that every chunk
 * imports, the entry included. Importing `node:module` starts Deno's Node compatibility layer:
 * about 20 ms added to every start-up, `hark --version` included. The fix-up makes `__require`
 * create that `require` on its first call instead, which only the prompt library's chunk makes.
 * Then the many small chunks the bundler splits the code into are merged into fewer, larger ones
 * (`merge_chunks.ts`): no command loads a file more, and `contact +me` loads 10 instead of 49.
 *
 * Usage: deno run --allow-read --allow-write --allow-run --allow-env scripts/bundle.ts <folder>
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureCatalogue } from "./catalogue/ensure.ts";
import { mergeChunks } from "./merge_chunks.ts";

/** The repository root. */
export const REPO_ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/** The entry chunk's file name in the bundle folder. */
export const BUNDLE_ENTRY = "main.js";

/**
 * Where the API catalogue's files go in the bundle folder: beside the entry as they are beside
 * `main.ts` (`main.ts` points the context there), and embedded from there by `deno compile`.
 */
export const BUNDLE_CATALOGUE_DIR = "gen/catalogue";

/** What Deno's bundler writes to define `__require` (two lines, in the shared helper chunk). */
const EAGER_REQUIRE =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";

/** The same `__require`, creating the `require` function on its first call. */
const LAZY_REQUIRE = "var __deno_internal_require;\n" +
  "var __require = (id) => (__deno_internal_require ??= globalThis.process.getBuiltinModule(" +
  '"node:module").createRequire(import.meta.url))(id);\n';

/**
 * Bundles `main.ts` with code splitting into `outDir` (created; files of an earlier bundle
 * there are replaced, others are left) and defers `node:module` as the module comment says.
 *
 * @param outDir the folder for the entry and its chunks
 * @param options `env`: the bundler's environment (default: this process's)
 * @returns the path of the entry chunk
 * @throws {Error} when `deno bundle` fails, or when its output defines `__require` in a way
 *   this script does not know (a newer Deno), so that nothing silently ships the slow start-up
 */
export async function bundleHark(
  outDir: string,
  options: { env?: Record<string, string> } = {},
): Promise<string> {
  // The bundle embeds the generated API catalogue: bring it up to date first.
  await ensureCatalogue({ quiet: true });
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--code-splitting",
      "--outdir",
      outDir,
      "main.ts",
    ],
    cwd: REPO_ROOT,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `Cannot bundle "main.ts": deno bundle exited with ${out.code}: ` +
        new TextDecoder().decode(out.stderr),
    );
  }
  for (const name of await chunkNames(outDir)) {
    const path = join(outDir, name);
    const text = await Deno.readTextFile(path);
    const deferred = deferNodeModule(text);
    if (deferred !== text) await Deno.writeTextFile(path, deferred);
  }
  await mergeChunks(outDir, BUNDLE_ENTRY, { env: options.env });
  await copyCatalogue(join(outDir, BUNDLE_CATALOGUE_DIR));
  return join(outDir, BUNDLE_ENTRY);
}

/**
 * Copies the generated API catalogue's data files (the index and the groups, not the stamp or
 * the manifest) into the bundle, replacing any copied before.
 *
 * @param to the catalogue folder in the bundle
 */
async function copyCatalogue(to: string): Promise<void> {
  const from = join(REPO_ROOT, "gen", "catalogue");
  await Deno.remove(to, { recursive: true }).catch(() => {});
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isFile && entry.name.endsWith(".json") && entry.name !== "manifest.json") {
      await Deno.copyFile(join(from, entry.name), join(to, entry.name));
    }
  }
}

/**
 * Rewrites a chunk so that it no longer imports `node:module` (see the module comment).
 *
 * @param text a chunk's source
 * @returns the source with `__require` made lazy; the same text when it has no `__require`
 * @throws {Error} when the chunk imports `node:module` in another way than the known one
 */
export function deferNodeModule(text: string): string {
  const replaced = text.replace(EAGER_REQUIRE, LAZY_REQUIRE);
  if (/from\s*["']node:module["']|import\(\s*["']node:module["']\s*\)/.test(replaced)) {
    throw new Error(
      'Cannot defer "node:module" in the bundle: deno bundle defines __require in an unknown ' +
        "way; update EAGER_REQUIRE in scripts/bundle.ts",
    );
  }
  return replaced;
}

/** The `.js` files of a bundle folder, sorted. */
export async function chunkNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) names.push(entry.name);
  }
  return names.sort();
}

/** The imports of one chunk, split by kind. */
export interface ChunkImports {
  /** Other chunks imported statically (`import … from "./x.js"`, `import "./x.js"`). */
  chunks: string[];
  /** Other chunks imported on demand (`import("./x.js")`). */
  dynamicChunks: string[];
  /** Anything else imported statically, such as `node:path`. */
  external: string[];
}

/**
 * The imports of a chunk as the bundler writes them: `import`/`export … from` statements at the
 * start of a line, and `import("./…")` calls.
 *
 * @param text a chunk's source
 */
export function chunkImports(text: string): ChunkImports {
  const chunks = new Set<string>();
  const dynamicChunks = new Set<string>();
  const external = new Set<string>();
  const statement = /^(?:import|export)\s+(?:[^;"']*?\sfrom\s*)?["']([^"']+)["']/gm;
  for (const [, specifier] of text.matchAll(statement)) {
    if (specifier.startsWith("./")) chunks.add(specifier.slice(2));
    else external.add(specifier);
  }
  for (const [, specifier] of text.matchAll(/\bimport\(\s*["']\.\/([^"']+)["']\s*\)/g)) {
    dynamicChunks.add(specifier);
  }
  return { chunks: [...chunks], dynamicChunks: [...dynamicChunks], external: [...external] };
}

/** What starting a chunk loads before any of its code runs. */
export interface StaticGraph {
  /** The chunks, the start one first, with their sizes in bytes. */
  chunks: { name: string; bytes: number }[];
  /** The non-chunk modules they import statically, such as `node:path`. */
  external: string[];
}

/**
 * The chunks a chunk loads statically (itself included) and the other modules they import.
 *
 * @param dir the bundle folder
 * @param start the chunk's file name, such as {@link BUNDLE_ENTRY}
 */
export async function staticGraph(dir: string, start: string): Promise<StaticGraph> {
  const chunks: { name: string; bytes: number }[] = [];
  const external = new Set<string>();
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const text = await Deno.readTextFile(join(dir, name));
    chunks.push({ name, bytes: new TextEncoder().encode(text).length });
    const imports = chunkImports(text);
    queue.push(...imports.chunks);
    for (const specifier of imports.external) external.add(specifier);
  }
  return { chunks, external: [...external].sort() };
}

if (import.meta.main) {
  const [dir] = Deno.args;
  if (dir === undefined) {
    console.error("Usage: deno run -A scripts/bundle.ts <folder>");
    Deno.exit(2);
  }
  const entry = await bundleHark(dir);
  const graph = await staticGraph(dir, BUNDLE_ENTRY);
  const bytes = graph.chunks.reduce((sum, c) => sum + c.bytes, 0);
  console.log(
    `${entry}: ${graph.chunks.length} chunks (${bytes} bytes) load at start-up; ` +
      `static imports outside the bundle: ${graph.external.join(", ") || "none"}`,
  );
}
