/**
 * `hark calendar +find-time`: the earliest times everyone is free, within working hours on
 * working days; `--create` books the first one with the attendees.
 *
 * Free/busy is read per person with `freebusy/list` (a window over 40 days is read in pieces),
 * merged locally by `findSlots`. Each person's working hours and weekends are read in their own
 * zone: Lark's free/busy does not say where a person lives, so hark reads `time_zone` from each
 * person's contact profile (`contact +get-user`'s request; the signed-in user too, who always
 * counts as the user), in the same pool of at most 10 calls in flight as free/busy. The lookup
 * is best effort: a profile without a zone, with a value that is not an IANA zone, one hark may
 * not read (a permission error, a person outside the contacts it may see) or of no such user
 * leaves that person in the viewer's zone, and one warning names them; any other failure (the
 * network, a 5xx after retries, a rejected token) fails the command like any call. `--timezone`
 * reads everyone's hours in that one zone and looks nothing up. The JSON gives, per slot,
 * `attendee_zones`: the zone each person's hours were read in; times are shown in the viewer's
 * zone either way.
 *
 * A retried `--create` books one event: the event's idempotency key is derived from what was
 * asked (calendar, people, length, title, window as typed, or today), not from the slot, which a
 * first booking has made busy, nor from the zones found.
 *
 * @module
 */

import {
  ApiError,
  ExitCode,
  HarkError,
  PermissionError,
  ValidationError,
} from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { terminalSafe } from "../../output/mod.ts";
import {
  type ApiCaller,
  defineShortcut,
  type ParamSpec,
  type ShortcutInput,
} from "../definition.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";
import { getUser, userRequest } from "../contact/get_user.ts";
import { checkId, quoted, USER_ID } from "../contact/ids.ts";
import {
  addDays,
  checkTimeZone,
  dateIn,
  formatDuration,
  formatLocalTime,
  formatRfc3339InZone,
  type Interval,
  parseDuration,
  parseWorkingHours,
  resolveTimeInput,
  resolveTimeRange,
  type TimeInput,
} from "../../time/mod.ts";
import { CALENDAR_ID_PARAM, checkCalendarId, TIMEZONE_PARAM } from "./agenda.ts";
import {
  addAttendeesRequests,
  ATTENDEE_ABILITY_PARAM,
  createdColumns,
  type CreatedEvent,
  createdJson,
  createWithAttendees,
  parseAttendees,
} from "./create.ts";
import {
  type BusyInterval,
  freebusyRequest,
  knownSignedInUser,
  SIGNED_IN_USER,
  signedInUser,
  USER_INFO_PATH,
} from "./freebusy.ts";
import { defaultWindow, explainNoSlot, findSlots, type NoSlotReason } from "./find_slots.ts";
import { splitSpan } from "./split_span.ts";
import {
  EVENT_CREATE,
  EVENT_DELETE,
  EVENT_UPDATE,
  eventsPath,
  retryCommand,
} from "./_event_api.ts";
import { spanColumns } from "./_event_json.ts";

const FREE_BUSY = "calendar:calendar.free_busy:read";

/** The most people one search takes: each is one free/busy call per 40 days. */
export const MAX_PEOPLE = 100;

const PARAMS: ParamSpec[] = [
  {
    name: "attendees",
    type: "string",
    description: "open ids of the people who must be free, comma-separated (as the user, you " +
      "count too)",
    required: true,
    valueName: "<ids>",
  },
  {
    name: "duration",
    type: "string",
    description: "the meeting's length: 30m, 1h, 1h30m",
    required: true,
    valueName: "<duration>",
  },
  {
    name: "start",
    type: "datetime",
    description: "the window's start (default: now)",
  },
  {
    name: "end",
    type: "datetime",
    description: "the window's end; a date includes that day (default: the end of the 5th " +
      "working day)",
  },
  {
    name: "working-hours",
    type: "string",
    description: "everyone's working hours, each read in the person's own zone from their " +
      "profile (the JSON's attendee_zones says which), or all in --timezone",
    default: "09:00-18:00",
    valueName: "<HH:MM-HH:MM>",
  },
  {
    name: "include-weekends",
    type: "bool",
    description: "count Saturdays and Sundays as working days",
  },
  { name: "limit", type: "int", description: "the most slots to list", default: 5 },
  {
    name: "create",
    type: "bool",
    description: "book the first slot with the attendees (a retry books it once)",
  },
  {
    name: "summary",
    type: "string",
    description: "the title of the event --create books",
    default: "Meeting",
  },
  { name: "description", type: "string", description: "the details of the event --create books" },
  ATTENDEE_ABILITY_PARAM,
  CALENDAR_ID_PARAM,
  {
    ...TIMEZONE_PARAM,
    description: "one IANA zone for everyone's working hours instead of each profile's (reading " +
      `profiles takes ${getUser.scopes.user?.join(", ")}, as the bot ` +
      `${getUser.scopes.bot?.join(", ")}; without, yours, with a warning); times are read and ` +
      "shown in it (default: $TZ, the system's)",
  },
];

