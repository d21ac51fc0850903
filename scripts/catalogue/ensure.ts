/**
 * Keeps the generated catalogue (`gen/catalogue/`) current: it is stale when its stamp's key
 * differs from the key of the pinned package and the generator's sources, and missing when there
 * is no stamp. Every entry point that runs hark's code calls {@link ensureCatalogue} first (the
 * test, hark, demo, bench and compile tasks; type checking needs no catalogue); when the
 * catalogue is current that costs a few `stat` calls. `deno task hark` first asks the smaller
 * `looks_current.ts`, and loads this module only when that cannot say the catalogue is current.
 *
 *   deno run --allow-read --allow-run --allow-env scripts/catalogue/ensure.ts [--quiet]
 *
 * @module
 */

// No node: modules here: `deno task hark` runs this before every command, and loading Node's
// compatibility layer would cost more than the whole check.

import { catalogueLooksCurrent, GENERATOR_SOURCES } from "./looks_current.ts";

export { catalogueLooksCurrent, GENERATOR_SOURCES };

/** The repository root, as a `file:` URL. */
const ROOT_URL = new URL("../../", import.meta.url);

/** Joins path parts with `/` (Deno's file APIs take `/` on every platform). */
function join(...parts: string[]): string {
  return parts.join("/").replace(/\/{2,}/g, "/");
}

/** The repository root. */
export const REPO_ROOT: string = decodeURIComponent(
  Deno.build.os === "windows" ? ROOT_URL.pathname.replace(/^\//, "") : ROOT_URL.pathname,
);
/** Where the catalogue is generated (git-ignored). */
export const CATALOGUE_DIR: string = join(REPO_ROOT, "gen", "catalogue");
/** The stamp file in {@link CATALOGUE_DIR}. */
export const STAMP_FILE = "stamp.json";
/** The package the catalogue is generated from; `deno.json` pins its version. */
export const PACKAGE = "@larksuiteoapi/lark-mcp";

/**
 * The package's pin in `deno.json`: `npm:@larksuiteoapi/lark-mcp@0.5.1`.
 *
 * @param root the repository root
 * @throws {Error} when `deno.json` does not pin it to an exact version
 */
export async function pinnedPackage(root = REPO_ROOT): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  const pin = config?.imports?.[PACKAGE];
  if (typeof pin !== "string" || !/^npm:@larksuiteoapi\/lark-mcp@\d+\.\d+\.\d+$/.test(pin)) {
    throw new Error(
      `Cannot find the catalogue's package: deno.json must map "${PACKAGE}" to an exact ` +
        `version, such as "npm:${PACKAGE}@0.5.1" (found ${JSON.stringify(pin)})`,
    );
  }
  return pin;
}

/**
 * The key of the catalogue the current sources would generate: a SHA-256 of the pin and the
 * generator's sources.
 *
 * @param root the repository root
 */
export async function catalogueKey(root = REPO_ROOT): Promise<string> {
  const parts = [await pinnedPackage(root)];
  for (const path of GENERATOR_SOURCES) {
    parts.push(`${path}\n${await Deno.readTextFile(join(root, path))}`);
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\0")));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * What the generator's inputs look like on disk (modification time and size of `deno.json` and
 * each source): when they look the same as when the catalogue was generated, it is current
 * without reading and hashing them.
 *
 * @param root the repository root
 */
export async function inputsSeen(root = REPO_ROOT): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const path of ["deno.json", ...GENERATOR_SOURCES]) {
    const info = await Deno.stat(join(root, path));
    seen[path] = `${info.mtime?.getTime() ?? 0}:${info.size}`;
  }
  return seen;
}

/** The stamp of a generated catalogue. */
export interface Stamp {
  /** {@link catalogueKey} of what generated it. */
  key: string;
  /** {@link inputsSeen} when it was generated or last found current. */
  inputs: Record<string, string>;
}

/**
 * The stamp of the generated catalogue.
 *
 * @param dir the catalogue folder
 * @returns the stamp, or `undefined` when there is no readable one
 */
export async function readStamp(dir = CATALOGUE_DIR): Promise<Stamp | undefined> {
  try {
    const stamp = JSON.parse(await Deno.readTextFile(join(dir, STAMP_FILE)));
    if (typeof stamp?.key !== "string") return undefined;
    const inputs = typeof stamp.inputs === "object" && stamp.inputs !== null ? stamp.inputs : {};
    return { key: stamp.key, inputs };
  } catch {
    return undefined;
  }
}

/** Whether two records of {@link inputsSeen} are the same. */
function sameInputs(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** What {@link ensureCatalogue} did. */
export interface EnsureResult {
  /** `fresh`: nothing to do; `generated`: it was missing or stale and was generated. */
  status: "fresh" | "generated";
  /** How long it took, ms. */
  ms: number;
}

/**
 * Generates the catalogue when it is missing or stale, by running the generator
 * (`scripts/gen_catalogue.ts`), whose report (the methods added, removed and changed) goes to
 * this process's stderr.
 *
 * @param options `quiet`: say nothing when the catalogue is fresh (the generator still reports)
 * @throws {Error} when the generator fails
 */
export async function ensureCatalogue(options: { quiet?: boolean } = {}): Promise<EnsureResult> {
  const start = performance.now();
  const stamp = await readStamp();
  const seen = await inputsSeen();
  if (stamp && sameInputs(stamp.inputs, seen)) {
    return { status: "fresh", ms: performance.now() - start };
  }
  const key = await catalogueKey();
  if (stamp?.key === key) {
    // Touched but unchanged (a checkout, say): remember how the inputs look now.
    await Deno.writeTextFile(
      join(CATALOGUE_DIR, STAMP_FILE),
      JSON.stringify(
        { ...JSON.parse(await Deno.readTextFile(join(CATALOGUE_DIR, STAMP_FILE))), inputs: seen },
        null,
        2,
      ) + "\n",
    ).catch(() => {});
    return { status: "fresh", ms: performance.now() - start };
  }
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", join(REPO_ROOT, "scripts", "gen_catalogue.ts")],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot generate the API catalogue: scripts/gen_catalogue.ts exited with ${code}`,
    );
  }
  if ((await readStamp())?.key !== key) {
    throw new Error("Cannot generate the API catalogue: the generator wrote another key");
  }
  const ms = performance.now() - start;
  if (!options.quiet) console.error(`API catalogue generated in ${Math.round(ms)} ms`);
  return { status: "generated", ms };
}

if (import.meta.main) {
  try {
    await ensureCatalogue({ quiet: Deno.args.includes("--quiet") });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
