/**
 * `hark calendar +freebusy`: when a person is busy between two times, over a span read in 40-day
 * pieces (at most `--max-pieces`).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectOf, stringField } from "../../json/fields.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param } from "../param.ts";
import {
  badTimeWarning,
  epochMsOfText,
  formatLocalTime,
  formatRfc3339InZone,
  type Interval,
} from "../../time/mod.ts";
import { terminalWidth } from "../../output/mod.ts";
import { SPAN_PARAMS, spanOf } from "./_params.ts";
import { drawBusyBars } from "./busy_bar.ts";
import { planPieces, queryAcrossSpan, type Span } from "./split_span.ts";

/** A busy interval, RFC 3339. */
export interface BusyInterval {
  /** The start. */
  start_time: string;
  /** The end. */
  end_time: string;
  /**
   * The person's answer to the event that makes them busy (`need_rsvp_status`): `accept`,
   * `tentative`, `needs_action` (not answered yet); absent when the service did not say.
   */
  rsvp_status?: RsvpStatus;
}

/** The RSVP statuses a free/busy answer may carry (SDK types, calendar.v4.freebusy.list). */
export const RSVP_STATUSES = ["accept", "decline", "tentative", "needs_action", "removed"] as const;
/** One of {@link RSVP_STATUSES}. */
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

function rsvpOf(item: unknown): RsvpStatus | undefined {
  const value = stringField(item, "rsvp_status");
  return RSVP_STATUSES.find((status) => status === value);
}

/**
 * The busy intervals of a list (an answer's `freebusy_list`, or the rows written); anything
 * without text times is skipped.
 *
 * @param list the list as received
 */
export function busyIntervalsOf(list: unknown): BusyInterval[] {
  return (Array.isArray(list) ? list : []).flatMap((item) => {
    const start = stringField(item, "start_time");
    const end = stringField(item, "end_time");
    if (start === undefined || end === undefined) return [];
    const rsvp = rsvpOf(item);
    return [{ start_time: start, end_time: end, ...(rsvp ? { rsvp_status: rsvp } : {}) }];
  });
}

/** The user info path, used to learn the signed-in user's open id. */
export const USER_INFO_PATH = "/open-apis/authen/v1/user_info";
/** The placeholder of the signed-in user in a `--dry-run` preview. */
export const SIGNED_IN_USER = "{open_id of the signed-in user}";

/**
 * The request for one piece of the span.
 *
 * @param userId the person's open id
 * @param piece the piece, Unix seconds
 * @param timeZone the user's zone (the offset the times are written with)
 */
export function freebusyRequest(userId: string, piece: Span, timeZone: string): ApiRequest {
  return {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/list",
    query: { user_id_type: "open_id" },
    body: {
      time_min: formatRfc3339InZone(piece.start * 1000, timeZone),
      time_max: formatRfc3339InZone(piece.end * 1000, timeZone),
      user_id: userId,
      // Each busy block then says how the person answered its event.
      need_rsvp_status: true,
    },
    // It only reads: safe to retry.
    idempotencyKey: `freebusy-${userId}-${piece.start}-${piece.end}`,
    scopes: ["calendar:calendar.free_busy:read"],
  };
}

/**
 * The moments of busy intervals as the service wrote them (RFC 3339); an interval with a time
 * that cannot be read is left out, and `warn` told.
 *
 * @param intervals the intervals
 * @param warn notes a warning (`input.warn`)
 */
export function busySpans(
  intervals: readonly BusyInterval[],
  warn: (message: string) => void = () => {},
): Interval[] {
  return intervals.flatMap((interval) => {
    const start = epochMsOfText(interval.start_time);
    const end = epochMsOfText(interval.end_time);
    if (start !== undefined && end !== undefined) return [{ start, end }];
    const [field, value] = start === undefined
      ? ["start_time", interval.start_time]
      : ["end_time", interval.end_time];
    warn(badTimeWarning(`busy interval's ${field}`, value));
    return [];
  });
}

/**
 * Sorts busy intervals and merges the ones that overlap or touch, written as RFC 3339 with the
 * offset of `timeZone`; one with a time that cannot be read is left out, and `warn` told. A block
 * merged from several events carries the firmest answer among them (accept, then tentative, then
 * needs_action): how surely the person is taken then.
 *
 * @param intervals the intervals of every piece
 * @param timeZone the user's IANA zone
 * @param warn notes a warning (`input.warn`)
 */
export function mergeBusy(
  intervals: BusyInterval[],
  timeZone: string,
  warn?: (message: string) => void,
): BusyInterval[] {
  const spans = intervals.flatMap((interval) =>
    busySpans([interval], warn).map((span) => ({ ...span, rsvp: interval.rsvp_status }))
  ).sort((a, b) => a.start - b.start);
  const firmer = (a?: RsvpStatus, b?: RsvpStatus) =>
    a === undefined || (b !== undefined && FIRMNESS.indexOf(b) < FIRMNESS.indexOf(a)) ? b : a;
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      last.rsvp = firmer(last.rsvp, span.rsvp);
    } else merged.push({ ...span });
  }
  return merged.map((s) => ({
    start_time: formatRfc3339InZone(s.start, timeZone),
    end_time: formatRfc3339InZone(s.end, timeZone),
    ...(s.rsvp ? { rsvp_status: s.rsvp } : {}),
  }));
}

