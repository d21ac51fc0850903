/**
 * The hostile-answer corpus: answers a service could send that hark must survive, for every
 * shortcut. One rich, plausible `data` object holds the fields every shortcut reads (an event, a
 * message, a chat, a user, pages of each, free/busy), so a shortcut added later is covered
 * without a line here; each {@link AnswerCase} turns it into a hostile answer: `data` null or
 * missing or of the wrong type, `null` wherever an object or a list is expected, every value of
 * the wrong type, invalid, huge and out-of-range times, nesting 100,000 deep, a `code` that is
 * not the number 0.
 *
 * @module
 */

import type { AnyShortcut } from "../../src/shortcuts/definition.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const EVENT: Json = {
  event_id: "0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0",
  organizer_calendar_id: "feishu.cn_cal1@group.calendar.feishu.cn",
  summary: "Design review",
  description: "Bring notes",
  start_time: { timestamp: "1795435200", timezone: "Europe/Berlin" },
  end_time: { timestamp: "1795438800", timezone: "Europe/Berlin" },
  status: "confirmed",
  free_busy_status: "busy",
  self_rsvp_status: "accept",
  recurrence: "",
  create_time: "1795000000",
  attendee_ability: "can_see_others",
  location: { name: "Room 4" },
};

const ALL_DAY_EVENT: Json = {
  event_id: "1c6f4f2d-05bb-4c9f-8d2e-3f9f1b8e7d42_0",
  summary: "Offsite",
  start_time: { date: "2026-12-01" },
  end_time: { date: "2026-12-03" },
  status: "confirmed",
  create_time: "1795000000",
};

const MESSAGE: Json = {
  message_id: "om_hostile_1",
  root_id: "om_hostile_0",
  parent_id: "om_hostile_0",
  thread_id: "omt_hostile_1",
  msg_type: "text",
  create_time: "1795435200000",
  update_time: "1795435260000",
  deleted: false,
  updated: false,
  chat_id: "oc_hostile_1",
  sender: { id: "ou_hostile_1", id_type: "open_id", sender_type: "user", tenant_key: "t1" },
  body: { content: '{"text":"@_user_1 see the doc"}' },
  mentions: [{ key: "@_user_1", id: "ou_hostile_2", id_type: "open_id", name: "Ana" }],
};

const CARD_MESSAGE: Json = {
  ...MESSAGE,
  message_id: "om_hostile_2",
  msg_type: "interactive",
  body: { content: '{"elements":[[{"tag":"text","text":"deploy ok"}]]}' },
};

const USER: Json = {
  open_id: "ou_hostile_1",
  union_id: "on_hostile_1",
  user_id: "u_hostile_1",
  name: "Mallory",
  en_name: "Mallory",
  email: "mallory@example.com",
  mobile: "+100000000",
  department_ids: ["od_1"],
  job_title: "Engineer",
  join_time: 1795000000,
  time_zone: "Europe/Berlin",
  status: { is_activated: true, is_frozen: false, is_resigned: false },
  avatar: { avatar_72: "https://example.com/a.png" },
};

const CHAT: Json = {
  chat_id: "oc_hostile_1",
  name: "Release 2.0",
  description: "Releases",
  owner_id: "ou_hostile_1",
  owner_id_type: "open_id",
  chat_type: "private",
  chat_mode: "group",
  external: false,
  tenant_key: "t1",
};

const ATTENDEE: Json = {
  type: "user",
  attendee_id: "user_1",
  user_id: "ou_hostile_2",
  display_name: "Ana",
  rsvp_status: "needs_action",
  is_organizer: false,
};

const CALENDAR: Json = {
  calendar_id: "feishu.cn_cal1@group.calendar.feishu.cn",
  summary: "Mallory",
  type: "primary",
  role: "owner",
  permissions: "private",
};

const REACTION: Json = {
  reaction_id: "ZCaCIjUBVVWSrm5L-hostile",
  operator: { operator_id: "ou_hostile_1", operator_type: "user" },
  action_time: "1763888400000",
  reaction_type: { emoji_type: "THUMBSUP" },
};

const PIN: Json = {
  message_id: "om_hostile_1",
  chat_id: "oc_hostile_1",
  operator_id: "ou_hostile_1",
  operator_id_type: "open_id",
  create_time: "1763888400000",
};

const READER: Json = {
  user_id_type: "open_id",
  user_id: "ou_hostile_1",
  timestamp: "1763888400000",
};

