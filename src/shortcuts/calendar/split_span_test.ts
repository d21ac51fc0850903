import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import {
  DEFAULT_MAX_PIECES,
  MAX_SPAN_SECONDS,
  pieceCount,
  planPieces,
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

Deno.test("streamAcrossSpan() reads the halves of at most denseLimit refused pieces at once, in piece order", async () => {
  for (const denseLimit of [1, undefined]) {
    let halvesInFlight = 0;
    let most = 0;
    const firsts: number[] = [];
    const halves: number[] = [];
    const pieces = streamAcrossSpan({ start: 0, end: 160 * DAY }, async (piece) => {
      if (piece.end - piece.start > 20 * DAY) {
        firsts.push(piece.start / DAY);
        // Later pieces are refused first: they still wait for the earlier ones.
        for (let i = 0; i < 10 - piece.start / DAY / 20; i++) await Promise.resolve();
        throw new ApiError("too many instances", { apiCode: 193104 });
      }
      halves.push(piece.start / DAY);
      most = Math.max(most, ++halvesInFlight);
      for (let i = 0; i < 3; i++) await Promise.resolve();
      halvesInFlight--;
      return piece.start / DAY;
    }, { limit: 4, denseLimit, settle: (_piece, results) => results });
    const seen: number[][] = [];
    for await (const { results } of pieces) seen.push(results);
    // Every piece's results, in order: two halves each.
    assert.deepEqual(seen, [[0, 20], [40, 60], [80, 100], [120, 140]]);
    if (denseLimit === 1) {
      assert.equal(most, 1);
      // The four first requests went out at once, before any half.
      assert.deepEqual(firsts.slice(0, 4), [0, 40, 80, 120]);
      assert.deepEqual(halves, [0, 20, 40, 60, 80, 100, 120, 140]);
    } else assert.ok(most > 1, "without a dense limit, halves of several pieces run at once");
  }
});

Deno.test("streamAcrossSpan() calls onSettled after each piece settles, before its turn comes", async () => {
  const log: string[] = [];
  const pieces = streamAcrossSpan({ start: 0, end: 80 * DAY }, async (piece) => {
    // The second piece finishes first: its answer is let go before the first one is yielded.
    if (piece.start === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    return piece.start / DAY;
  }, {
    settle(piece) {
      log.push(`settle ${piece.start / DAY}`);
      return piece.start / DAY;
    },
    onSettled: () => log.push("settled"),
  });
  for await (const { results } of pieces) log.push(`yield ${results}`);
  assert.deepEqual(log, ["settle 40", "settled", "settle 0", "settled", "yield 0", "yield 40"]);
});

/** 1970-01-01 to the end of 9999-12-31, the span that once sent 37,352 requests and went on. */
const EPOCH_TO_9999: Span = { start: 0, end: Date.UTC(10000, 0, 1) / 1000 };

Deno.test("pieceCount() counts the pieces splitSpan() makes, without making them", () => {
  for (const days of [0.5, 1, 39, 40, 41, 80, 81, 120, 121, 365, 1000, 3652, 5120, 5121]) {
    const length = Math.round(days * DAY);
    assert.equal(pieceCount(length), splitSpan({ start: 0, end: length }).length, `${days} days`);
  }
  for (const seconds of [40 * DAY + 1, 81 * DAY + 7, 163 * DAY - 3]) {
    assert.equal(pieceCount(seconds), splitSpan({ start: 0, end: seconds }).length);
  }
  assert.equal(pieceCount(EPOCH_TO_9999.end - EPOCH_TO_9999.start), 131_072);
});

Deno.test("planPieces() refuses a span of more pieces than --max-pieces, naming the flags", () => {
  assert.throws(() => planPieces(EPOCH_TO_9999, { maxPieces: DEFAULT_MAX_PIECES }), (e) => {
    assert.ok(e instanceof ValidationError, String(e));
    assert.equal(e.code, 2);
    assert.equal(
      e.message,
      "Too long a span for --start/--end: 2,932,897 days take 131,072 requests of at most 40 days, " +
        "more than --max-pieces (128)",
    );
    assert.equal(e.param, "--end");
    assert.match(e.recovery.suggestion, /--start and --end/);
    assert.match(e.recovery.suggestion, /raise --max-pieces to 131072/);
    return true;
  });
  // Raised on the command line, the same span is allowed.
  assert.equal(planPieces(EPOCH_TO_9999, { maxPieces: 131_072 }).length, 131_072);
});

Deno.test("planPieces() allows up to --max-pieces pieces: 128 by default, about 14 years", () => {
  const limit = { start: 0, end: DEFAULT_MAX_PIECES * MAX_SPAN_SECONDS };
  assert.equal(planPieces(limit, { maxPieces: DEFAULT_MAX_PIECES }).length, 128);
  const tenYears = { start: 0, end: 3653 * DAY };
  assert.equal(planPieces(tenYears, { maxPieces: DEFAULT_MAX_PIECES }).length, 128);
  assert.throws(
    () => planPieces({ start: 0, end: limit.end + 1 }, { maxPieces: DEFAULT_MAX_PIECES }),
    /more than --max-pieces \(128\)/,
  );
  const year = { start: 0, end: 365 * DAY };
  assert.deepEqual(planPieces(year, { maxPieces: 16 }), splitSpan(year));
  assert.throws(() => planPieces(year, { maxPieces: 15 }), ValidationError);
});

Deno.test("planPieces() counts every person's copy of the span, and wants --max-pieces of 1 or more", () => {
  const year = { start: 0, end: 365 * DAY };
  assert.equal(planPieces(year, { maxPieces: 128, copies: 8 }).length, 16);
  assert.throws(
    () => planPieces(year, { maxPieces: 128, copies: 9 }),
    /365 days for each of 9 people take 144 requests/,
  );
  for (const bad of [0, -1, 1.5]) {
    assert.throws(() => planPieces(year, { maxPieces: bad }), (e) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.message, `Invalid value "${bad}" for --max-pieces: expected at least 1`);
      return true;
    });
  }
});

