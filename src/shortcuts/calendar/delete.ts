/**
 * `hark calendar +delete`: cancel an event. It reads the event first, to say what is deleted
 * and to refuse a whole recurring series without `--all-instances`; it asks on a terminal and
 * needs `--yes` otherwise. A delete whose answer was lost and that is retried finds the event
 * gone (193001, or 193003 "event is deleted" under HTTP 403): that counts as deleted.
 *
 * @module
 */

import { CancelledError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { terminalSafe } from "../../output/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param } from "../param.ts";
import {
  ALL_INSTANCES_PARAM,
  CALENDAR_ID_PARAM,
  checkCalendarId,
  checkEventId,
  EVENT_ID_PARAM,
  NOTIFY_PARAMS,
  notifyOf,
  type NotifyValues,
} from "./_params.ts";
import {
  EVENT_DELETE,
  EVENT_READ,
  eventKind,
  eventPath,
  getEventRequest,
  guardSeries,
  isEventGone,
  readEvent,
  touched,
} from "./_event_api.ts";
import { eventJson, localTime, spanColumns } from "./_event_json.ts";
import type { LarkEvent } from "./_lark_event.ts";

/**
 * The delete request.
 *
 * @param input the shortcut input
 */
export function deleteRequest(
  input: ShortcutInput<
    NotifyValues & { readonly "calendar-id": string; readonly "event-id": string }
  >,
): ApiRequest {
  const notify = notifyOf(input);
  return {
    method: "DELETE",
    path: eventPath(input.values["calendar-id"], input.values["event-id"]),
    query: { need_notification: notify ?? true },
    scopes: [EVENT_DELETE],
  };
}

/**
 * The question asked before deleting.
 *
 * @param event the event read
 * @param timeZone the viewer's zone
 */
export function deleteQuestion(event: LarkEvent, timeZone: string): string {
  const shown = eventJson(event, timeZone);
  const title = terminalSafe(String(event.summary || "(no title)"), { breaks: "space" });
  const when = localTime(shown.start_time, timeZone);
  const kind = eventKind(event);
  const what = kind === "series"
    ? `the whole series "${title}" (every instance, from ${when})`
    : kind === "instance"
    ? `one instance of "${title}" (${when})`
    : `"${title}" (${when})`;
  return `Delete ${what}?`;
}

/** `calendar +delete`. */
export const remove = defineShortcut({
  service: "calendar",
  verb: "+delete",
  description: "Cancel an event (one instance of a series by its instance id; the whole series " +
    "only with --all-instances)",
  examples: [
    "hark calendar +delete --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0",
    "hark calendar +delete --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_0 --no-notify --yes",
    "hark calendar +delete --event-id 0b5f3e1c-94aa-4b8e-9c1d-2f8e0a7d6c31_1795435200 --yes",
  ],
  identities: ["user", "bot"],
  scopes: { user: [EVENT_READ, EVENT_DELETE], bot: [EVENT_READ, EVENT_DELETE] },
  effect: "delete",
  idempotent: true,
  params: {
    "event-id": EVENT_ID_PARAM,
    "calendar-id": CALENDAR_ID_PARAM,
    ...NOTIFY_PARAMS,
    "all-instances": ALL_INSTANCES_PARAM,
    yes: param.bool({ description: "delete without asking" }),
  },
  validate(input) {
    checkCalendarId(input);
    checkEventId(input);
    notifyOf(input);
  },
  requests(input) {
    const calendarId = input.values["calendar-id"];
    return [
      getEventRequest(calendarId, input.values["event-id"]),
      deleteRequest(input),
    ];
  },
  async run(input, client): Promise<{ event: LarkEvent; alreadyGone: boolean }> {
    const calendarId = input.values["calendar-id"];
    const event = await readEvent(client, calendarId, input.values["event-id"]);
    guardSeries(input, event, "delete");
    if (input.values.yes !== true) {
      const ok = await input.confirm(deleteQuestion(event, input.timeZone), "--yes");
      if (!ok) throw new CancelledError("Cancelled: nothing was deleted");
    }
    try {
      await client.request(deleteRequest(input));
    } catch (error) {
      // Read a moment ago, gone now: a retry after a lost answer, or someone else deleted it.
      if (isEventGone(error)) {
        return { event, alreadyGone: true };
      }
      throw error;
    }
    return { event, alreadyGone: false };
  },
  output: (result, input) => ({
    ...eventJson(result.event, input.timeZone, input.warn),
    ...touched(result.event),
    deleted: true,
    already_deleted: result.alreadyGone,
    need_notification: notifyOf(input) ?? true,
  }),
  columns: (input) => [
    { header: "DELETED", value: "event_id", kind: "id", priority: 5 },
    { header: "SUMMARY", value: "summary", priority: 4 },
    ...spanColumns(input.timeZone, { start: 3, end: 1 }),
    { header: "SCOPE", value: "scope", priority: 2 },
  ],
});