/** The inputs of a search, checked. */
export interface Search {
  /** The attendees given. */
  attendees: string[];
  /** The meeting length, minutes. */
  minutes: number;
  /** The window, epoch ms. */
  window: Interval;
  /** Working hours, minutes of the day. */
  workingHours: { startMinute: number; endMinute: number };
}

/**
 * Reads and checks the search's inputs.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag at fault
 */
export function searchOf(input: ShortcutInput): Search {
  const { values } = input;
  // Each id goes into a profile's URL too: no format characters, no id longer than Lark's.
  const attendees = parseAttendees(values.attendees as string).map((id) =>
    checkId(id, "--attendees", USER_ID)
  );
  if (attendees.length > MAX_PEOPLE) {
    throw new ValidationError(
      `Too many attendees for --attendees: ${attendees.length}, at most ${MAX_PEOPLE}`,
      { param: "--attendees" },
    );
  }
  const minutes = parseDuration(values.duration as string, { param: "--duration" });
  const workingHours = parseWorkingHours(values["working-hours"] as string, {
    param: "--working-hours",
  });
  const limit = values.limit as number;
  if (limit < 1 || limit > 100) {
    throw new ValidationError(`Invalid value "${limit}" for --limit: expected 1 to 100`, {
      param: "--limit",
    });
  }
  return { attendees, minutes, workingHours, window: windowOf(input) };
}

/**
 * The window searched: `--start` to `--end`; without `--end`, to the end of the 5th working day
 * from `--start` (or now); without `--start`, from now.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after the start
 */
export function windowOf(input: ShortcutInput): Interval {
  const { values, timeZone } = input;
  const start = values.start as TimeInput | undefined;
  const end = values.end as TimeInput | undefined;
  const includeWeekends = values["include-weekends"] === true;
  const now = input.ctx.now();
  if (start !== undefined && end !== undefined) return resolveTimeRange(start, end, timeZone);
  const from = start === undefined ? now : resolveTimeInput(start, "start", timeZone);
  if (end === undefined) {
    return { start: from, end: defaultWindow(from, timeZone, { includeWeekends }).end };
  }
  const to = resolveTimeInput(end, "end", timeZone);
  if (to <= from) {
    throw new ValidationError(
      `Invalid value "${end.text}" for --end: it is not after now (${
        formatLocalTime(now, timeZone)
      })`,
      { param: "--end", suggestion: "Give a later --end, or a --start before it" },
    );
  }
  return { start: from, end: to };
}

/**
 * A stable key for what was asked, as a UUID-shaped string: the same command books one event.
 *
 * @param input the shortcut input
 * @param search the checked inputs
 */
