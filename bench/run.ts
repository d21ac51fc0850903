/**
 * Runs hark's benchmarks in turn and prints one JSON object per benchmark on stdout
 * (`{"bench": "targets", ...figures}`), then issue 16's targets with their ratios; progress
 * goes to stderr. When the `targets` benchmark ran, it writes `bench/RESULTS.md` and appends a
 * line to `bench/history.jsonl` (unless `--no-write`).
 *
 * A benchmark that fails prints `{"bench": name, "error": message}` instead, the others still
 * run, and the exit code is 1.
 *
 * Usage: `deno task bench [--only <name>[,<name>…]] [--target deno_run|bundle]
 * [--baseline <folder>] [--no-write]`
 *
 * Benchmarks: targets (the tables of issues 16 and 28: start-up against `gh --version`, which it
 * installs from Debian when missing, the cost of a call against a bare Deno script and an
 * environment token, peak memory of long listings against short ones), agenda_split (the 40-day
 * split), connection_reuse, send_overhead, jq_cost (`--jq` over a year's agenda). hark
 * runs from source (`deno run --no-check … main.ts`) and as the stand-in for the compiled binary
 * (the code-split bundle `deno task compile` compiles). `--baseline` adds another checkout of
 * hark (such as main) to the targets' rounds, for before/after figures from one run.
 *
 * @module
 */

import { join } from "node:path";
import {
  type BenchOptions,
  type BenchResult,
  bundleTarget,
  denoRunTarget,
  type HarkTarget,
  loadAverage,
  progress,
  REPO_ROOT,
  singleFileBundleTarget,
} from "./_support.ts";
import { benchTargets, type TargetRow } from "./targets.ts";
import { benchAgendaSplit } from "./agenda_split.ts";
import { benchConnectionReuse } from "./connection_reuse.ts";
import { benchSendOverhead } from "./send_overhead.ts";
import { benchJqCost } from "./jq_cost.ts";
import { historyLine, resultsMarkdown, type RunInfo, targetsText } from "./report.ts";
import { ensureCatalogue } from "../scripts/catalogue/ensure.ts";

/** The options every benchmark gets: the common ones and an optional baseline tree. */
type RunOptions = BenchOptions & { baseline?: { bundle: HarkTarget; root: string } };

/** Every benchmark by name, in the order they run. */
export const BENCHMARKS: Record<string, (options: RunOptions) => Promise<BenchResult>> = {
  targets: benchTargets,
  agenda_split: benchAgendaSplit,
  connection_reuse: benchConnectionReuse,
  send_overhead: benchSendOverhead,
  jq_cost: benchJqCost,
};

/** The parsed command line. */
export interface BenchArgs {
  /** The benchmarks to run. */
  only: string[];
  /** The targets to measure. */
  targets: string[];
  /** Another checkout of hark to compare with, in the targets' rounds. */
  baseline?: string;
  /** Whether to write RESULTS.md and history.jsonl. */
  write: boolean;
}

const TARGETS = ["deno_run", "bundle"];

/**
 * Parses the command line.
 *
 * @param args the arguments
 * @throws {Error} naming an unknown flag, benchmark or target
 */