/**
 * The rich `data`: a message and a chat at the top (what a send or a chat create returns), the
 * signed-in user's fields (user info), an `event`, a `user`, and lists of each kind under the
 * keys the listing endpoints use, every page the last (`has_more` false).
 */
export const RICH_DATA: Json = {
  ...CHAT,
  ...USER,
  ...MESSAGE,
  event: EVENT,
  user: USER,
  users: [USER],
  items: [EVENT, ALL_DAY_EVENT, MESSAGE, CARD_MESSAGE, CHAT, ATTENDEE, USER, REACTION, PIN, READER],
  ...REACTION,
  pin: PIN,
  invalid_user_id_list: ["ou_hostile_2"],
  attendees: [ATTENDEE],
  calendar_list: [CALENDAR],
  calendars: [{ calendar: CALENDAR, user_id: "ou_hostile_1" }],
  freebusy_list: [
    {
      start_time: "2026-11-23T09:00:00+01:00",
      end_time: "2026-11-23T10:00:00+01:00",
      rsvp_status: "tentative",
    },
  ],
  available_rooms: [
    { room_id: "omm_hostile_1", room_name: "Jupiter", capacity: 12, reserve_until_time: "" },
  ],
  suggestions: [{
    event_start_time: "2026-11-23T09:00:00+01:00",
    event_end_time: "2026-11-23T10:00:00+01:00",
    recommend_reason: "everyone is free",
  }],
  ai_action_guidance: "propose the first",
  image_key: "img_v3_hostile",
  file_key: "file_v3_hostile",
  has_more: false,
  page_token: "",
};

/** Keys whose values are times (or time zones) somewhere in Lark's answers. */
const TIME_KEY = /time|date|_at$|expire/i;

/** Applies `leaf` to every value that is not an object or a list, keeping the shape. */
function mapLeaves(value: Json, leaf: (value: Json, key: string) => Json, key = ""): Json {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, leaf, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mapLeaves(v, leaf, k)]),
    );
  }
  return leaf(value, key);
}

/** Replaces every value under a time key (an event time's `timestamp` and `date` included). */
function withTimes(value: Json, bad: Json, key = ""): Json {
  if (Array.isArray(value)) return value.map((item) => withTimes(item, bad, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (!TIME_KEY.test(k)) return [k, withTimes(v, bad, k)];
        return [k, v !== null && typeof v === "object" ? withTimes(v, bad, k) : bad];
      }),
    );
  }
  return value;
}

/** Replaces every object and list inside `value` (not `value` itself) by `null`. */
function nullContainers(value: Json): Json {
  if (Array.isArray(value)) return value.map((item) => isContainer(item) ? null : item);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, isContainer(v) ? null : v]),
    );
  }
  return value;
}

/** Replaces every object and list one level down by `null`, keeping the top two levels. */
function nullInnerContainers(value: Json): Json {
  if (Array.isArray(value)) return value.map(nullContainers);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nullContainers(v)]));
  }
  return value;
}

function isContainer(value: Json): boolean {
  return value !== null && typeof value === "object";
}

/** Every value of another type: text a number, a number text, a flag text, a list an object. */
function wrongTypes(value: Json): Json {
  if (Array.isArray(value)) {
    return Object.fromEntries(value.map((v, i) => [String(i), wrongTypes(v)]));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongTypes(v)]));
  }
  if (typeof value === "string") return 42;
  if (typeof value === "number") return "abc";
  if (typeof value === "boolean") return "yes";
  return { unexpected: true };
}

/** Every list and object replaced by text, one level below the top. */
function containersAsText(value: Json): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, isContainer(v) ? "[object Object]" : v]),
  );
}

/** The number of levels of {@link DEEP}. */
export const DEEP_LEVELS = 100_000;

/** Nesting 100,000 deep, as JSON text (a JSON value this deep cannot be built without it). */
export const DEEP = "[".repeat(DEEP_LEVELS) + "]".repeat(DEEP_LEVELS);

/** Times no clock can show: not numbers, fractions, beyond the year 275760, empty, zones. */
const BAD_TIMES: [string, Json][] = [
  ["text", "abc"],
  ["1e308 as text", "1e308"],
  ["99999999999999 as text", "99999999999999"],
  ["-99999999999999 as text", "-99999999999999"],
  ["a fraction", "1795435200.5"],
  ["1e308 as a number", 1e308],
  ["99999999999999999999 as a number", 99999999999999999999],
  ["empty", ""],
  ["a date that does not exist", "2026-13-45"],
  ["null", null],
];

