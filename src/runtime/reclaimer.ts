/**
 * `Context.reclaim` of the real context: a paced full garbage collection.
 *
 * @module
 */

/**
 * The least time between two full collections {@link reclaimer} starts, in ms. 50 rather than
 * 100: a year-long agenda's peak is about 1.2 MiB lower (365 days of the bench's calendar, two
 * sittings of 5 runs: 70.1 → 68.8 and 68.8 → 67.7 MiB; one day's within the noise) for about 4 % more
 * time (2.17 → 2.26 s, 6 runs, no network latency; with a real network's, less).
 */
export const RECLAIM_INTERVAL_MS = 50;

/**
 * `Context.reclaim`: a full garbage collection, at most once per
 * {@link RECLAIM_INTERVAL_MS} (one takes a few milliseconds on hark's small heap, so streams
 * spend a few percent on it). V8 otherwise frees the garbage of finished requests only
 * under heap pressure, and that garbage holds native buffers the heap does not count: without
 * it, a 1,000-page listing grows the process by tens of megabytes. `gc` exists when V8 runs with
 * `--expose-gc`, which the compiled binary and the tasks pass (`scripts/permissions.ts`);
 * without it this does nothing.
 *
 * @param now the clock, in ms
 * @param gc V8's collector, when exposed
 */
export function reclaimer(now: () => number, gc: (() => void) | undefined): () => void {
  if (typeof gc !== "function") return () => {};
  let last = now();
  return () => {
    if (now() - last < RECLAIM_INTERVAL_MS) return;
    gc();
    last = now();
  };
}
