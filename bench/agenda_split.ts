/**
 * The 40-day split: `calendar +agenda` over 365 days against the sandbox with 50 ms of latency
 * injected into every request. Figures: wall time, request count (from the sandbox's request
 * log) and the largest number of requests in flight (`max_in_flight`), side by side with the
 * very same pieces (read back from the request log) fetched one after another with the same
 * token, and, to separate process start-up from the split itself, the same pieces fetched from
 * this process ten at a time.
 *
 * @module
 */

import { type Sandbox, startSandbox } from "../sandbox/mod.ts";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  jsonList,
  localDate,
  progress,
  requestLog,
  requestStats,
  resetRequests,
  round1,
  runOk,
  sandboxCall,
  shellJoin,
  signIn,
  summarize,
} from "./_support.ts";

/** Injected latency per request, in milliseconds. */
export const LATENCY_MS = 50;
/** Measured runs per variant. */
export const SPLIT_RUNS = 10;
/** Days in the span (`--start` today, `--end` today + 364: 365 whole days). */
export const SPAN_DAYS = 365;

const INSTANCE_VIEW = "/events/instance_view";

interface Piece {
  path: string;
  start_time: string;
  end_time: string;
}

/**
 * Runs the split benchmark.
 *
 * @param options the targets and a scratch folder
 */
export async function benchAgendaSplit(options: BenchOptions): Promise<BenchResult> {
  const sb = await startSandbox({ quiet: true });
  const home = await createBenchHome();
  try {
    const [first] = options.targets;
    progress("agenda_split: signing in through the CLI");
    await signIn(first, home, sb);
    const token = (await runOk(first, ["auth", "token"], { env: home.env })).stdout.trim();
    await sandboxCall(sb, "POST", "/sandbox/faults", { kind: "latency", ms: LATENCY_MS });

    const args = [
      "calendar",
      "+agenda",
      "--start",
      localDate(0),
      "--end",
      localDate(SPAN_DAYS - 1),
      "--json",
    ];
    const hark: Record<string, unknown>[] = [];
    let pieces: Piece[] = [];
    for (const target of options.targets) {
      const wall: number[] = [];
      const windows: number[] = [];
      const perRun: Record<string, number>[] = [];
      for (let i = 0; i <= SPLIT_RUNS; i++) {
        await resetRequests(sb);
        const run = await runOk(target, args, { env: home.env });
        const log = await requestLog(sb);
        const stats = await requestStats(sb);
        const views = log.filter((r) => r.path.endsWith(INSTANCE_VIEW));
        pieces = views.map((r) => ({
          path: r.path,
          start_time: String(r.query.start_time),
          end_time: String(r.query.end_time),
        })).sort((a, b) => Number(a.start_time) - Number(b.start_time));
        if (i === 0) continue; // warm-up
        const arrivals = views.map((r) => Date.parse(r.time));
        wall.push(run.ms);
        windows.push(Math.max(...arrivals) - Math.min(...arrivals));
        perRun.push({
          wall_ms: round1(run.ms),
          requests: stats.requests,
          instance_view_requests: views.length,
          max_in_flight: stats.max_in_flight,
          connections: stats.connections,
          events: jsonList(run.stdout).length,
        });
      }
      progress(`agenda_split: ${target.name} median ${summarize(wall).median_ms} ms`);
      hark.push({
        target: target.name,
        command: `${target.describe} ${shellJoin(args)}`,
        wall: summarize(wall),
        first_to_last_request_arrival_ms: summarize(windows).median_ms,
        requests: perRun[0].requests,
        instance_view_requests: perRun[0].instance_view_requests,
        max_in_flight: Math.max(...perRun.map((r) => r.max_in_flight)),
        connections: perRun[0].connections,
        events: perRun[0].events,
        runs: perRun,
      });
    }

    const sequential = await fetchPieces(sb, token, pieces, 1);
    progress(`agenda_split: sequential median ${sequential.wall.median_ms} ms`);
    const pooled = await fetchPieces(sb, token, pieces, 10);
    return {
      bench: "agenda_split",
      latency_ms: LATENCY_MS,
      span_days: SPAN_DAYS,
      pieces: pieces.length,
      piece_days: round1((Number(pieces[0].end_time) - Number(pieces[0].start_time)) / 86_400),
      hark,
      sequential_same_pieces: {
        how: "fetch from the bench process, one after another",
        ...sequential,
      },
      pooled_same_pieces: { how: "fetch from the bench process, 10 in flight", ...pooled },
    };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}

/** Fetches the pieces with at most `limit` in flight, SPLIT_RUNS times (after one warm-up). */
async function fetchPieces(sb: Sandbox, token: string, pieces: Piece[], limit: number) {
  const wall: number[] = [];
  let stats = { requests: 0, max_in_flight: 0 };
  for (let i = 0; i <= SPLIT_RUNS; i++) {
    await resetRequests(sb);
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < pieces.length) {
        const piece = pieces[next++];
        const url = new URL(`${sb.baseUrl}${piece.path}`);
        url.searchParams.set("start_time", piece.start_time);
        url.searchParams.set("end_time", piece.end_time);
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        const body = await response.json() as { code?: number; msg?: string };
        if (body.code !== 0) {
          throw new Error(`Cannot fetch piece ${url.search}: ${body.code} ${body.msg}`);
        }
      }
    };
    await Promise.all(Array.from({ length: limit }, worker));
    const ms = performance.now() - started;
    if (i === 0) continue;
    wall.push(ms);
    stats = await requestStats(sb);
  }
  return { wall: summarize(wall), requests: stats.requests, max_in_flight: stats.max_in_flight };
}
