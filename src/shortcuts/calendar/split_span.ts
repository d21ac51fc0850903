/**
 * The 40-day rule of calendar queries: a span is split by halving until every piece is at most
 * 40 days; the pieces run at most 10 at a time; a piece the service still refuses (193103 span
 * too long, 193104 too many instances) is halved again.
 *
 * @module
 */

import { ApiError } from "../../errors/mod.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";

/** The longest span one calendar query may cover, in seconds. */
export const MAX_SPAN_SECONDS = 40 * 86_400;
/** A piece shorter than this is not split further, in seconds. */
export const MIN_PIECE_SECONDS = 3_600;
/** Service codes that ask for a shorter span: span over 40 days, over 1000 instances. */
export const SPAN_TOO_LARGE_CODES: readonly number[] = [193103, 193104];

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
 * @returns the results of the piece or of its halves, in time order
 * @throws {ApiError} when a piece under an hour is still too large, or the first other error
 */
export async function queryPiece<R>(
  piece: Span,
  query: (piece: Span) => Promise<R>,
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
    const results: R[] = [];
    for (const half of halve(piece)) results.push(...await queryPiece(half, query));
    return results;
  }
}

/**
 * Queries a long span piece by piece: splits it ({@link splitSpan}), runs the pieces with at
 * most `limit` in flight, and halves any piece the service answers with 193103 or 193104 (its
 * halves then run one after the other inside that piece's slot).
 *
 * @param span the whole span
 * @param query the call for one piece
 * @param limit the most pieces in flight; default 10
 * @returns the results of every piece, in time order
 * @throws {ApiError} when a piece under an hour is still too large, or the first other error
 */
export async function queryAcrossSpan<R>(
  span: Span,
  query: (piece: Span) => Promise<R>,
  limit = MAX_WORKERS,
): Promise<R[]> {
  const nested = await runPool(splitSpan(span), limit, (piece) => queryPiece(piece, query));
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
  /** Called as each piece finishes, with the count done and the total (progress). */
  onDone?: (done: number, total: number) => void;
  /**
   * Shapes a piece's results as soon as it finishes, before it waits for the pieces ahead of it:
   * what a waiting piece holds is what this returns (compact rows rather than whole answers).
   * `(_piece, results) => results` keeps them as they are.
   */
  settle: (piece: Span, results: R[]) => S;
}

/**
 * Like {@link queryAcrossSpan}, but yields each piece in time order as soon as it and every
 * earlier piece are done, so a caller can write it out and drop it. At most `limit` pieces are
 * in flight or waiting to be yielded at once: a piece starts only when one `limit` places before
 * it was yielded, so memory stays bounded however long the span.
 *
 * @param span the whole span
 * @param query the call for one piece
 * @param options how a finished piece is shaped, the limit, progress
 * @throws the first error of a piece, after the pieces in flight settle
 */
export async function* streamAcrossSpan<R, S>(
  span: Span,
  query: (piece: Span) => Promise<R>,
  options: StreamOptions<R, S>,
): AsyncGenerator<FinishedPiece<S>> {
  const { limit = MAX_WORKERS, onDone, settle } = options;
  const pieces = splitSpan(span);
  const total = pieces.length;
  const running: Promise<S>[] = [];
  let done = 0;
  const start = (index: number) => {
    const task = queryPiece(pieces[index], query).then((results) => {
      onDone?.(++done, total);
      return settle(pieces[index], results);
    });
    // Settled later, in order; a rejection is read when its turn comes.
    task.catch(() => {});
    running[index] = task;
  };
  for (let i = 0; i < Math.min(limit, total); i++) start(i);
  try {
    for (let index = 0; index < total; index++) {
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
