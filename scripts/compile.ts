/**
 * Compiles hark for every platform with `deno compile`, into `dist/`, and writes
 * `dist/SHA256SUMS`.
 *
 * What is compiled is the code-split bundle of `scripts/bundle.ts` (its entry `main.js`; the
 * chunks it imports on demand are found by `deno compile` like any dynamic import with a literal
 * specifier), not `main.ts`: the very files the bundle test runs and the start-up benchmarks
 * time. V8's code cache stays on (no `--no-code-cache`).
 *
 * Usage: deno task compile [--target <triple>]... [--out <dir>]
 *
 * `deno compile` downloads its runtime for each target, so this runs where dl.deno.land is
 * reachable (the release workflow); on an offline machine it fails on the first target with
 * deno's own message.
 *
 * @module
 */

import { join } from "node:path";
import { BUNDLE_CATALOGUE_DIR, bundleHark } from "./bundle.ts";
import { HARK_RUN_FLAGS } from "./permissions.ts";

/** Every `deno compile --target` hark ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
] as const;

/**
 * The file name of the binary for a target, such as `hark-x86_64-apple-darwin` or
 * `hark-x86_64-pc-windows-msvc.exe`.
 *
 * @param target a compile target
 */
export function binaryName(target: string): string {
  return `hark-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The `deno compile` arguments for one target: the bundle's entry, with exactly hark's
 * permissions and without a config file (the bundle resolves nothing through `deno.json`).
 *
 * @param target a compile target
 * @param outDir the output folder
 * @param entry the bundle's entry chunk (from `bundleHark`)
 */
export function compileArgs(target: string, outDir: string, entry: string): string[] {
  return [
    "compile",
    "--quiet",
    "--no-config",
    ...HARK_RUN_FLAGS,
    // The API catalogue's files, which hark reads (not imports) beside its entry.
    "--include",
    join(entry, "..", BUNDLE_CATALOGUE_DIR),
    "--target",
    target,
    "--output",
    join(outDir, binaryName(target)),
    entry,
  ];
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function main(args: string[]): Promise<number> {
  const targets: string[] = [];
  let outDir = "dist";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--target") targets.push(args[++i]);
    else if (args[i] === "--out") outDir = args[++i];
    else {
      console.error(
        `Unknown argument "${args[i]}"; usage: compile [--target <triple>]... [--out <dir>]`,
      );
      return 2;
    }
  }
  for (const target of targets) {
    if (!(TARGETS as readonly string[]).includes(target)) {
      console.error(`Unknown target "${target}"; known: ${TARGETS.join(", ")}`);
      return 2;
    }
  }
  await Deno.mkdir(outDir, { recursive: true });
  const bundleDir = await Deno.makeTempDir({ prefix: "hark-bundle-" });
  try {
    console.error("Bundling main.ts (code-split)");
    const entry = await bundleHark(bundleDir);
    const sums: string[] = [];
    for (const target of targets.length > 0 ? targets : TARGETS) {
      console.error(`Compiling ${binaryName(target)}`);
      const { code } = await new Deno.Command(Deno.execPath(), {
        args: compileArgs(target, outDir, entry),
        stdout: "inherit",
        stderr: "inherit",
      }).output();
      if (code !== 0) return code;
      sums.push(`${await sha256(join(outDir, binaryName(target)))}  ${binaryName(target)}`);
    }
    await Deno.writeTextFile(join(outDir, "SHA256SUMS"), sums.join("\n") + "\n");
    console.error(`Wrote ${sums.length} binaries and ${join(outDir, "SHA256SUMS")}`);
    return 0;
  } finally {
    await Deno.remove(bundleDir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
