/**
 * The 40-day rule of calendar queries: a span is split by halving until every piece is at most
 * 40 days; the pieces run at most 10 at a time; a piece the service still refuses (193103 span
 * too long, 193104 too many instances) is halved again. One command reads at most a bounded
 * number of pieces (`--max-pieces`): a span that needs more is refused before any request, and
 * the service can make hark halve pieces only as often.
 *
 * @module
 */

import { ApiError, ValidationError } from "../../errors/mod.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";
import { OrderedSlots } from "./_ordered_slots.ts";
import { groupedDigits } from "../../output/grouped_digits.ts";

/** The longest span one calendar query may cover, in seconds. */
export const MAX_SPAN_SECONDS = 40 * 86_400;
/** A piece shorter than this is not split further, in seconds. */
export const MIN_PIECE_SECONDS = 3_600;
/** Service codes that ask for a shorter span: span over 40 days, over 1000 instances. */
export const SPAN_TOO_LARGE_CODES: readonly number[] = [193103, 193104];

/**
 * The default of `--max-pieces`: the most pieces one command reads. Halving makes 128 pieces of
 * at most 40 days out of any span up to 5,120 days (about 14 years); the service may then make
 * hark halve pieces up to 128 times more.
 */
export const DEFAULT_MAX_PIECES = 128;

/** A half-open time span `[start, end)` in Unix seconds. */
export interface Span {
  /** The first second. */
  start: number;
  /** The end second. */
  end: number;
}

/**
 * Splits a span by halving until every piece is at most `max` seconds long: 120 days gives
 * 2 × 60, then 4 × 30. Pieces are contiguous and in order.
 *
 * @param span the whole span
 * @param max the longest piece; default 40 days
 * @example
 * ```ts
 * splitSpan({ start: 0, end: 120 * 86_400 }).length; // 4
 * ```
 */
export function splitSpan(span: Span, max = MAX_SPAN_SECONDS): Span[] {
  if (span.end - span.start <= max) return [span];
  const [left, right] = halve(span);
  return [...splitSpan(left, max), ...splitSpan(right, max)];
}

/**
 * How many pieces {@link splitSpan} makes of a span `length` seconds long, counted without making
 * them (a span of 8,000 years has 131,072): halves of one length have at most two lengths, so
 * the count takes one step per halving.
 *
 * @param length the span's length in seconds
 * @param max the longest piece; default 40 days
 */
export function pieceCount(length: number, max = MAX_SPAN_SECONDS): number {
  const counted = new Map<number, number>();
  const count = (seconds: number): number => {
    if (seconds <= max) return 1;
    const known = counted.get(seconds);
    if (known !== undefined) return known;
    const half = Math.floor(seconds / 2);
    const total = count(half) + count(seconds - half);
    counted.set(seconds, total);
    return total;
  };
  return count(length);
}

/** What {@link planPieces} needs to know. */
export interface PiecePlan {
  /** The most pieces the command may read (`--max-pieces`). */
  maxPieces: number;
  /** How many times the span is read (one per person, for `+find-time`); default 1. */
  copies?: number;
  /** What the span is called in the error: the flags that set it; default `--start/--end`. */
  flags?: string;
}

/**
 * The pieces of a span ({@link splitSpan}), when there are at most `maxPieces` of them (times
 * `copies`); else a validation error before anything is built or sent. This is the one place
 * that bounds how many requests a long span turns into.
 *
 * @param span the whole span
 * @param plan the cap, how often the span is read, the flags to name
 * @throws {ValidationError} naming `--max-pieces` when it is below 1, or the span's flags and
 *   `--max-pieces` when the span needs more pieces
 * @example
 * ```ts
 * planPieces({ start: 0, end: 365 * 86_400 }, { maxPieces: 128 }).length; // 16
 * planPieces({ start: 0, end: 8_000 * 365 * 86_400 }, { maxPieces: 128 }); // throws
 * ```
 */
export function planPieces(span: Span, plan: PiecePlan): Span[] {
  const { maxPieces, copies = 1, flags = "--start/--end" } = plan;
  if (!Number.isInteger(maxPieces) || maxPieces < 1) {
    throw new ValidationError(
      `Invalid value "${maxPieces}" for --max-pieces: expected at least 1`,
      {
        param: "--max-pieces",
      },
    );
  }
  const needed = pieceCount(span.end - span.start) * copies;
  if (needed > maxPieces) {
    const days = Math.ceil((span.end - span.start) / 86_400);
    const each = copies > 1 ? ` for each of ${copies} people` : "";
    throw new ValidationError(
      `Too long a span for ${flags}: ${groupedDigits(days)} days${each} take ` +
        `${groupedDigits(needed)} requests of at most 40 days, more than --max-pieces ` +
        `(${maxPieces})`,
      {
        param: flags.split("/").at(-1),
        suggestion: `Ask for a shorter span with ${flags.replace("/", " and ")}, or, on the ` +
          `command line, raise --max-pieces to ${needed} (each piece is one request)`,
      },
    );
  }
  return splitSpan(span);
}

