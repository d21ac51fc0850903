import assert from "node:assert/strict";
import { ApiError } from "../../errors/mod.ts";
import {
  MAX_SPAN_SECONDS,
  queryAcrossSpan,
  type Span,
  splitSpan,
  streamAcrossSpan,
} from "./split_span.ts";

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

Deno.test("streamAcrossSpan() yields pieces in order as they finish, never more than the limit ahead", async () => {
  const started: number[] = [];
  const pieces = streamAcrossSpan({ start: 0, end: 200 * DAY }, async (piece) => {
    started.push(piece.start);
    // Earlier pieces take longer: completion order is the reverse of time order.
    await new Promise((resolve) => setTimeout(resolve, 30 - piece.start / DAY / 10));
    return piece.start;
  }, { limit: 2, settle: (_piece, results) => results });
  const seen: number[] = [];
  for await (const { results, index, total } of pieces) {
    seen.push(results[0]);
    assert.equal(total, 8);
    // Piece index + 2 may have started, no later one.
    assert.ok(started.length <= index + 3, `started ${started.length} at ${index}`);
  }
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
  assert.equal(seen.length, 8);
});

Deno.test("streamAcrossSpan() ends with the first error after the calls in flight settle", async () => {
  let settled = 0;
  const pieces = streamAcrossSpan({ start: 0, end: 100 * DAY }, async (piece) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    settled++;
    if (piece.start === 0) throw new Error("first piece failed");
    return piece.start;
  }, { limit: 3, settle: (_piece, results) => results });
  await assert.rejects(async () => {
    for await (const _ of pieces) { /* consume */ }
  }, /first piece failed/);
  assert.equal(settled, 3);
});

Deno.test("streamAcrossSpan() settles each piece as it finishes, before its turn comes", async () => {
  const log: string[] = [];
  const pieces = streamAcrossSpan({ start: 0, end: 80 * DAY }, async (piece) => {
    // The second piece finishes first.
    await new Promise((resolve) => setTimeout(resolve, piece.start === 0 ? 30 : 1));
    log.push(`done ${piece.start / DAY}`);
    return piece.start / DAY;
  }, {
    settle(piece, results) {
      log.push(`settle ${piece.start / DAY}`);
      return `day ${results[0]}`;
    },
  });
  const seen: string[] = [];
  for await (const { results } of pieces) seen.push(results);
  assert.deepEqual(seen, ["day 0", "day 40"]);
  assert.deepEqual(log, ["done 40", "settle 40", "done 0", "settle 0"]);
});