export function bookingKey(input: ShortcutInput, search: Search): string {
  const { values } = input;
  const basis = JSON.stringify([
    values["calendar-id"],
    [...search.attendees].sort(),
    search.minutes,
    values.summary,
    values.description ?? "",
    (values.start as TimeInput | undefined)?.text ?? dateIn(input.ctx.now(), input.timeZone),
    (values.end as TimeInput | undefined)?.text ?? "",
  ]);
  // Four FNV-1a hashes with different offsets: 128 bits, enough to tell requests apart.
  const hex = [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f].map((seed) => {
    let h = seed >>> 0;
    for (let i = 0; i < basis.length; i++) {
      h ^= basis.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  }).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

function bookRequest(
  input: ShortcutInput,
  key: string,
  slot: { start: string; end: string },
): ApiRequest {
  const { values, timeZone } = input;
  const body: Record<string, unknown> = {
    summary: values.summary,
    start_time: { timestamp: slot.start, timezone: timeZone },
    end_time: { timestamp: slot.end, timezone: timeZone },
    attendee_ability: values["attendee-ability"] ?? "can_see_others",
  };
  if (values.description !== undefined) body.description = values.description;
  return {
    method: "POST",
    path: eventsPath(values["calendar-id"] as string),
    query: { idempotency_key: key },
    body,
    idempotencyKey: key,
    scopes: [EVENT_CREATE],
  };
}

function freebusyRequests(people: readonly string[], window: Interval, timeZone: string) {
  const span = { start: Math.floor(window.start / 1000), end: Math.ceil(window.end / 1000) };
  return people.flatMap((person) =>
    splitSpan(span).map((piece) => ({ person, request: freebusyRequest(person, piece, timeZone) }))
  );
}

/** The longest zone name taken from a profile: the tz database's names are under 40 characters. */
const MAX_ZONE_LENGTH = 64;
/** Lark's contact codes for a person hark cannot read: no such user, outside the visible range. */
const NO_SUCH_USER = 41012;
const NOT_VISIBLE = 41050;
/** The most people one warning names per reason. */
const NAMED_MAX = 5;

/**
 * The profile lookup of one person: `contact +get-user`'s request (its `user_id_type` told by
 * the id). In a preview, the signed-in user whose open id is not known yet is `{open_id}`.
 *
 * @param input the shortcut input
 * @param person an open id, or the preview's placeholder of the signed-in user
 */
export function profileRequest(input: ShortcutInput, person: string): ApiRequest {
  return userRequest(person === SIGNED_IN_USER ? "{open_id}" : person, input.identity);
}

/** What a profile said of a person's zone: the zone, or why it is unknown. */
export type ZoneFinding = { zone: string } | { unknown: string };

/**
 * Reads a profile's `time_zone`: a zone only when it is an IANA name of sane length; anything
 * else is unknown, the value (server text) quoted, cut and made safe for a terminal.
 *
 * @param value `data.user.time_zone` as the service gave it
 */
export function zoneFinding(value: unknown): ZoneFinding {
  if (value === undefined || value === null || value === "") {
    return { unknown: "no time zone in the profile" };
  }
  if (typeof value !== "string") return { unknown: `a time zone that is a ${typeof value}` };
  if (value.length <= MAX_ZONE_LENGTH) {
    try {
      return { zone: checkTimeZone(value, { param: "time_zone" }) };
    } catch {
      // Not a zone: said below.
    }
  }
  return { unknown: `not a time zone: ${terminalSafe(quoted(value), { breaks: "space" })}` };
}

/**
 * Looks up one person's zone. A profile hark may not read, or of no such user, leaves the zone
 * unknown; any other failure is thrown.
 *
 * @param client the API client
 * @param request the profile's request
 */
async function lookUpZone(client: ApiCaller, request: ApiRequest): Promise<ZoneFinding> {
  try {
    const data = await client.request<{ user?: { time_zone?: unknown } }>(request);
    return zoneFinding(data?.user?.time_zone);
  } catch (error) {
    if (error instanceof PermissionError) {
      const code = error.apiCode === undefined ? "" : `code ${error.apiCode}; `;
      return {
        unknown: `the profile may not be read (${code}it needs ${
          (request.scopes ?? []).join(", ")
        })`,
      };
    }
    if (error instanceof ApiError && error.apiCode === NO_SUCH_USER) {
      return { unknown: `no such user (code ${NO_SUCH_USER})` };
    }
    if (error instanceof ApiError && error.apiCode === NOT_VISIBLE) {
      return { unknown: `outside the contacts you may see (code ${NOT_VISIBLE})` };
    }
    throw error;
  }
}

/**
 * The one warning for the people whose zone is unknown, grouped by why.
 *
 * @param unknown each person's reason, in order
 * @param timeZone the zone their hours were read in
 */
export function unknownZonesWarning(unknown: [string, string][], timeZone: string): string {
  const byReason = new Map<string, string[]>();
  for (const [person, why] of unknown) byReason.set(why, [...byReason.get(why) ?? [], person]);
  const groups = [...byReason].map(([why, people]) => {
    const named = people.slice(0, NAMED_MAX).join(", ");
    const more = people.length > NAMED_MAX ? ` and ${people.length - NAMED_MAX} more` : "";
    return `${named}${more} (${why})`;
  });
  const count = unknown.length === 1 ? "1 person" : `${unknown.length} people`;
  return `Cannot tell the time zone of ${count}: ${groups.join("; ")}. Their working hours ` +
    `were read in ${timeZone}; pass --timezone to choose one zone for everyone`;
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
export const findTime = defineShortcut<FindTimeResult>({
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
  ],
  identities: ["user", "bot"],
  // --create books the slot (create, invite) and rolls back a half-made event (delete).
  scopes: {
    user: [FREE_BUSY, EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
    bot: [FREE_BUSY, EVENT_CREATE, EVENT_UPDATE, EVENT_DELETE],
  },
  effect: "write",
  idempotent: true,
  params: PARAMS,
  validate(input) {
    checkCalendarId(input);
    searchOf(input);
    if (typeof input.values.summary === "string" && input.values.summary.trim() === "") {
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
    const people = input.identity === "user"
      ? [me ?? SIGNED_IN_USER, ...search.attendees.filter((a) => a !== me)]
      : search.attendees;
    const requests = [
      ...lead,
      ...(input.values.timezone === undefined
        ? people.map((person) => profileRequest(input, person))
        : []),
      ...freebusyRequests(people, search.window, input.timeZone).map((r) => r.request),
    ];
    if (input.values.create === true) {
      const slot = { start: "{start of the first free slot}", end: "{its end}" };
      requests.push(
        bookRequest(input, bookingKey(input, search), slot),
        ...addAttendeesRequests(
          input.values["calendar-id"] as string,
          "{event_id}",
          search.attendees.filter((a) => a !== me),
        ),
      );
    }
    return requests;
  },
  async run(input, client) {
    const search = searchOf(input);
    const { timeZone } = input;
    const me = input.identity === "user" ? await signedInUser(input, client, "--attendees") : "";
    const people = [...new Set([...(me ? [me] : []), ...search.attendees])];
    // One pool for the profiles and free/busy: at most 10 calls in flight in all.
    const lookups = input.values.timezone === undefined
      ? people.map((person) => ({ person, profile: profileRequest(input, person) }))
      : [];
    const calls = [...lookups, ...freebusyRequests(people, search.window, timeZone)];
    const what = lookups.length > 0 ? "time zones and free/busy" : "free/busy";
    let done = 0;
    const answers = await runPool(calls, MAX_WORKERS, async (call): Promise<Answer> => {
      const answer: Answer = "profile" in call
        ? { person: call.person, zone: await lookUpZone(client, call.profile) }
        : {
          person: call.person,
          busy: (await client.request<{ freebusy_list?: BusyInterval[] }>(call.request))
            ?.freebusy_list ?? [],
        };
      input.ctx.status(`Reading ${what}: ${++done} of ${calls.length} calls done`);
      return answer;
    });
    const zones = zonesOf(input, people, answers);
    const found = findSlots({
      window: search.window,
      durationMinutes: search.minutes,
      limit: input.values.limit as number,
      includeWeekends: input.values["include-weekends"] === true,
      attendees: people.map((person) => ({
        timeZone: zones[person],
        workingHours: search.workingHours,
        busy: answers.flatMap((a) => a.person === person && "busy" in a ? a.busy : [])
          .map((b) => ({ start: Date.parse(b.start_time), end: Date.parse(b.end_time) }))
          .filter((b) => !Number.isNaN(b.start) && !Number.isNaN(b.end)),
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
      input.values["calendar-id"] as string,
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
      ? { ...createdJson(result.booked, input.timeZone), attendee_zones: result.zones }
      : result.slots,
  columns: (input) =>
    input.values.create === true ? createdColumns(input.timeZone) : [
      ...spanColumns(input.timeZone, { start: 3, end: 2 }),
      {
        header: "LENGTH",
        value: (row) => formatDuration(row.duration_minutes as number),
        priority: 1,
      },
    ],
});

/**
 * Each person's zone: their profile's when it was found, else the viewer's, with one warning
 * naming the people whose zone is unknown. Without lookups (`--timezone`), everyone's is the
 * viewer's.
 */
function zonesOf(
  input: ShortcutInput,
  people: readonly string[],
  answers: readonly Answer[],
): Record<string, string> {
  const found = new Map<string, ZoneFinding>();
  for (const answer of answers) if ("zone" in answer) found.set(answer.person, answer.zone);
  const unknown: [string, string][] = [];
  const zones: Record<string, string> = {};
  for (const person of people) {
    const finding = found.get(person);
    if (finding !== undefined && "unknown" in finding) unknown.push([person, finding.unknown]);
    zones[person] = finding !== undefined && "zone" in finding ? finding.zone : input.timeZone;
  }
  if (unknown.length > 0) input.warn(unknownZonesWarning(unknown, input.timeZone));
  return zones;
}

/** When zones kept people's hours apart, the zones, for the no-slot message. */
function zonesNote(reason: NoSlotReason, zones: Record<string, string>): string {
  const distinct = [...new Set(Object.values(zones))];
  if (reason !== "no_common_working_time" || distinct.length < 2) return "";
  return ` (each person's hours read in their own zone: ${distinct.join(", ")}; --timezone ` +
    "reads them in one)";
}

function noSlotError(input: ShortcutInput, search: Search, why: string): HarkError {
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
