/**
 * Connection reuse: how many TCP connections one hark command opens while it makes 20 calls.
 * The command is `contact +search-user --page-all` with a query and page size chosen from the
 * sandbox's users so that it walks exactly 20 pages; the sandbox counts distinct client
 * connections (by remote port) and the calls it received.
 *
 * @module
 */

import { type SeedUser, startSandbox } from "../sandbox/mod.ts";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  jsonList,
  progress,
  requestLog,
  requestStats,
  resetRequests,
  round1,
  runOk,
  shellJoin,
  signIn,
} from "./_support.ts";

/** The number of calls the command should make. */
export const TARGET_CALLS = 20;
/** Runs per target. */
export const REUSE_RUNS = 3;

/** A query and page size whose `--page-all` walk takes exactly `pages` pages. */
export interface PagedQuery {
  /** The search words. */
  query: string;
  /** `--limit`, which sets the page size. */
  pageSize: number;
  /** Users the query matches. */
  matches: number;
}

/**
 * Finds a query (one or two letters) and a page size so that paging through all matches takes
 * exactly `pages` requests, matching as the sandbox does (name, English name, email local part).
 *
 * @param users the sandbox's users
 * @param pages the wanted number of pages
 * @throws {Error} when no such query exists
 */
export function pagedQuery(users: SeedUser[], pages: number): PagedQuery {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const candidates = [...letters];
  for (const a of letters) for (const b of letters) candidates.push(a + b);
  let best: PagedQuery | undefined;
  for (const query of candidates) {
    const matches = users.filter((u) =>
      u.name.toLowerCase().includes(query) || u.en_name.toLowerCase().includes(query) ||
      u.email.toLowerCase().split("@")[0].includes(query)
    ).length;
    for (let pageSize = 1; pageSize <= 200 && pageSize <= matches; pageSize++) {
      if (Math.ceil(matches / pageSize) !== pages) {
        continue;
      }
      if (!best || pageSize > best.pageSize) {
        best = { query, pageSize, matches };
      }
    }
  }
  if (!best) throw new Error(`Cannot find a search that takes ${pages} pages`);
  return best;
}

/**
 * Runs the connection-reuse benchmark.
 *
 * @param options the targets and a scratch folder
 */
export async function benchConnectionReuse(options: BenchOptions): Promise<BenchResult> {
  const sb = await startSandbox({ quiet: true });
  const home = await createBenchHome();
  try {
    progress("connection_reuse: signing in through the CLI");
    await signIn(options.targets[0], home, sb);
    const paged = pagedQuery(sb.users, TARGET_CALLS);
    const args = [
      "contact",
      "+search-user",
      "--query",
      paged.query,
      "--limit",
      String(paged.pageSize),
      "--page-all",
      "--json",
    ];
    const results: Record<string, unknown>[] = [];
    for (const target of options.targets) {
      const runs: Record<string, number>[] = [];
      for (let i = 0; i < REUSE_RUNS; i++) {
        await resetRequests(sb);
        const run = await runOk(target, args, { env: home.env });
        const log = await requestLog(sb);
        const stats = await requestStats(sb);
        runs.push({
          wall_ms: round1(run.ms),
          calls: stats.requests,
          search_calls: log.filter((r) => r.path === "/open-apis/search/v1/user").length,
          connections: stats.connections,
          max_in_flight: stats.max_in_flight,
          users: jsonList(run.stdout).length,
        });
      }
      progress(`connection_reuse: ${target.name} ${runs[0].connections} connection(s)`);
      results.push({
        target: target.name,
        command: `${target.describe} ${shellJoin(args)}`,
        calls: runs[0].calls,
        connections: Math.max(...runs.map((r) => r.connections)),
        calls_per_connection: round1(runs[0].calls / Math.max(...runs.map((r) => r.connections))),
        runs,
      });
    }
    return {
      bench: "connection_reuse",
      query: paged.query,
      page_size: paged.pageSize,
      matching_users: paged.matches,
      results,
    };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}
