/**
 * `hark calendar +find-time`: the earliest times everyone is free, within working hours on
 * working days; `--create` books the first one with the attendees.
 *
 * Free/busy is read per person with `freebusy/list` (a window over 40 days is read in pieces),
 * merged locally by `findSlots`. Each person's working hours and weekends are read in their own
 * zone, looked up in their profile (`attendee_zones.ts`; the signed-in user too, who always
 * counts as the user), in the same pool of at most 10 calls in flight as free/busy. `--timezone`
 * reads everyone's hours in that one zone and looks nothing up. The JSON gives, per slot,
 * `attendee_zones`: the zone each person's hours were read in; times are shown in the viewer's
 * zone either way. The search's inputs are read in `find_time_search.ts`.
 *
 * A retried `--create` books one event: the event's idempotency key is derived from what was
 * asked (calendar, people, length, title, window as typed, or today), not from the slot, which a
 * first booking has made busy, nor from the zones found.
 *
 * @module
 */

import { ExitCode, HarkError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectOf } from "../../json/fields.ts";
import {
  addDays,
  dateIn,
  formatDuration,
  formatLocalTime,
  formatRfc3339InZone,
  type Interval,
} from "../../time/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";
import { PROFILE_READ_SCOPES, READ_ALTERNATIVES } from "../contact/profile_scopes.ts";
import {
  ATTENDEE_ABILITY_PARAM,
  CALENDAR_ID_PARAM,
  checkCalendarId,
  MAX_PIECES_PARAM,
  TIMEZONE_PARAM,
} from "./_params.ts";
import {
  lookUpZone,
  profileRequest,
  type ZoneFinding,
  zonesNote,
  zonesOf,
} from "./attendee_zones.ts";
import { addAttendeesRequests } from "./_attendees.ts";
import { createdColumns, type CreatedEvent, createdJson, createWithAttendees } from "./create.ts";
import { bookingKey, MAX_PEOPLE, type Search, searchOf } from "./find_time_search.ts";
import {
  CHAT_MEMBERS_ALTERNATIVES,
  CHAT_MEMBERS_READ,
  chatMemberIds,
  chatMembersRequest,
} from "./_chat_members.ts";
import {
  type BusyInterval,
  busyIntervalsOf,
  busySpans,
  freebusyRequest,
  knownSignedInUser,
  SIGNED_IN_USER,
  signedInUser,
  USER_INFO_PATH,
} from "./freebusy.ts";
import { explainNoSlot, findSlots } from "./find_slots.ts";
import { planPieces, type Span } from "./split_span.ts";
import {
  EVENT_CREATE,
  EVENT_DELETE,
  EVENT_UPDATE,
  eventsPath,
  retryCommand,
} from "./_event_api.ts";
import { spanColumns } from "./_event_json.ts";

const FREE_BUSY = "calendar:calendar.free_busy:read";

const PARAMS = {
  attendees: param.string({
    description: "who must be free, comma-separated: open ids, and chats (oc_: every member; " +
      "--create invites the chat); as the user, you count too",
    required: true,
    valueName: "<ids>",
  }),
  duration: param.string({
    description: "the meeting's length: 30m, 1h, 1h30m",
    required: true,
    valueName: "<duration>",
  }),
  start: param.datetime({ description: "the window's start (default: now)" }),
  end: param.datetime({
    description: "the window's end; a date includes that day (default: the end of the 5th " +
      "working day)",
  }),
  "working-hours": param.string({
    description: "everyone's working hours, each read in the person's own zone from their " +
      "profile (the JSON's attendee_zones says which), or all in --timezone",
    default: "09:00-18:00",
    valueName: "<HH:MM-HH:MM>",
  }),
  "include-weekends": param.bool({ description: "count Saturdays and Sundays as working days" }),
  exclude: param.string({
    description: "times to keep free, start~end, comma-separated (lunch, travel)",
    valueName: "<start~end>",
  }),
  limit: param.int({ description: "the most slots to list", default: 5 }),
  create: param.bool({
    description: "book the first slot with the attendees (a retry books it once)",
  }),
  summary: param.string({
    description: "the title of the event --create books",
    default: "Meeting",
  }),
  description: param.string({ description: "the details of the event --create books" }),
  "attendee-ability": ATTENDEE_ABILITY_PARAM,
  "calendar-id": CALENDAR_ID_PARAM,
  "max-pieces": MAX_PIECES_PARAM,
  timezone: param.string({
    valueName: TIMEZONE_PARAM.valueName,
    description: "one IANA zone for everyone's working hours instead of each profile's (reading " +
      `profiles takes ${PROFILE_READ_SCOPES.join(", ")}; without, yours, with a warning); ` +
      "times are read and shown in it (default: $TZ, the system's)",
  }),
};

/** The values of `+find-time`. */
export type FindTimeValues = ValuesOf<typeof PARAMS>;

