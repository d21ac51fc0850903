import assert from "node:assert/strict";
import { intersectIntervals, mergeIntervals, subtractIntervals } from "./intervals.ts";

const i = (start: number, end: number) => ({ start, end });

Deno.test("mergeIntervals() merges overlapping, touching, nested and repeated intervals", () => {
  assert.deepEqual(
    mergeIntervals([i(10, 20), i(0, 5), i(5, 8), i(12, 15), i(10, 20), i(19, 25), i(30, 31)]),
    [i(0, 8), i(10, 25), i(30, 31)],
  );
});

Deno.test("mergeIntervals() drops empty and inverted intervals and leaves its input alone", () => {
  const input = [i(3, 3), i(9, 2), i(1, 2)];
  assert.deepEqual(mergeIntervals(input), [i(1, 2)]);
  assert.deepEqual(input, [i(3, 3), i(9, 2), i(1, 2)]);
  assert.deepEqual(mergeIntervals([]), []);
});

Deno.test("intersectIntervals() keeps only the time both lists cover", () => {
  assert.deepEqual(
    intersectIntervals([i(0, 10), i(20, 30)], [i(5, 25), i(28, 40)]),
    [i(5, 10), i(20, 25), i(28, 30)],
  );
  assert.deepEqual(intersectIntervals([i(0, 10)], [i(10, 20)]), []);
  assert.deepEqual(intersectIntervals([i(0, 10)], []), []);
});

Deno.test("subtractIntervals() removes the covered time, splitting where needed", () => {
  assert.deepEqual(
    subtractIntervals([i(0, 100)], [i(10, 20), i(20, 30), i(50, 60), i(90, 120)]),
    [i(0, 10), i(30, 50), i(60, 90)],
  );
  assert.deepEqual(subtractIntervals([i(0, 10), i(20, 30)], [i(5, 25)]), [i(0, 5), i(25, 30)]);
  assert.deepEqual(subtractIntervals([i(0, 10)], [i(-5, 15)]), []);
  assert.deepEqual(subtractIntervals([i(0, 10)], []), [i(0, 10)]);
});

Deno.test("interval operations agree with a unit-by-unit model on random inputs", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const randomList = () =>
    Array.from({ length: random(6) }, () => {
      const start = random(60);
      return i(start, start + random(15));
    });
  const covered = (list: { start: number; end: number }[], t: number) =>
    list.some((x) => x.start <= t && t < x.end);
  for (let round = 0; round < 300; round++) {
    const a = mergeIntervals(randomList());
    const b = mergeIntervals(randomList());
    const both = intersectIntervals(a, b);
    const rest = subtractIntervals(a, b);
    for (const list of [a, b, both, rest]) {
      for (let k = 1; k < list.length; k++) assert.ok(list[k - 1].end < list[k].start);
    }
    for (let t = 0; t < 80; t++) {
      assert.equal(covered(both, t), covered(a, t) && covered(b, t));
      assert.equal(covered(rest, t), covered(a, t) && !covered(b, t));
    }
  }
});
