/**
 * Sets of time intervals: half-open `[start, end)` spans of epoch milliseconds, kept sorted and
 * disjoint, with union, intersection and difference.
 *
 * @module
 */

/** A half-open span of time `[start, end)`, in epoch milliseconds. */
export interface Interval {
  /** The first millisecond. */
  start: number;
  /** The millisecond just after the last one. */
  end: number;
}

/**
 * Normalises intervals into a sorted list of disjoint ones: drops empty ones (`end <= start`),
 * sorts, and merges those that overlap, nest, repeat or touch (`[1, 2)` and `[2, 3)` become
 * `[1, 3)`). The input is not changed.
 *
 * @param intervals any intervals, in any order
 * @returns sorted, disjoint, non-touching intervals
 * @example
 * ```ts
 * mergeIntervals([{ start: 5, end: 9 }, { start: 1, end: 5 }, { start: 2, end: 3 }]);
 * // [{ start: 1, end: 9 }]
 * ```
 */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals
    .filter((i) => i.end > i.start)
    .map((i) => ({ start: i.start, end: i.end }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push(interval);
  }
  return merged;
}

/**
 * The time covered by both lists.
 *
 * @param a sorted, disjoint intervals (as {@link mergeIntervals} returns)
 * @param b sorted, disjoint intervals
 * @returns sorted, disjoint intervals
 */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i].start, b[j].start);
    const end = Math.min(a[i].end, b[j].end);
    if (end > start) out.push({ start, end });
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return out;
}

/**
 * The time covered by `a` and not by `b`.
 *
 * @param a sorted, disjoint intervals (as {@link mergeIntervals} returns)
 * @param b sorted, disjoint intervals to remove
 * @returns sorted, disjoint intervals
 */
export function subtractIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const interval of a) {
    let start = interval.start;
    while (j < b.length && b[j].end <= start) j++;
    let k = j;
    while (k < b.length && b[k].start < interval.end) {
      if (b[k].start > start) out.push({ start, end: b[k].start });
      start = Math.max(start, b[k].end);
      k++;
    }
    if (start < interval.end) out.push({ start, end: interval.end });
  }
  return out;
}