function bookRequest(
  input: ShortcutInput<FindTimeValues>,
  key: string,
  slot: { start: string; end: string },
): ApiRequest {
  const { values, timeZone } = input;
  const body: Record<string, unknown> = {
    summary: values.summary,
    start_time: { timestamp: slot.start, timezone: timeZone },
    end_time: { timestamp: slot.end, timezone: timeZone },
    attendee_ability: values["attendee-ability"],
  };
  if (values.description !== undefined) body.description = values.description;
  return {
    method: "POST",
    path: eventsPath(values["calendar-id"]),
    query: { idempotency_key: key },
    body,
    idempotencyKey: key,
    scopes: [EVENT_CREATE],
  };
}

/**
 * The free/busy calls of everyone over the window: each person's window in 40-day pieces, at
 * most `--max-pieces` calls in all.
 *
 * @throws {ValidationError} naming `--start/--end` and `--max-pieces` when there would be more
 */
function freebusyRequests(
  input: ShortcutInput<FindTimeValues>,
  people: readonly string[],
  window: Interval,
) {
  const pieces = planPieces(windowSpan(window), {
    maxPieces: input.values["max-pieces"],
    copies: people.length,
  });
  return people.flatMap((person) =>
    pieces.map((piece) => ({ person, request: freebusyRequest(person, piece, input.timeZone) }))
  );
}

function windowSpan(window: Interval): Span {
  return { start: Math.floor(window.start / 1000), end: Math.ceil(window.end / 1000) };
}

/** One call's answer: a person's zone, or their busy times over one piece of the window. */
type Answer = { person: string; zone: ZoneFinding } | { person: string; busy: BusyInterval[] };

/** One slot, as the JSON shows it. */
export interface SlotRow {
  /** The start, RFC 3339. */
  start_time: string;
  /** The end, RFC 3339. */
  end_time: string;
  /** The length, minutes. */
  duration_minutes: number;
  /** The IANA zone each person's working hours were read in, by open id. */
  attendee_zones: Record<string, string>;
}

/** What `+find-time` returns: the slots, the zones used, and the event `--create` booked. */
export interface FindTimeResult {
  /** The slots found. */
  slots: SlotRow[];
  /** The IANA zone each person's working hours were read in, by open id. */
  zones: Record<string, string>;
  /** The event booked. */
  booked?: CreatedEvent;
}

