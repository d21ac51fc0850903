/**
 * A bounded worker pool: runs tasks with at most N in flight.
 *
 * @module
 */

/** The most tasks a batched query runs at once (the spec's "concurrent workers"). */
export const MAX_WORKERS = 10;

/**
 * Runs `worker` on every item with at most `limit` calls in flight, and resolves with the
 * results in the items' order. On the first failure no new call starts; the pool waits for the
 * calls in flight to settle, then rejects with that failure.
 *
 * @param items the inputs
 * @param limit the most calls in flight; at least 1
 * @param worker the task
 * @throws the first error a worker threw
 * @example
 * ```ts
 * const pages = await runPool([1, 2, 3], 2, async (n) => n * 2); // [2, 4, 6]
 * ```
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await worker(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure) throw failure.error;
  return results;
}