/**
 * How often the service may still make hark halve a piece in one command: each halving is two
 * more requests, so a service answering 193104 to everything cannot fan a command out.
 */
export class HalvingBudget {
  #left: number;

  /** @param times how many halvings are allowed (the command's `--max-pieces`) */
  constructor(times: number) {
    this.#left = times;
  }

  /**
   * Takes one halving.
   *
   * @param error the service's refusal that asks for it
   * @throws {ApiError} when none is left, keeping the service's code and log id
   */
  take(error: ApiError): void {
    if (this.#left-- > 0) return;
    throw new ApiError(
      "Cannot query the calendar: the service asked for smaller pieces more often than " +
        `--max-pieces allows (${error.message})`,
      {
        apiCode: error.apiCode,
        httpStatus: error.httpStatus,
        requestId: error.requestId,
        suggestion: "Query a shorter time range",
        cause: error,
      },
    );
  }
}

/**
 * Splits a span in two at its middle second.
 *
 * @param span the span
 */
export function halve(span: Span): [Span, Span] {
  const middle = span.start + Math.floor((span.end - span.start) / 2);
  return [{ start: span.start, end: middle }, { start: middle, end: span.end }];
}

/**
 * Queries one piece, halving it while the service answers 193103 or 193104 (the halves run one
 * after the other).
 *
 * @param piece the piece
 * @param query the call for one piece
 * @param budget the halvings the command may still make; default {@link DEFAULT_MAX_PIECES}
 * @param beforeHalves awaited once, before the halves of a refused piece are read (where
 *   {@link streamAcrossSpan} waits for a dense piece's turn); default none
 * @returns the results of the piece or of its halves, in time order
 * @throws {ApiError} when a piece under an hour is still too large, when the budget is spent,
 *   or the first other error
 */
export async function queryPiece<R>(
  piece: Span,
  query: (piece: Span) => Promise<R>,
  budget: HalvingBudget = new HalvingBudget(DEFAULT_MAX_PIECES),
  beforeHalves?: () => Promise<void>,
): Promise<R[]> {
  try {
    return [await query(piece)];
  } catch (error) {
    if (!(error instanceof ApiError) || !SPAN_TOO_LARGE_CODES.includes(error.apiCode ?? 0)) {
      throw error;
    }
    if (piece.end - piece.start < MIN_PIECE_SECONDS) {
      throw new ApiError(
        `Cannot query the calendar: the service refuses even a span under an hour ` +
          `(${new Date(piece.start * 1000).toISOString()} to ` +
          `${new Date(piece.end * 1000).toISOString()})`,
        {
          apiCode: error.apiCode,
          httpStatus: error.httpStatus,
          requestId: error.requestId,
          suggestion: "Query a shorter time range",
          cause: error,
        },
      );
    }
    budget.take(error);
    await beforeHalves?.();
    const results: R[] = [];
    for (const half of halve(piece)) results.push(...await queryPiece(half, query, budget));
    return results;
  }
}

/**
 * Queries a long span piece by piece: plans it ({@link planPieces}), runs the pieces with at
 * most `limit` in flight, and halves any piece the service answers with 193103 or 193104 (its
 * halves then run one after the other inside that piece's slot), at most `maxPieces` times.
 *
 * @param span the whole span
 * @param query the call for one piece
 * @param options `maxPieces` (default {@link DEFAULT_MAX_PIECES}); `limit`, the most pieces in
 *   flight (default 10)
 * @returns the results of every piece, in time order
 * @throws {ValidationError} when the span needs more than `maxPieces` pieces (nothing is sent)
 * @throws {ApiError} when a piece under an hour is still too large, when the service asks for
 *   more halvings than `maxPieces`, or the first other error
 */
export async function queryAcrossSpan<R>(
  span: Span,
  query: (piece: Span) => Promise<R>,
  options: { maxPieces?: number; limit?: number } = {},
): Promise<R[]> {
  const { maxPieces = DEFAULT_MAX_PIECES, limit = MAX_WORKERS } = options;
  const pieces = planPieces(span, { maxPieces });
  const budget = new HalvingBudget(maxPieces);
  const nested = await runPool(pieces, limit, (piece) => queryPiece(piece, query, budget));
  return nested.flat();
}

/** One finished piece of {@link streamAcrossSpan}. */
export interface FinishedPiece<T> {
  /** The piece. */
  piece: Span;
  /** What `settle` made of its results (more than one when the service made hark halve it). */
  results: T;
  /** Its position, from 0. */
  index: number;
  /** How many pieces the span has. */
  total: number;
}

/** The options of {@link streamAcrossSpan}. */
export interface StreamOptions<R, S> {
  /** The most pieces in flight or waiting; default 10. */
  limit?: number;
  /** The most pieces the span may need, and halvings (`--max-pieces`); default 128. */
  maxPieces?: number;
  /** The first piece to read, by position (a resumed listing); default 0. */
  from?: number;
  /** Called as each piece finishes, with the count done and the total (progress). */
  onDone?: (done: number, total: number) => void;
  /**
   * Shapes a piece's results as soon as it finishes, before it waits for the pieces ahead of it:
   * what a waiting piece holds is what this returns (compact rows rather than whole answers).
   * `(_piece, results) => results` keeps them as they are.
   */
  settle: (piece: Span, results: R[]) => S;
  /**
   * Called after each `settle`, once the piece's raw results can no longer be reached: where a
   * stream hands memory back (`Context.reclaim`), so that the answers of pieces that finish
   * while an earlier one is still running do not pile up until the next write.
   */
  onSettled?: () => void;
  /**
   * The most dense pieces (those the service refused as too large, 193103 or 193104) reading
   * their halves at once; default `limit`. The first request of every piece still goes out up to
   * `limit` at a time (a refusal holds nothing), but each half of a dense piece is a full answer
   * of up to 1,000 events: this bounds how many of those are in memory at once, whatever the
   * span. Slots go strictly in piece order (a refused piece waits until every earlier piece was
   * answered or has had its turn), so the next piece to write is never kept behind later ones
   * holding their rows; one is freed when its piece has settled.
   */
  denseLimit?: number;
}

/**
 * Like {@link queryAcrossSpan}, but yields each piece in time order as soon as it and every
 * earlier piece are done, so a caller can write it out and drop it. At most `limit` pieces are
 * in flight or waiting to be yielded at once: a piece starts only when one `limit` places before
 * it was yielded, so memory stays bounded however long the span; of those, at most `denseLimit`
 * read the halves of a piece the service refused as too large.
 *
 * @param span the whole span
 * @param query the call for one piece
 * @param options how a finished piece is shaped, the limits, progress
 * @throws {ValidationError} when the span needs more than `maxPieces` pieces (nothing is sent)
 * @throws the first error of a piece, after the pieces in flight settle
 */
export async function* streamAcrossSpan<R, S>(
  span: Span,
  query: (piece: Span) => Promise<R>,
  options: StreamOptions<R, S>,
): AsyncGenerator<FinishedPiece<S>> {
  const { limit = MAX_WORKERS, maxPieces = DEFAULT_MAX_PIECES, from = 0 } = options;
  const { onDone, settle, onSettled, denseLimit = limit } = options;
  const pieces = planPieces(span, { maxPieces });
  const budget = new HalvingBudget(maxPieces);
  const dense = new OrderedSlots(denseLimit);
  const total = pieces.length;
  const running: Promise<S>[] = [];
  let done = from;
  const start = (index: number) => {
    let release = () => {};
    const enterDense = async () => void (release = await dense.take(index));
    dense.expect(index);
    const task = queryPiece(pieces[index], query, budget, enterDense)
      // A piece answered at once (or failed) will not ask for a slot: later ones need not wait.
      .finally(() => dense.pass(index))
      .then((results) => {
        onDone?.(++done, total);
        return settle(pieces[index], results);
      })
      .finally(() => release())
      .then((settled) => {
        onSettled?.();
        return settled;
      });
    // Settled later, in order; a rejection is read when its turn comes.
    task.catch(() => {});
    running[index] = task;
  };
  for (let i = from; i < Math.min(from + limit, total); i++) start(i);
  try {
    for (let index = from; index < total; index++) {
      const results = await running[index];
      delete running[index];
      if (index + limit < total) start(index + limit);
      yield { piece: pieces[index], results, index, total };
    }
  } finally {
    // On a failure or an early stop, let the calls in flight end before returning.
    await Promise.allSettled(running.filter((t) => t !== undefined));
  }
}
