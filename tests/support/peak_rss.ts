/**
 * A subprocess run with its peak resident memory, for the tests and the benchmarks alike: the
 * kernel's maximum RSS at exit through GNU time (`time -f %M`, exact) when its path is given,
 * else VmHWM read from `/proc/<pid>/status` every 2 ms until the process exits (Linux only).
 *
 * @module
 */

import { type ProcessOptions, type ProcessRun, runProcess, startProcess } from "./subprocess.ts";

/** A run and its peak resident set. */
export interface PeakRssRun extends ProcessRun {
  /** The peak resident set, KiB. */
  peakKiB: number;
  /** How it was measured: GNU time's rusage, or VmHWM samples. */
  method: "rusage" | "vmhwm";
}

/** Options of {@link runWithPeakRss}. */
export interface PeakRssOptions extends ProcessOptions {
  /** The path of GNU time (`/usr/bin/time`); default none, which samples VmHWM instead. */
  time?: string;
}

/**
 * Runs `program <args>` (see `startProcess`) and measures its peak resident set.
 *
 * @param program the program
 * @param args its arguments
 * @param options its environment, folder, stdin and timeout, and GNU time's path
 */
export async function runWithPeakRss(
  program: string,
  args: readonly string[],
  options: PeakRssOptions,
): Promise<PeakRssRun> {
  if (options.time === undefined) {
    const live = startProcess(program, args, options);
    const sampled = sampleVmHwm(live.pid, live.done);
    const run = await live.done;
    return { ...run, peakKiB: (await sampled).peakKiB, method: "vmhwm" };
  }
  const report = await Deno.makeTempFile({ prefix: "hark-rss-" });
  try {
    const run = await runProcess(
      options.time,
      ["-f", "%M", "-o", report, program, ...args],
      options,
    );
    // The report ends with the figure (after "Command exited with non-zero status N", if so).
    const lines = (await Deno.readTextFile(report)).trim().split("\n");
    return { ...run, peakKiB: Number(lines.at(-1)), method: "rusage" };
  } finally {
    await Deno.remove(report);
  }
}

/**
 * Reads VmHWM (the peak resident set) of a process every 2 ms until it exits; the last value
 * read is the peak up to then. A process gone between two samples simply ends the sampling.
 *
 * @param pid the process
 * @param exited settles when it has exited
 */
export async function sampleVmHwm(
  pid: number,
  exited: Promise<unknown>,
): Promise<{ peakKiB: number; samples: number }> {
  let done = false;
  exited.then(() => done = true, () => done = true);
  let peakKiB = 0;
  let samples = 0;
  while (!done) {
    try {
      const status = await Deno.readTextFile(`/proc/${pid}/status`);
      const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
      if (m) {
        peakKiB = Math.max(peakKiB, Number(m[1]));
        samples++;
      }
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return { peakKiB, samples };
}
