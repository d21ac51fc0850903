/**
 * Memory: peak RSS of `calendar +agenda --json` returning at least 20,000 events. The sandbox is
 * seeded with extra events per day so that a 365-day span inside its seeded window holds that
 * many non-cancelled events; the count is read back from the JSON output. Peak RSS is measured
 * two ways: VmHWM sampled from `/proc/<pid>/status` until the child exits, and the kernel's
 * maximum RSS reported by `/usr/bin/time -f %M` when present. `hark --version` is measured the
 * same way as a floor.
 *
 * @module
 */

import { type LoggedRequest, startSandbox } from "../src/sandbox/mod.ts";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  jsonList,
  localDate,
  maxRssByTime,
  progress,
  requestLog,
  requestStats,
  resetRequests,
  round1,
  runOk,
  shellJoin,
  signIn,
} from "./_support.ts";

/** Extra seeded events per day (about 8 % of them are cancelled and dropped by +agenda). */
export const EVENTS_PER_DAY = 58;
/** The least number of events the command must return. */
export const MIN_EVENTS = 20_000;
/** Sampled runs per target. */
export const MEMORY_RUNS = 3;

/**
 * Runs the memory benchmark.
 *
 * @param options the targets and a scratch folder
 */
export async function benchAgendaMemory(options: BenchOptions): Promise<BenchResult> {
  const sb = await startSandbox({ quiet: true, eventsPerDay: EVENTS_PER_DAY });
  const home = await createBenchHome();
  try {
    progress("agenda_memory: signing in through the CLI");
    await signIn(options.targets[0], home, sb);
    // The sandbox seeds events from 200 days before today to 250 days after: stay inside.
    const args = [
      "calendar",
      "+agenda",
      "--start",
      localDate(-150),
      "--end",
      localDate(214),
      "--json",
    ];
    const env = home.env;
    const results: Record<string, unknown>[] = [];
    for (const target of options.targets) {
      const runs: Record<string, number>[] = [];
      let pieceDays: Record<string, number> = {};
      for (let i = 0; i < MEMORY_RUNS; i++) {
        await resetRequests(sb);
        const run = await runOk(target, args, { env, sampleRss: true });
        const events = jsonList(run.stdout).length;
        if (events < MIN_EVENTS) {
          throw new Error(`Cannot measure: +agenda returned ${events} events, under ${MIN_EVENTS}`);
        }
        const stats = await requestStats(sb);
        if (i === 0) pieceDays = histogram(await requestLog(sb));
        runs.push({
          peak_rss_kib: run.peakRssKiB ?? 0,
          rss_samples: run.rssSamples ?? 0,
          wall_ms: round1(run.ms),
          events,
          output_bytes: new TextEncoder().encode(run.stdout).length,
          requests: stats.requests,
        });
      }
      const timeKiB = await maxRssByTime(target, args, { env });
      const versionRun = await runOk(target, ["--version"], { env, sampleRss: true });
      const versionTimeKiB = await maxRssByTime(target, ["--version"], { env });
      const peaks = runs.map((r) => r.peak_rss_kib).sort((a, b) => a - b);
      const peak = peaks[peaks.length - 1];
      progress(`agenda_memory: ${target.name} peak ${round1(peak / 1024)} MiB`);
      results.push({
        target: target.name,
        command: `${target.describe} ${shellJoin(args)}`,
        events: runs[0].events,
        requests: runs[0].requests,
        requests_by_piece_days: pieceDays,
        output_mib: round1(runs[0].output_bytes / 1_048_576),
        peak_rss_mib_sampled_max: round1(peak / 1024),
        peak_rss_mib_sampled_median: round1(peaks[(peaks.length - 1) >> 1] / 1024),
        peak_rss_mib_time: timeKiB === undefined ? null : round1(timeKiB / 1024),
        version_peak_rss_mib_sampled: round1((versionRun.peakRssKiB ?? 0) / 1024),
        version_peak_rss_mib_time: versionTimeKiB === undefined
          ? null
          : round1(versionTimeKiB / 1024),
        runs,
      });
    }
    return {
      bench: "agenda_memory",
      events_per_day_seeded: EVENTS_PER_DAY,
      span: `${args[3]} to ${args[5]}`,
      results,
    };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}

/** How many instance_view requests covered each span length, in days (one decimal). */
function histogram(log: LoggedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of log) {
    if (!r.path.endsWith("/events/instance_view")) continue;
    const days = round1((Number(r.query.end_time) - Number(r.query.start_time)) / 86_400);
    out[String(days)] = (out[String(days)] ?? 0) + 1;
  }
  return out;
}