Deno.test("queryAcrossSpan() and streamAcrossSpan() send nothing for a span over the cap", async () => {
  let calls = 0;
  const query = () => Promise.resolve(++calls);
  await assert.rejects(queryAcrossSpan(EPOCH_TO_9999, query), ValidationError);
  await assert.rejects(async () => {
    for await (const _ of streamAcrossSpan(EPOCH_TO_9999, query, { settle: (_p, r) => r })) {
      // Nothing comes.
    }
  }, ValidationError);
  await assert.rejects(
    queryAcrossSpan({ start: 0, end: 365 * DAY }, query, { maxPieces: 8 }),
    /more than --max-pieces \(8\)/,
  );
  assert.equal(calls, 0);
});

Deno.test("a service that always asks for smaller pieces gets at most --max-pieces halvings", async () => {
  for (const run of ["query", "stream"] as const) {
    let calls = 0;
    const tooMany = () => {
      calls++;
      return Promise.reject(
        new ApiError("too many instances", { apiCode: 193104, requestId: "l" }),
      );
    };
    const span = { start: 0, end: 80 * DAY }; // 2 pieces, each halvable about 10 times
    const done = run === "query" ? queryAcrossSpan(span, tooMany, { maxPieces: 5 }) : (async () => {
      for await (
        const _ of streamAcrossSpan(span, tooMany, {
          maxPieces: 5,
          settle: (_p, r) => r,
        })
      ) {
        // Nothing comes.
      }
    })();
    await assert.rejects(done, (e) => {
      assert.ok(e instanceof ApiError, String(e));
      assert.match(e.message, /asked for smaller pieces more often than --max-pieces allows/);
      assert.equal(e.apiCode, 193104);
      assert.equal(e.requestId, "l");
      return true;
    });
    // The 2 pieces, then 5 halvings of 2 halves each at most, and the 6th refusal.
    assert.ok(calls <= 2 + 5 * 2 + 1, `${run}: ${calls} calls`);
  }
});