/** `calendar +find-time`. */
export const findTime = defineShortcut({
  service: "calendar",
  verb: "+find-time",
  description: "Find the earliest times everyone is free (working hours in each person's own " +
    "zone, working days; shown in yours); --create books the first",
  examples: [
    "hark calendar +find-time --attendees ou_1,ou_2 --duration 30m",
    "hark calendar +find-time --attendees ou_1 --duration 1h --start 2026-11-23 --end " +
    "2026-11-27 --working-hours 10:00-16:00 --timezone Europe/Berlin",
    "hark calendar +find-time --attendees ou_1,ou_2 --duration 45m --create --summary " +
    "'Design review'",
    "hark calendar +find-time --attendees oc_team --duration 1h --exclude " +
    "'2026-11-24 12:00~2026-11-24 13:00'",
  ],
  identities: ["user", "bot"],
  // --create books the slot (create, invite) and rolls back a half-made event (delete). Reading
  // each person's zone from their profile is optional: without it, the viewer's zone, warned.
  scopes: {
    user: [FREE_BUSY, EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
    bot: [FREE_BUSY, EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
    // The member list is read only for a chat (oc_) among the attendees.
    optional: {
      user: [...PROFILE_READ_SCOPES, CHAT_MEMBERS_READ],
      bot: [...PROFILE_READ_SCOPES, CHAT_MEMBERS_READ],
    },
    alternatives: { ...READ_ALTERNATIVES, ...CHAT_MEMBERS_ALTERNATIVES },
  },
  effect: "write",
  idempotent: true,
  params: PARAMS,
  validate(input) {
    checkCalendarId(input);
    const search = searchOf(input);
    // Everyone's window in pieces; the signed-in user, when not listed, is counted at run time.
    planPieces(windowSpan(search.window), {
      maxPieces: input.values["max-pieces"],
      copies: search.attendees.length,
    });
    if (input.values.summary.trim() === "") {
      throw new ValidationError('Invalid value "" for --summary: expected a title', {
        param: "--summary",
      });
    }
  },
  requests(input) {
    const search = searchOf(input);
    const me = input.identity === "user" ? knownSignedInUser(input) : undefined;
    const lead: ApiRequest[] = input.identity === "user" && me === undefined
      ? [{ method: "GET", path: USER_INFO_PATH }]
      : [];
    const named = search.attendees.filter((a) => !search.chats.includes(a));
    const people = input.identity === "user"
      ? [me ?? SIGNED_IN_USER, ...named.filter((a) => a !== me)]
      : named;
    const requests = [
      ...lead,
      ...search.chats.map((chat) => chatMembersRequest(chat)),
      ...(input.values.timezone === undefined
        ? people.map((person) => profileRequest(person))
        : []),
      ...freebusyRequests(input, people, search.window).map((r) => r.request),
    ];
    if (input.values.create === true) {
      const slot = { start: "{start of the first free slot}", end: "{its end}" };
      requests.push(
        bookRequest(input, bookingKey(input, search), slot),
        ...addAttendeesRequests(
          input.values["calendar-id"],
          "{event_id}",
          search.attendees.filter((a) => a !== me),
        ),
      );
    }
    return requests;
  },
  async run(input, client): Promise<FindTimeResult> {
    const search = searchOf(input);
    const { timeZone } = input;
    const me = input.identity === "user" ? await signedInUser(input, client, "--attendees") : "";
    const members: string[] = [];
    for (const chat of search.chats) {
      members.push(...await chatMemberIds(client, chat, MAX_PEOPLE));
    }
    const named = search.attendees.filter((a) => !search.chats.includes(a));
    const people = [...new Set([...(me ? [me] : []), ...named, ...members])];
    if (people.length > MAX_PEOPLE + 1) {
      throw new ValidationError(
        `Too many people for --attendees with the chats' members: ${people.length}, at most ` +
          `${MAX_PEOPLE}`,
        { param: "--attendees", suggestion: "Name fewer people or smaller chats" },
      );
    }
    // One pool for the profiles and free/busy: at most 10 calls in flight in all.
    const lookups = input.values.timezone === undefined
      ? people.map((person) => ({ person, profile: profileRequest(person) }))
      : [];
    const calls = [...lookups, ...freebusyRequests(input, people, search.window)];
    const what = lookups.length > 0 ? "time zones and free/busy" : "free/busy";
    let done = 0;
    const answers = await runPool(calls, MAX_WORKERS, async (call): Promise<Answer> => {
      const answer: Answer = "profile" in call
        ? { person: call.person, zone: await lookUpZone(client, call.profile) }
        : {
          person: call.person,
          busy: busyIntervalsOf(objectOf(await client.request(call.request)).freebusy_list),
        };
      input.ctx.status(`Reading ${what}: ${++done} of ${calls.length} calls done`);
      return answer;
    });
    const findings = new Map<string, ZoneFinding>();
    for (const answer of answers) if ("zone" in answer) findings.set(answer.person, answer.zone);
    const zones = zonesOf(input, people, findings);
    const found = findSlots({
      window: search.window,
      durationMinutes: search.minutes,
      limit: input.values.limit,
      includeWeekends: input.values["include-weekends"] === true,
      attendees: people.map((person) => ({
        timeZone: zones[person],
        workingHours: search.workingHours,
        busy: [
          ...busySpans(
            answers.flatMap((a) => a.person === person && "busy" in a ? a.busy : []),
            input.warn,
          ),
          ...search.excluded,
        ],
      })),
    });
    const slots = found.slots.map((s) => ({
      start_time: formatRfc3339InZone(s.start, timeZone),
      end_time: formatRfc3339InZone(s.end, timeZone),
      duration_minutes: search.minutes,
      attendee_zones: zones,
    }));
    if (found.reason !== undefined) {
      const why = `No free ${formatDuration(search.minutes)} slot between ${
        formatLocalTime(search.window.start, timeZone)
      } and ${formatLocalTime(search.window.end, timeZone)}: ${
        explainNoSlot(found.reason, search.minutes)
      }${zonesNote(found.reason, zones)}`;
      if (input.values.create === true) throw noSlotError(input, search, why);
      input.warn(why);
      return { slots, zones };
    }
    if (input.values.create !== true) return { slots, zones };
    const first = found.slots[0];
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    const booked = await createWithAttendees(
      client,
      input.values["calendar-id"],
      bookRequest(input, bookingKey(input, search), {
        start: seconds(first.start),
        end: seconds(first.end),
      }),
      search.attendees.filter((a) => a !== me),
      input.ctx.timeout,
    );
    return { slots, zones, booked };
  },
  output: (result, input) =>
    result.booked
      ? { ...createdJson(result.booked, input.timeZone, input.warn), attendee_zones: result.zones }
      : result.slots,
  columns: (input) =>
    input.values.create === true ? createdColumns(input.timeZone) : [
      ...spanColumns(input.timeZone, { start: 3, end: 2 }),
      {
        header: "LENGTH",
        value: (row) => formatDuration(Number(row.duration_minutes)),
        priority: 1,
      },
    ],
});

function noSlotError(
  input: ShortcutInput<FindTimeValues>,
  search: Search,
  why: string,
): HarkError {
  const later = addDays(dateIn(search.window.end - 1, input.timeZone), 7);
  const wider = {
    ...input.values,
    end: { kind: "date" as const, date: later, text: later, param: "--end" },
  };
  return new HarkError(ExitCode.General, "no_slot", `Cannot book a meeting: ${why}`, {
    suggestion: "Widen the window, shorten --duration, or add --include-weekends; nothing was " +
      "booked",
    command: retryCommand("+find-time", PARAMS, wider),
  });
}
