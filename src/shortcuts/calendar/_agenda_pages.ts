/**
 * `+agenda --limit` and `--page-token`: an agenda cut at `--limit` events says which token
 * continues it. The agenda's pieces are time windows that carry events across their boundaries,
 * so the token is hark's own ({@link encodeCursor}): the piece to resume at and the events of it
 * already printed, bound to the calendar, the span, the zone, the identity and the profile. A
 * resumed run reads from the piece before (for the events it carries over) onwards, not the whole
 * span again.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { numberField } from "../../json/fields.ts";
import {
  cursorBinding,
  decodeCursor,
  encodeCursor,
  isCountField,
  openCursor,
} from "../../json/page_cursor.ts";
import type { Span } from "./split_span.ts";

/** Where a listing resumes: the piece, and the events of it already printed. */
export interface AgendaCursor {
  /** The piece's position, from 0. */
  piece: number;
  /** The events of that piece (once the ones carried from before are dropped) already printed. */
  skip: number;
}

/** What decides the agenda's events and their order, to which a token is bound. */
export interface AgendaBinding {
  /** `--calendar-id`. */
  calendar: string;
  /** The span read, Unix seconds. */
  span: Span;
  /** The viewer's zone (where all-day events begin, which orders them). */
  timeZone: string;
  /** `--as`. */
  identity: string;
  /** The profile. */
  profile: string;
}

const LISTING = "calendar +agenda";

/**
 * The cursor `--page-token` names; the first piece when it is not given.
 *
 * @param token `--page-token` as given
 * @param binding what the token must have been made for
 * @throws {ValidationError} naming `--page-token` for text that is not a token of `+agenda`'s, or
 *   a token of another listing or of other arguments
 */
export async function agendaCursorOf(
  token: string | undefined,
  binding: AgendaBinding,
): Promise<AgendaCursor & { binding: string }> {
  const bound = await cursorBinding(LISTING, binding);
  if (token === undefined) return { piece: 0, skip: 0, binding: bound };
  const cursor = openCursor(
    token.trim(),
    bound,
    (c) => isCountField(c, "p") && isCountField(c, "s"),
  );
  if (cursor === "other-arguments") {
    throw new ValidationError(
      "Invalid value for --page-token: it continues +agenda with another calendar, span, zone, " +
        "identity or profile",
      {
        param: "--page-token",
        suggestion: "Run the command that printed the token again with the same flags (only " +
          "--page-token and --limit may change), or leave --page-token out to start over",
      },
    );
  }
  const piece = cursor === "foreign" ? undefined : numberField(cursor, "p");
  const skip = cursor === "foreign" ? undefined : numberField(cursor, "s");
  if (piece === undefined || skip === undefined) {
    throw new ValidationError(
      "Invalid value for --page-token: not a token calendar +agenda printed",
      {
        param: "--page-token",
        suggestion: "Give the token +agenda printed as it was, or leave --page-token out to " +
          "start at the first event",
      },
    );
  }
  return { piece, skip, binding: bound };
}

/**
 * The token that resumes at `cursor`.
 *
 * @param cursor where to resume
 * @param binding the binding {@link agendaCursorOf} returned
 */
export function agendaToken(cursor: AgendaCursor, binding: string): string {
  return encodeCursor({ p: cursor.piece, s: cursor.skip, b: binding });
}

/**
 * The piece a token resumes at, read without checking what it is bound to (for `--dry-run`,
 * after {@link agendaCursorOf} checked it); 0 without a token.
 *
 * @param token `--page-token` as given
 */
export function resumedPiece(token: string | undefined): number {
  const cursor = token === undefined ? undefined : decodeCursor(token.trim());
  return (cursor && isCountField(cursor, "p") && numberField(cursor, "p")) || 0;
}

/** One piece of the agenda, its events in order, the ones of earlier pieces dropped. */
export interface AgendaPiece<T> {
  /** The piece's position, from 0. */
  index: number;
  /** Its events. */
  rows: readonly T[];
}

/**
 * The events from `start` on, at most `limit` of them; when more follow, `onMore` gets the cursor
 * of the first one left out (found by reading on to the next piece that has events, so that a
 * listing cut at the very end says nothing).
 *
 * @param pieces the pieces in order (from `start.piece`, or the one before it)
 * @param start where to begin
 * @param limit the most events; `undefined` for all
 * @param onMore called with where the next run resumes, when events were left out
 */
export async function* pageThrough<T>(
  pieces: AsyncIterable<AgendaPiece<T>>,
  start: AgendaCursor,
  limit: number | undefined,
  onMore: (cursor: AgendaCursor) => void,
): AsyncGenerator<T[]> {
  let printed = 0;
  for await (const { index, rows } of pieces) {
    if (index < start.piece) continue;
    const skip = index === start.piece ? start.skip : 0;
    const left = rows.slice(skip);
    if (left.length === 0) continue;
    if (limit !== undefined && printed >= limit) return onMore({ piece: index, skip });
    const taken = limit === undefined ? left : left.slice(0, limit - printed);
    printed += taken.length;
    yield taken;
    if (taken.length < left.length) return onMore({ piece: index, skip: skip + taken.length });
  }
}
