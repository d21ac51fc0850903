/**
 * `hark calendar +room-find`: the meeting rooms free for one or more slots, by Lark's
 * `POST /open-apis/calendar/v4/freebusy/room_find` (one request per slot, at most 10 in flight),
 * filtered by city, building, floor, name and capacity; a room id it lists is what
 * `+create --room` books. Fields: lark-cli `shortcuts/calendar/calendar_room_find.go` (the
 * official Node SDK 1.74.0 lacks the method).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { numberField, objectsField, stringField } from "../../json/fields.ts";
import { formatRfc3339InZone, type Interval } from "../../time/mod.ts";
import { spanColumns } from "./_event_json.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { MAX_WORKERS, runPool } from "../run_pool.ts";
import { parseAttendees } from "./_attendees.ts";
import { checkRrule } from "./_rrule.ts";
import { TIMEZONE_PARAM } from "./_params.ts";
import { parseTimeRanges } from "./_time_ranges.ts";
import { knownSignedInUser } from "./freebusy.ts";
import { hasControlOrFormat } from "../../text_classes.ts";

/** The room search path. */
export const ROOM_FIND_PATH = "/open-apis/calendar/v4/freebusy/room_find";
/** The scope of Lark's free/busy searches (lark-cli's `+room-find` and `+suggestion`). */
export const FREE_BUSY_READ = "calendar:calendar.free_busy:read";

/**
 * The people and chats of `--attendees` as Lark's searches take them: `ou_` open ids and `oc_`
 * chats (a chat stands for its members).
 *
 * @param text the flag's value
 * @param flag the flag, for the error
 * @throws {ValidationError} naming the flag for an id of another kind
 */
