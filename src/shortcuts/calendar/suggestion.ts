/**
 * `hark calendar +suggestion`: Lark's own time suggestions, by
 * `POST /open-apis/calendar/v4/freebusy/suggestion`, beside `+find-time`, which computes slots
 * locally from each person's free/busy and working hours. The server knows what hark cannot
 * read (others' working hours and preferences, room-bound recurrences); `+find-time` explains
 * itself and books. Fields: lark-cli `shortcuts/calendar/calendar_suggestion.go` (the official
 * Node SDK 1.74.0 lacks the method).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField, stringField } from "../../json/fields.ts";
import { formatRfc3339InZone, parseDuration } from "../../time/mod.ts";
import { spanColumns } from "./_event_json.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { checkRrule } from "./_rrule.ts";
import { SPAN_PARAMS, spanOf } from "./_params.ts";
import { parseTimeRanges } from "./_time_ranges.ts";
import { knownSignedInUser } from "./freebusy.ts";
import { FREE_BUSY_READ, peopleAndChats } from "./room_find.ts";

/** The suggestion path. */
export const SUGGESTION_PATH = "/open-apis/calendar/v4/freebusy/suggestion";

const PARAMS = {
  start: SPAN_PARAMS.start,
  end: SPAN_PARAMS.end,
  timezone: SPAN_PARAMS.timezone,
  attendees: param.string({
    description: "who must be free: open ids (ou_) and chats (oc_: their members), " +
      "comma-separated (as the user, you count too)",
    valueName: "<ids>",
  }),
  duration: param.string({
    description: "the meeting's length, 1m to 24h: 30m, 1h, 1h30m (default: Lark's)",
    valueName: "<duration>",
  }),
  exclude: param.string({
    description: "times not to suggest, start~end, comma-separated",
    valueName: "<start~end>",
  }),
  rrule: param.string({
    description: "the meeting repeats by this RFC 5545 rule: every instance must fit",
    valueName: "<rule>",
  }),
};

type SuggestionValues = ValuesOf<typeof PARAMS>;

/**
 * `--duration` in minutes, 1 to 1440 (lark-cli's bounds of `duration_minutes`).
 *
 * @param text the flag's value
 * @throws {ValidationError} naming `--duration`
 */
function durationMinutes(text: string): number {
  const minutes = parseDuration(text, { param: "--duration" });
  if (minutes > 1440) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(text)} for --duration: at most 24h (Lark's limit)`,
      { param: "--duration" },
    );
  }
  return minutes;
}

/**
 * The suggestion request.
 *
 * @param input the shortcut input
 */
export function suggestionRequest(input: ShortcutInput<SuggestionValues>): ApiRequest {
  const { values, timeZone } = input;
  const span = spanOf(input);
  const { users, chats } = peopleAndChats(values.attendees);
  const me = knownSignedInUser(input);
  if (me !== undefined && !users.includes(me)) users.push(me);
  const body: Record<string, unknown> = {
    search_start_time: formatRfc3339InZone(span.start * 1000, timeZone),
    search_end_time: formatRfc3339InZone(span.end * 1000, timeZone),
    timezone: timeZone,
  };
  if (values.duration !== undefined) body.duration_minutes = durationMinutes(values.duration);
  if (users.length > 0) body.attendee_user_ids = users;
  if (chats.length > 0) body.attendee_chat_ids = chats;
  if (values.rrule !== undefined) body.event_rrule = checkRrule(values.rrule);
  if (values.exclude !== undefined) {
    body.excluded_event_times = parseTimeRanges(values.exclude, "--exclude", input).map((r) => ({
      event_start_time: formatRfc3339InZone(r.start, timeZone),
      event_end_time: formatRfc3339InZone(r.end, timeZone),
    }));
  }
  return {
    method: "POST",
    path: SUGGESTION_PATH,
    body,
    // It only reads: safe to retry.
    idempotencyKey: `suggestion-${span.start}-${span.end}`,
    scopes: [FREE_BUSY_READ],
  };
}

/** `calendar +suggestion`. */
export const suggestion = defineShortcut({
  service: "calendar",
  verb: "+suggestion",
  description: "Ask Lark to suggest meeting times for the attendees (server-side; +find-time " +
    "computes them locally and can book)",
  examples: [
    "hark calendar +suggestion",
    "hark calendar +suggestion --start tomorrow --end +3d --attendees ou_1,oc_team --duration 1h",
    "hark calendar +suggestion --start '2026-12-01 09:00' --end '2026-12-01 18:00' " +
    "--exclude '2026-12-01 12:00~2026-12-01 13:00' --as bot --attendees ou_1",
  ],
  identities: ["user", "bot"],
  scopes: { user: [FREE_BUSY_READ], bot: [FREE_BUSY_READ] },
  effect: "read",
  params: PARAMS,
  validate(input) {
    suggestionRequest(input);
  },
  requests(input) {
    return [suggestionRequest(input)];
  },
  async run(input, client) {
    const data = await client.request(suggestionRequest(input));
    const guidance = stringField(data, "ai_action_guidance");
    if (guidance !== undefined && guidance !== "") input.warn(`Lark suggests: ${guidance}`);
    return objectsField(data, "suggestions").flatMap((item) => {
      const start = stringField(item, "event_start_time");
      const end = stringField(item, "event_end_time");
      if (start === undefined || end === undefined) return [];
      const [from, to] = [Date.parse(start), Date.parse(end)];
      if (Number.isNaN(from) || Number.isNaN(to)) return [];
      return [{
        start_time: formatRfc3339InZone(from, input.timeZone),
        end_time: formatRfc3339InZone(to, input.timeZone),
        reason: stringField(item, "recommend_reason") ?? "",
      }];
    });
  },
  columns: (input) => [
    ...spanColumns(input.timeZone, { start: 5, end: 4 }),
    { header: "REASON", value: "reason", priority: 2 },
  ],
});
