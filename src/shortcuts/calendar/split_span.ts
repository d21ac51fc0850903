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
  const queryPiece = async (piece: Span): Promise<R[]> => {
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
      for (const half of halve(piece)) results.push(...await queryPiece(half));
      return results;
    }
  };
  const nested = await runPool(splitSpan(span), limit, queryPiece);
  return nested.flat();
}