export function peopleAndChats(
  text: string | undefined,
  flag = "--attendees",
): { users: string[]; chats: string[] } {
  const ids = parseAttendees(text, flag);
  const other = ids.find((id) => !id.startsWith("ou_") && !id.startsWith("oc_"));
  if (other !== undefined) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(other)} for ${flag}: expected an open id (ou_…) or a ` +
        "chat id (oc_…)",
      { param: flag, suggestion: "Find open ids with hark contact +search-user" },
    );
  }
  return {
    users: ids.filter((id) => id.startsWith("ou_")),
    chats: ids.filter((id) => id.startsWith("oc_")),
  };
}

const PARAMS = {
  slot: param.string({
    description: "the times the room is wanted, start~end, comma-separated (each any time " +
      "form --start takes)",
    required: true,
    valueName: "<start~end>",
  }),
  city: param.string({ description: "only rooms in this city", valueName: "<city>" }),
  building: param.string({ description: "only rooms in this building", valueName: "<name>" }),
  floor: param.string({
    description: "only rooms on this floor, such as F2",
    valueName: "<floor>",
  }),
  "room-name": param.string({ description: "only rooms whose name has this", valueName: "<text>" }),
  "min-capacity": param.int({ description: "only rooms for at least this many people" }),
  "max-capacity": param.int({ description: "only rooms for at most this many people" }),
  attendees: param.string({
    description: "who will attend: open ids (ou_) and chats (oc_), comma-separated (as the " +
      "user, you count too)",
    valueName: "<ids>",
  }),
  rrule: param.string({
    description: "the room must be free for every instance of this RFC 5545 rule",
    valueName: "<rule>",
  }),
  timezone: TIMEZONE_PARAM,
};

type RoomFindValues = ValuesOf<typeof PARAMS>;

/**
 * Checks the filters: capacities not negative, the least not above the most, texts on one line.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag at fault
 */
function checkFilters(input: ShortcutInput<RoomFindValues>): void {
  const { values } = input;
  for (const flag of ["min-capacity", "max-capacity"] as const) {
    const n = values[flag];
    if (n !== undefined && n < 1) {
      throw new ValidationError(`Invalid value ${n} for --${flag}: expected 1 or more`, {
        param: `--${flag}`,
      });
    }
  }
  const [min, max] = [values["min-capacity"], values["max-capacity"]];
  if (min !== undefined && max !== undefined && min > max) {
    throw new ValidationError(`Cannot find rooms for at least ${min} and at most ${max} people`, {
      param: "--max-capacity",
      suggestion: "Give a --max-capacity of at least --min-capacity",
    });
  }
  for (const flag of ["city", "building", "floor", "room-name"] as const) {
    const text = values[flag];
    if (text !== undefined && (text.trim() === "" || hasControlOrFormat(text))) {
      throw new ValidationError(`Invalid value ${JSON.stringify(text)} for --${flag}`, {
        param: `--${flag}`,
        suggestion: "Give a name on one line, or leave the flag out",
      });
    }
  }
}

/**
 * The room search of one slot.
 *
 * @param input the shortcut input
 * @param slot the slot, epoch milliseconds
 */
export function roomFindRequest(input: ShortcutInput<RoomFindValues>, slot: Interval): ApiRequest {
  const { values, timeZone } = input;
  const { users, chats } = peopleAndChats(values.attendees);
  const me = knownSignedInUser(input);
  if (me !== undefined && !users.includes(me)) users.push(me);
  const body: Record<string, unknown> = {
    event_start_time: formatRfc3339InZone(slot.start, timeZone),
    event_end_time: formatRfc3339InZone(slot.end, timeZone),
    timezone: timeZone,
  };
  const texts = [["city", values.city], ["building", values.building], ["floor", values.floor], [
    "room_name",
    values["room-name"],
  ]] as const;
  for (const [field, text] of texts) if (text !== undefined) body[field] = text.trim();
  if (values["min-capacity"] !== undefined) body.min_capacity = values["min-capacity"];
  if (values["max-capacity"] !== undefined) body.max_capacity = values["max-capacity"];
  if (users.length > 0) body.attendee_user_ids = users;
  if (chats.length > 0) body.attendee_chat_ids = chats;
  if (values.rrule !== undefined) body.event_rrule = checkRrule(values.rrule);
  return {
    method: "POST",
    path: ROOM_FIND_PATH,
    body,
    // It only reads: safe to retry.
    idempotencyKey: `room-find-${slot.start}-${slot.end}`,
    scopes: [FREE_BUSY_READ],
  };
}

/** `calendar +room-find`. */
export const roomFind = defineShortcut({
  service: "calendar",
  verb: "+room-find",
  description: "Find meeting rooms free for one or more slots (by city, building, floor, name, " +
    "capacity); book one with +create --room",
  examples: [
    "hark calendar +room-find --slot '2026-12-01 10:00~2026-12-01 11:00' --min-capacity 6",
    "hark calendar +room-find --slot 'tomorrow 3pm~tomorrow 4pm,friday 10:00~friday 11:00' " +
    "--city Singapore --floor F2 --attendees ou_1,oc_team",
    "hark calendar +room-find --slot 'monday 9:30~monday 9:45' " +
    "--rrule 'FREQ=WEEKLY;BYDAY=MO' --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: [FREE_BUSY_READ], bot: [FREE_BUSY_READ] },
  effect: "read",
  params: PARAMS,
  validate(input) {
    parseTimeRanges(input.values.slot, "--slot", input);
    checkFilters(input);
    peopleAndChats(input.values.attendees);
    if (input.values.rrule !== undefined) checkRrule(input.values.rrule);
  },
  requests(input) {
    return parseTimeRanges(input.values.slot, "--slot", input).map((slot) =>
      roomFindRequest(input, slot)
    );
  },
  async run(input, client) {
    const slots = parseTimeRanges(input.values.slot, "--slot", input);
    const found = await runPool(slots, MAX_WORKERS, async (slot) => {
      const data = await client.request(roomFindRequest(input, slot));
      return objectsField(data, "available_rooms").flatMap((room) => {
        const roomId = stringField(room, "room_id");
        if (roomId === undefined) return [];
        const row: Record<string, unknown> = {
          start_time: formatRfc3339InZone(slot.start, input.timeZone),
          end_time: formatRfc3339InZone(slot.end, input.timeZone),
          room_id: roomId,
          room_name: stringField(room, "room_name") ?? "",
        };
        const capacity = numberField(room, "capacity");
        if (capacity !== undefined) row.capacity = capacity;
        const until = stringField(room, "reserve_until_time");
        if (until !== undefined) row.reserve_until_time = until;
        return [row];
      });
    });
    return found.flat();
  },
  columns: (input) => [
    ...spanColumns(input.timeZone, { start: 4, end: 3 }),
    { header: "ROOM ID", value: "room_id", kind: "id", priority: 5 },
    { header: "NAME", value: "room_name", priority: 4 },
    { header: "CAPACITY", value: "capacity", priority: 2 },
  ],
});