export function parseBenchArgs(args: string[]): BenchArgs {
  const parsed: BenchArgs = { only: Object.keys(BENCHMARKS), targets: TARGETS, write: true };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === "") throw new Error(`Missing value for ${flag}`);
      return v.split(",").map((s) => s.trim()).filter((s) => s !== "");
    };
    if (flag === "--only") {
      parsed.only = value();
      const unknown = parsed.only.find((name) => !(name in BENCHMARKS));
      if (unknown !== undefined) {
        throw new Error(
          `Unknown benchmark "${unknown}": expected one of ${Object.keys(BENCHMARKS).join(", ")}`,
        );
      }
    } else if (flag === "--target") {
      parsed.targets = value();
      const unknown = parsed.targets.find((name) => !TARGETS.includes(name));
      if (unknown !== undefined) {
        throw new Error(`Unknown target "${unknown}": expected one of ${TARGETS.join(", ")}`);
      }
    } else if (flag === "--baseline") {
      parsed.baseline = value().join(",");
    } else if (flag === "--no-write" && inline === undefined) {
      parsed.write = false;
    } else {
      throw new Error(
        `Unknown flag "${args[i]}": expected --only <name>, --target <name>, ` +
          "--baseline <folder> or --no-write",
      );
    }
  }
  return parsed;
}

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(Deno.args);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  // hark's code imports the generated API catalogue: bring it up to date first.
  await ensureCatalogue({ quiet: true });
  const commit = await gitCommit(REPO_ROOT);
  const scratch = await Deno.makeTempDir({ prefix: "hark-bench-" });
  try {
    const targets: HarkTarget[] = [];
    if (args.targets.includes("deno_run")) targets.push(denoRunTarget());
    if (args.targets.includes("bundle")) {
      progress("bundling main.ts (code-split, as deno task compile does)");
      targets.push(await bundleTarget(scratch));
    }
    let baseline: RunOptions["baseline"];
    if (args.baseline) {
      progress(`bundling the baseline ${args.baseline}`);
      baseline = {
        bundle: await singleFileBundleTarget(args.baseline, scratch, "baseline_bundle"),
        root: args.baseline,
      };
    }
    const loadBefore = await loadAverage();
    const results: BenchResult[] = [];
    for (const name of args.only) {
      progress(`${name}: starting`);
      const started = performance.now();
      const before = await loadAverage();
      let result: BenchResult;
      try {
        result = await BENCHMARKS[name]({ targets, scratch, baseline });
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        result = { ...result, seconds, loadavg_before: before, loadavg_after: await loadAverage() };
        progress(`${name}: done in ${seconds} s`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        result = { bench: name, error: message };
        progress(`${name}: failed: ${message}`);
      }
      results.push(result);
      console.log(JSON.stringify(result));
    }
    const targetsResult = results.find((r) => r.bench === "targets" && !("error" in r));
    if (targetsResult) {
      console.log("\n" + targetsText(targetsResult.rows as TargetRow[]));
      // The notes carry what has no ratio (the catalogue's size in the bundle) and skipped rows.
      for (const note of targetsResult.notes as string[]) console.log(`note: ${note}`);
    }
    if (targetsResult && args.write) {
      const info: RunInfo = {
        date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
        commit,
        baselineCommit: args.baseline ? await gitCommit(args.baseline) : undefined,
        load: { before: loadBefore, after: await loadAverage() },
        machine: await machine(),
      };
      const resultsPath = join(REPO_ROOT, "bench", "RESULTS.md");
      await Deno.writeTextFile(resultsPath, resultsMarkdown(info, results));
      // As the repository's formatter lays it out, so that `deno fmt --check` stays clean.
      await new Deno.Command(Deno.execPath(), {
        args: ["fmt", "--quiet", resultsPath],
        cwd: REPO_ROOT,
      }).output();
      await Deno.writeTextFile(
        join(REPO_ROOT, "bench", "history.jsonl"),
        historyLine(info, targetsResult.rows as TargetRow[]),
        { append: true },
      );
      progress("wrote bench/RESULTS.md and a line of bench/history.jsonl");
    }
    return results.some((r) => "error" in r) ? 1 : 0;
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** The short commit of a checkout, with `+dirty` when its tracked files differ from it. */
async function gitCommit(dir: string): Promise<string> {
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", { args: ["-C", dir, ...args], stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : "";
  };
  const commit = await git("rev-parse", "--short", "HEAD");
  if (commit === "") return `${dir} (not a git checkout)`;
  const changed = (await git("status", "--porcelain", "--untracked-files=no"))
    .split("\n")
    .filter((line) => line !== "" && !/bench\/(RESULTS\.md|history\.jsonl)$/.test(line));
  return changed.length > 0 ? `${commit}+dirty` : commit;
}

/** Facts about this machine for RESULTS.md. */
async function machine(): Promise<Record<string, string>> {
  const read = async (path: string) => {
    try {
      return await Deno.readTextFile(path);
    } catch {
      return "";
    }
  };
  const cpu = /^model name\s*:\s*(.+)$/m.exec(await read("/proc/cpuinfo"))?.[1] ?? "unknown";
  const memKiB = Number(/^MemTotal:\s+(\d+)/m.exec(await read("/proc/meminfo"))?.[1] ?? 0);
  const os = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(await read("/etc/os-release"))?.[1] ??
    Deno.build.os;
  return {
    CPU: `${cpu}, ${navigator.hardwareConcurrency} cores`,
    memory: `${Math.round(memKiB / 1_048_576)} GiB`,
    OS: `${os}, kernel ${Deno.osRelease()}`,
    Deno: `${Deno.version.deno} (V8 ${Deno.version.v8})`,
  };
}

if (import.meta.main) Deno.exit(await main());
