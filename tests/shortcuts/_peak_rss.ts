/**
 * Running hark as a subprocess and measuring its peak resident memory: the kernel's maximum RSS
 * through `/usr/bin/time -f %M` when present (exact: the rusage at exit), else VmHWM read from
 * `/proc/<pid>/status` every 2 ms until the process exits (Linux only).
 *
 * @module
 */

import { HARK_RUN_FLAGS, type HarkRun, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";

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
  const hark = [
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-check",
    ...denoFlags,
    ...HARK_RUN_FLAGS,
    MAIN_TS,
  ];
  const time = await hasTime();
  const report = time ? await Deno.makeTempFile({ prefix: "hark-rss-" }) : "";
  try {
    const [cmd, ...rest] = time
      ? ["/usr/bin/time", "-f", "%M", "-o", report, ...hark, ...args]
      : [...hark, ...args];
    const child = new Deno.Command(cmd, {
      args: rest,
      env,
      clearEnv: true,
      cwd: REPO_ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const sampled = time ? undefined : sampleVmHwm(child.pid, child.status);
    const output = await child.output();
    const decoder = new TextDecoder();
    // The report ends with the figure (after "Command exited with non-zero status N", if so).
    const peakKiB = time
      ? Number((await Deno.readTextFile(report)).trim().split("\n").at(-1))
      : await sampled!;
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      peakKiB,
      how: time ? "time" : "sampled",
    };
  } finally {
    if (report) await Deno.remove(report);
  }
}

async function sampleVmHwm(pid: number, exited: Promise<unknown>): Promise<number> {
  let done = false;
  exited.then(() => done = true, () => done = true);
  let peak = 0;
  while (!done) {
    try {
      const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(await Deno.readTextFile(`/proc/${pid}/status`));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return peak;
}
