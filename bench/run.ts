/**
 * Runs hark's benchmarks in turn and prints one JSON object per benchmark on stdout
 * (`{"bench": "startup", ...figures}`); progress goes to stderr.
 *
 * A benchmark that fails prints `{"bench": name, "error": message}` instead, the others still
 * run, and the exit code is 1.
 *
 * Usage: `deno task bench [--only <name>[,<name>…]] [--target deno_run|bundle]`
 *
 * Benchmarks: startup, agenda_split, connection_reuse, send_overhead, agenda_memory. hark runs
 * two ways: from source (`deno run --no-check … main.ts`) and as the bundled single file
 * (`deno bundle --platform deno`), the closest stand-in here for the compiled binary.
 *
 * @module
 */

import {
  type BenchOptions,
  type BenchResult,
  bundleTarget,
  denoRunTarget,
  type HarkTarget,
  loadAverage,
  progress,
} from "./_support.ts";
import { benchStartup } from "./startup.ts";
import { benchAgendaSplit } from "./agenda_split.ts";
import { benchConnectionReuse } from "./connection_reuse.ts";
import { benchSendOverhead } from "./send_overhead.ts";
import { benchAgendaMemory } from "./agenda_memory.ts";

/** Every benchmark by name, in the order they run. */
export const BENCHMARKS: Record<string, (options: BenchOptions) => Promise<BenchResult>> = {
  startup: benchStartup,
  agenda_split: benchAgendaSplit,
  connection_reuse: benchConnectionReuse,
  send_overhead: benchSendOverhead,
  agenda_memory: benchAgendaMemory,
};

/** The parsed command line. */
export interface BenchArgs {
  /** The benchmarks to run. */
  only: string[];
  /** The targets to measure. */
  targets: string[];
}

const TARGETS = ["deno_run", "bundle"];

/**
 * Parses the command line.
 *
 * @param args the arguments
 * @throws {Error} naming an unknown flag, benchmark or target
 */
export function parseBenchArgs(args: string[]): BenchArgs {
  const parsed: BenchArgs = { only: Object.keys(BENCHMARKS), targets: TARGETS };
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
    } else {
      throw new Error(`Unknown flag "${args[i]}": expected --only <name> or --target <name>`);
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
  const scratch = await Deno.makeTempDir({ prefix: "hark-bench-" });
  try {
    const targets: HarkTarget[] = [];
    if (args.targets.includes("deno_run")) targets.push(denoRunTarget());
    if (args.targets.includes("bundle")) {
      progress("bundling main.ts");
      targets.push(await bundleTarget(scratch));
    }
    let failed = 0;
    for (const name of args.only) {
      progress(`${name}: starting`);
      const started = performance.now();
      const loadBefore = await loadAverage();
      try {
        const result = await BENCHMARKS[name]({ targets, scratch });
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        console.log(JSON.stringify({
          ...result,
          seconds,
          loadavg_before: loadBefore,
          loadavg_after: await loadAverage(),
        }));
        progress(`${name}: done in ${seconds} s`);
      } catch (error) {
        failed++;
        const message = error instanceof Error ? error.message : String(error);
        console.log(JSON.stringify({ bench: name, error: message }));
        progress(`${name}: failed: ${message}`);
      }
    }
    return failed === 0 ? 0 : 1;
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