/** RSVP statuses from the firmest (the person surely attends) to the loosest. */
const FIRMNESS: readonly RsvpStatus[] = [
  "accept",
  "tentative",
  "needs_action",
  "decline",
  "removed",
];

/** The values naming the person whose free/busy is read. */
interface UserValues {
  /** `--user-id`, when given. */
  readonly "user-id"?: string;
}

function knownUser(input: ShortcutInput<UserValues>): string | undefined {
  return input.values["user-id"] ?? knownSignedInUser(input);
}

/**
 * The signed-in user's open id when the config already knows it (as the user only).
 *
 * @param input the shortcut input
 */
export function knownSignedInUser(input: ShortcutInput<unknown>): string | undefined {
  if (input.identity !== "user") return undefined;
  return input.config.users?.[input.profile]?.open_id;
}

/**
 * The signed-in user's open id: from the config, else asked of the service (user_info).
 *
 * @param input the shortcut input
 * @param client the API client
 * @param flag the flag that names the person instead, for the error
 * @throws {ValidationError} naming `flag` when the service does not say
 */
export async function signedInUser(
  input: ShortcutInput<unknown>,
  client: ApiCaller,
  flag: string,
): Promise<string> {
  const known = knownSignedInUser(input);
  if (known !== undefined) return known;
  const info = await client.request({ method: "GET", path: USER_INFO_PATH });
  const openId = stringField(info, "open_id");
  if (!openId) {
    throw new ValidationError(`Cannot tell who is signed in: give ${flag}`, { param: flag });
  }
  return openId;
}

async function resolveUser(input: ShortcutInput<UserValues>, client: ApiCaller): Promise<string> {
  return input.values["user-id"] ?? await signedInUser(input, client, "--user-id");
}

/** `calendar +freebusy`. */
export const freebusy = defineShortcut({
  service: "calendar",
  verb: "+freebusy",
  description: "Show when a person is busy between two times, and how they answered each event " +
    "(a long span is read in 40-day pieces, at most --max-pieces of them)",
  examples: [
    "hark calendar +freebusy --start 2026-11-23 --end 2026-11-27",
    "hark calendar +freebusy --start 2026-11-23 --end 2026-11-27 --view list",
    "hark calendar +freebusy --user-id ou_123 --start 2026-11-01 --end 2027-02-28 --as bot",
  ],
  identities: ["user", "bot"],
  scopes: {
    user: ["calendar:calendar.free_busy:read"],
    bot: ["calendar:calendar.free_busy:read"],
  },
  effect: "read",
  params: {
    ...SPAN_PARAMS,
    "user-id": param.string({
      description: "the person's open id (default: the signed-in user; required with --as bot)",
      valueName: "<open_id>",
    }),
    view: param.enumOf(["bar", "list"], {
      description:
        "on a terminal, a busy/free bar per day (bar) or the intervals as a table (list)",
      default: "bar",
    }),
  },
  validate(input) {
    planPieces(spanOf(input), { maxPieces: input.values["max-pieces"] });
    if (input.identity === "bot" && input.values["user-id"] === undefined) {
      throw new ValidationError("Missing --user-id: a bot has no calendar of its own to check", {
        param: "--user-id",
        suggestion: "Pass --user-id <open_id>, or run as the user",
      });
    }
  },
  requests(input) {
    const known = knownUser(input);
    const lead: ApiRequest[] = known === undefined ? [{ method: "GET", path: USER_INFO_PATH }] : [];
    return [
      ...lead,
      ...planPieces(spanOf(input), { maxPieces: input.values["max-pieces"] }).map((p) =>
        freebusyRequest(known ?? SIGNED_IN_USER, p, input.timeZone)
      ),
    ];
  },
  async run(input, client) {
    const userId = await resolveUser(input, client);
    const pieces = await queryAcrossSpan(spanOf(input), async (piece) => {
      const data = await client.request(freebusyRequest(userId, piece, input.timeZone));
      return busyIntervalsOf(objectOf(data).freebusy_list);
    }, { maxPieces: input.values["max-pieces"] });
    return mergeBusy(pieces.flat(), input.timeZone, input.warn);
  },
  render(input) {
    if (input.values.view !== "bar") return undefined;
    const span = spanOf(input);
    return (rows) =>
      drawBusyBars(busyIntervalsOf(rows), {
        person: input.values["user-id"] ?? "you",
        span: { start: span.start * 1000, end: span.end * 1000 },
        timeZone: input.timeZone,
        width: terminalWidth(input.ctx),
      });
  },
  columns: (input) => [
    {
      header: "START",
      value: (row) => formatLocalTime(Date.parse(String(row.start_time)), input.timeZone),
      kind: "time",
    },
    {
      header: "END",
      value: (row) => formatLocalTime(Date.parse(String(row.end_time)), input.timeZone),
      kind: "time",
    },
    { header: "RSVP", value: (row) => row.rsvp_status ?? "", priority: 1 },
  ],
});
