/**
 * Start-up: `hark --version` and `hark --help`, from source and bundled, side by side with a
 * bare `deno run` of an empty script, all interleaved in the same run so drift hits every case
 * alike. Figures: median, p90, min, max and mean wall time of each case.
 *
 * @module
 */

import { join } from "node:path";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  type HarkTarget,
  progress,
  runOk,
  summarize,
  type Summary,
} from "./_support.ts";

/** Measured runs per case (the issue asks for at least 20). */
export const STARTUP_RUNS = 25;
/** Unmeasured runs per case first (disk cache, V8 code cache). */
export const STARTUP_WARMUPS = 3;

/** One measured case. */
interface StartupCase {
  /** What ran. */
  case: string;
  /** Which way hark was started, or "bare" for the empty script. */
  target: string;
  /** The command line. */
  command: string;
  run: () => Promise<number>;
}

/**
 * Runs the start-up benchmark.
 *
 * @param options the targets and a scratch folder
 */
export async function benchStartup(options: BenchOptions): Promise<BenchResult> {
  const home = await createBenchHome();
  try {
    const emptyDir = join(options.scratch, "empty");
    await Deno.mkdir(emptyDir, { recursive: true });
    const emptyScript = join(emptyDir, "empty.ts");
    await Deno.writeTextFile(emptyScript, "");
    const bare: HarkTarget = {
      name: "bare",
      describe: "deno run --quiet --no-check --no-config empty.ts",
      args: ["run", "--quiet", "--no-check", "--no-config", emptyScript],
      cwd: emptyDir,
    };
    const env = home.env;
    const cases: StartupCase[] = [{
      case: "empty_script",
      target: "bare",
      command: bare.describe,
      run: async () => (await runOk(bare, [], { env })).ms,
    }];
    for (const target of options.targets) {
      for (const args of [["--version"], ["--help"]]) {
        cases.push({
          case: `hark ${args.join(" ")}`,
          target: target.name,
          command: `${target.describe} ${args.join(" ")}`,
          run: async () => (await runOk(target, args, { env })).ms,
        });
      }
    }
    for (let i = 0; i < STARTUP_WARMUPS; i++) for (const c of cases) await c.run();
    const samples = cases.map(() => [] as number[]);
    for (let i = 0; i < STARTUP_RUNS; i++) {
      if (i % 5 === 0) progress(`startup: round ${i + 1} of ${STARTUP_RUNS}`);
      for (const [k, c] of cases.entries()) samples[k].push(await c.run());
    }
    const results: (Omit<StartupCase, "run"> & Summary & { over_empty_ms: number })[] = [];
    const baseline = summarize(samples[0]).median_ms;
    for (const [k, c] of cases.entries()) {
      const summary = summarize(samples[k]);
      results.push({
        case: c.case,
        target: c.target,
        command: c.command,
        ...summary,
        over_empty_ms: Math.round((summary.median_ms - baseline) * 10) / 10,
      });
    }
    return {
      bench: "startup",
      runs: STARTUP_RUNS,
      warmups: STARTUP_WARMUPS,
      interleaved: true,
      results,
    };
  } finally {
    await home.cleanup();
  }
}
