/**
 * Running hark as a subprocess and measuring its peak resident memory (through
 * `tests/support/peak_rss.ts`, as the benchmarks do): `/usr/bin/time -f %M` when present, else
 * VmHWM samples (Linux only).
 *
 * @module
 */

import { HARK_RUN_FLAGS, type HarkRun, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";
import { runWithPeakRss } from "../support/peak_rss.ts";

/** A run and its peak RSS. */
export interface MeasuredRun extends HarkRun {
  /** The peak resident set, KiB. */
  peakKiB: number;
  /** How it was measured. */
  how: "time" | "sampled";
}

async function hasTime(): Promise<boolean> {
  try {
    return (await Deno.stat("/usr/bin/time")).isFile;
  } catch {
    return false;
  }
}

/**
 * Runs `hark <args>` with exactly `env` and measures its peak RSS.
 *
 * @param args the arguments after `hark`
 * @param env the whole environment of the child
 * @param denoFlags more flags of `deno run`, such as `--v8-flags=…`
 */
export async function runMeasured(
  args: string[],
  env: Record<string, string>,
  denoFlags: string[] = [],
): Promise<MeasuredRun> {
  const hark = ["run", "--quiet", "--no-check", ...denoFlags, ...HARK_RUN_FLAGS, MAIN_TS];
  const time = await hasTime() ? "/usr/bin/time" : undefined;
  const run = await runWithPeakRss(Deno.execPath(), [...hark, ...args], {
    env,
    cwd: REPO_ROOT,
    time,
    // A measured listing of 20,000 messages can take tens of seconds on a busy 2-core machine:
    // the runner's 60 s default would kill it (exit 137) before it could show its memory.
    timeoutMs: 600_000,
  });
  return {
    code: run.code,
    stdout: run.stdout,
    stderr: run.stderr,
    peakKiB: run.peakKiB,
    how: run.method === "rusage" ? "time" : "sampled",
  };
}