/** One hostile answer: how the whole body is written, given the rich `data`. */
export interface AnswerCase {
  /** What is hostile about it. */
  name: string;
  /** The answer's body as text. */
  body(): string;
}

const envelope = (data: Json | undefined) =>
  JSON.stringify(
    data === undefined ? { code: 0, msg: "success" } : { code: 0, msg: "success", data },
  );

/** Text of an envelope whose `data` (or a part of it) is {@link DEEP}. */
const deepEnvelope = (where: "data" | "items" | "event") => {
  const rich = JSON.stringify(RICH_DATA);
  if (where === "data") return `{"code":0,"msg":"success","data":${DEEP}}`;
  return `{"code":0,"msg":"success","data":${rich.slice(0, -1)},"${where}":${DEEP}}}`;
};

/** The corpus: every hostile answer each shortcut meets. */
export const ANSWER_CASES: readonly AnswerCase[] = [
  { name: "the rich data as it is", body: () => envelope(RICH_DATA) },
  { name: "data null", body: () => envelope(null) },
  { name: "no data", body: () => envelope(undefined) },
  { name: "data a string", body: () => envelope("abc") },
  { name: "data a number", body: () => envelope(1e308) },
  { name: "data a list", body: () => envelope([]) },
  { name: "data true", body: () => envelope(true) },
  { name: "null for every object and list", body: () => envelope(nullContainers(RICH_DATA)) },
  {
    name: "null for every object and list one level down",
    body: () => envelope(nullInnerContainers(RICH_DATA)),
  },
  { name: "every value null", body: () => envelope(mapLeaves(RICH_DATA, () => null)) },
  { name: "every value of the wrong type", body: () => envelope(wrongTypes(RICH_DATA)) },
  { name: "objects and lists as text", body: () => envelope(containersAsText(RICH_DATA)) },
  ...BAD_TIMES.map(([what, bad]): AnswerCase => ({
    name: `every time ${what}`,
    body: () => envelope(withTimes(RICH_DATA, bad)),
  })),
  { name: "data nested 100,000 deep", body: () => deepEnvelope("data") },
  { name: "a list nested 100,000 deep", body: () => deepEnvelope("items") },
  { name: "an event nested 100,000 deep", body: () => deepEnvelope("event") },
  {
    name: "message content nested 100,000 deep",
    body: () =>
      envelope(
        mapLeaves(RICH_DATA, (value, key) => key === "content" ? `{"text":${DEEP}}` : value),
      ),
  },
  { name: 'code "0"', body: () => JSON.stringify({ code: "0", msg: "success", data: RICH_DATA }) },
  { name: "code null", body: () => JSON.stringify({ code: null, data: RICH_DATA }) },
];

/**
 * The arguments of valid calls of `shortcut`: each of its examples that reads no local file,
 * takes no pipe and needs no bot, with `--yes` for one that asks first and `--output` pointed
 * into `dir`.
 *
 * @param shortcut the shortcut
 * @param dir a folder for files it writes
 * @returns the arguments after `hark`, one list per call
 */
export function validCalls(shortcut: AnyShortcut, dir: string): string[][] {
  const usable = shortcut.examples.filter((e) =>
    !/[|>]/.test(e) && !/--as bot/.test(e) && !/--(file|image) /.test(e)
  );
  const names = new Set(shortcut.params.map((p) => p.name));
  return (usable.length > 0 ? usable : shortcut.examples.slice(0, 1)).map((example) => {
    const args = shellWords(example).slice(1).map((word) =>
      word.startsWith("./") ? `${dir}/${word.slice(2)}` : word
    );
    if (names.has("yes") && !args.includes("--yes")) args.push("--yes");
    if (names.has("force") && !args.includes("--force")) args.push("--force");
    return args;
  });
}

/** The words of a command line as a POSIX shell splits it (single and double quotes). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /\s*((?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+)+)/gy;
  for (let m = pattern.exec(command); m; m = pattern.exec(command)) {
    words.push(
      m[1].replace(
        /'([^']*)'|"((?:[^"\\]|\\.)*)"/g,
        (_, single, double) => single ?? double.replace(/\\(.)/g, "$1"),
      ),
    );
  }
  return words;
}
