/**
 * The cost of `--jq`: `calendar +agenda --jq '.[] | {summary}'` against the same agenda with
 * `--json`, over 36 days and a year (2,006 and 20,217 events of the sandbox's calendar), in
 * rotating rounds after a warm-up. Figures: each command's wall time, what jq adds (the
 * filtered run's median minus the plain one's) per 1,000 events at each span, and what each
 * 1,000 events more add between the spans. Those come from whole commands, so a busy
 * machine blurs them; `growth` does not: the same jq (`printJq`) runs in this process over each
 * span's JSON, and growth is its time per event over the year against over the short span. It is
 * near 1 when jq reads and writes in time proportional to the output (0.5 to 1.4 measured), and
 * about the ratio of the spans (10) when it is quadratic, as with the jq-wasm 1.0.1 that hark
 * used before (a 2,000-event agenda took 38 s).
 *
 * @module
 */

import { startSandbox } from "../sandbox/mod.ts";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  jsonList,
  localDate,
  progress,
  round1,
  runOk,
  shellJoin,
  signIn,
  summarize,
  type TimedRun,
} from "./_support.ts";
import { EVENTS_PER_DAY } from "./targets.ts";
import { loadJq, printJq } from "../src/output/jq.ts";

/** The spans measured, in days: the short one and the year. */
export const JQ_SPANS = [36, 365];
/** Measured rounds (after one warm-up round). */
export const JQ_ROUNDS = 3;
/** The filter: one line per event (an object, so a title with a line break stays on one). */
export const JQ_FILTER = ".[] | {summary}";

/**
 * Runs the `--jq` benchmark on the stand-in for the binary (or the only target given).
 *
 * @param options the targets and a scratch folder
 */
export async function benchJqCost(options: BenchOptions): Promise<BenchResult> {
  const sb = await startSandbox({ quiet: true, eventsPerDay: EVENTS_PER_DAY });
  const home = await createBenchHome();
  try {
    const target = options.targets.find((t) => t.name === "bundle") ?? options.targets[0];
    progress("jq_cost: signing in through the CLI");
    await signIn(target, home, sb);
    // The sandbox seeds events from 200 days before today to 250 days after: stay inside.
    const agenda = (days: number) => [
      "calendar",
      "+agenda",
      "--start",
      localDate(-150),
      "--end",
      localDate(-150 + days - 1),
    ];
    const cases = JQ_SPANS.flatMap((days) => [
      { days, jq: false, args: [...agenda(days), "--json"] },
      { days, jq: true, args: [...agenda(days), "--jq", JQ_FILTER] },
    ]);
    const times = cases.map(() => [] as number[]);
    const events = new Map<number, number>();
    const json = new Map<number, string>();
    for (let round = 0; round <= JQ_ROUNDS; round++) {
      for (let k = 0; k < cases.length; k++) {
        // Rotating order, so that no case always runs first or last in a round.
        const i = (k + round) % cases.length;
        const c = cases[i];
        const run = await runOk(target, c.args, { env: home.env, timeoutMs: 600_000 });
        events.set(c.days, check(c, run, events.get(c.days)));
        if (!c.jq) json.set(c.days, run.stdout);
        if (round > 0) times[i].push(run.ms);
      }
      if (round > 0) progress(`jq_cost: round ${round} of ${JQ_ROUNDS}`);
    }
    const spans = JQ_SPANS.map((days) => {
      const plain = summarize(times[cases.findIndex((c) => c.days === days && !c.jq)]);
      const filtered = summarize(times[cases.findIndex((c) => c.days === days && c.jq)]);
      const added = filtered.median_ms - plain.median_ms;
      const count = events.get(days) ?? 0;
      return {
        days,
        events: count,
        json: plain,
        jq: filtered,
        jq_added_ms: round1(added),
        jq_added_ms_per_1000_events: round1(added / count * 1000),
      };
    });
    const [short, year] = spans;
    const engine = await engineTimes(JQ_SPANS.map((days) => json.get(days) ?? ""));
    const perEvent = engine.map((t, i) => t.median_ms / spans[i].events);
    const growth = perEvent[1] / perEvent[0];
    const marginal = (year.jq_added_ms - short.jq_added_ms) / (year.events - short.events) * 1000;
    progress(`jq_cost: jq adds ${year.jq_added_ms} ms to ${year.events} events`);
    return {
      bench: "jq_cost",
      target: target.name,
      filter: JQ_FILTER,
      commands: cases.map((c) => `${target.describe} ${shellJoin(c.args)}`),
      spans: spans.map((span, i) => ({ ...span, engine: engine[i] })),
      jq_ms_per_1000_more_events: round1(marginal),
      growth: Math.round(growth * 100) / 100,
    };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}

/**
 * The number of events a run printed, checked against the other run of the same span.
 *
 * @throws {Error} when the output is not the events, or the two runs disagree
 */
function check(c: { days: number; jq: boolean }, run: TimedRun, seen?: number): number {
  const count = c.jq
    ? run.stdout.split("\n").filter((line) => line !== "").length
    : jsonList(run.stdout).length;
  if (count === 0) throw new Error(`The ${c.days}-day agenda printed no events`);
  if (seen !== undefined && seen !== count) {
    throw new Error(`The ${c.days}-day agenda printed ${seen} events, then ${count}`);
  }
  return count;
}

/** Times `printJq` with the benchmark's filter over each JSON, in this process, after a warm-up. */
async function engineTimes(inputs: string[]) {
  const engine = await loadJq();
  const discard = { stdout: () => {}, stderr: () => {} };
  return inputs.map((input) => {
    const ms: number[] = [];
    for (let i = 0; i <= JQ_ROUNDS; i++) {
      const started = performance.now();
      printJq(engine, JQ_FILTER, input, discard);
      if (i > 0) ms.push(performance.now() - started);
    }
    return summarize(ms);
  });
}
