import assert from "node:assert/strict";
import { ApiError } from "../../errors/mod.ts";
import { MAX_SPAN_SECONDS, queryAcrossSpan, type Span, splitSpan } from "./split_span.ts";

const DAY = 86_400;

Deno.test("splitSpan() turns 120 days into 4 pieces of 30", () => {
  const pieces = splitSpan({ start: 1000, end: 1000 + 120 * DAY });
  assert.deepEqual(pieces.map((p) => (p.end - p.start) / DAY), [30, 30, 30, 30]);
  assert.equal(pieces[0].start, 1000);
});

Deno.test("splitSpan() halves 365 days into contiguous pieces of at most 40 days", () => {
  const span = { start: 0, end: 365 * DAY };
  const pieces = splitSpan(span);
  assert.equal(pieces.length, 16);
  assert.ok(pieces.every((p) => p.end - p.start <= MAX_SPAN_SECONDS));
  assert.equal(pieces[0].start, span.start);
  assert.equal(pieces.at(-1)!.end, span.end);
  for (let i = 1; i < pieces.length; i++) assert.equal(pieces[i].start, pieces[i - 1].end);
});

Deno.test("splitSpan() keeps a span of 40 days or less whole", () => {
  assert.deepEqual(splitSpan({ start: 0, end: 40 * DAY }), [{ start: 0, end: 40 * DAY }]);
  assert.equal(splitSpan({ start: 0, end: 40 * DAY + 1 }).length, 2);
});

Deno.test("queryAcrossSpan() halves a piece the service answers with 193104", async () => {
  const asked: Span[] = [];
  const results = await queryAcrossSpan({ start: 0, end: 20 * DAY }, (piece) => {
    asked.push(piece);
    if (piece.end - piece.start > 5 * DAY) {
      return Promise.reject(new ApiError("too many instances", { apiCode: 193104 }));
    }
    return Promise.resolve(piece.start / DAY);
  });
  assert.deepEqual(results, [0, 5, 10, 15]);
  assert.equal(asked.length, 7);
});

Deno.test("queryAcrossSpan() gives up on a piece under an hour and passes other errors on", async () => {
  await assert.rejects(
    queryAcrossSpan(
      { start: 0, end: 2 * 3600 },
      () => Promise.reject(new ApiError("span", { apiCode: 193103 })),
    ),
    (e: unknown) => e instanceof ApiError && /even a span under an hour/.test(e.message),
  );
  await assert.rejects(
    queryAcrossSpan(
      { start: 0, end: DAY },
      () => Promise.reject(new ApiError("forbidden", { apiCode: 99991672 })),
    ),
    /forbidden/,
  );
});
