/**
 * The terminal view of `calendar +update`: what changed, before → after, in local time.
 *
 * Pure: the output data in, text out; server text is made terminal-safe.
 *
 * @module
 */

import { objectOf, objectsField, stringField, stringsField } from "../../json/fields.ts";
import { terminalSafe } from "../../output/mod.ts";
import { localTime } from "./_event_json.ts";

/**
 * The terminal view of an update: what changed, before → after, in local time.
 *
 * @param data the output of `+update` (anything else draws as an update without changes)
 * @param timeZone the viewer's zone
 */
export function drawChanges(data: unknown, timeZone: string): string {
  const { scope, series_id: seriesId, event_id: eventId } = objectOf(data);
  const safe = (v: unknown) => terminalSafe(String(v ?? ""), { breaks: "space" });
  const show = (field: string, v: unknown) =>
    field.endsWith("_time") ? localTime(v, timeZone) : JSON.stringify(safe(v));
  const what = scope === "instance"
    ? ` (one instance of series ${safe(seriesId)})`
    : scope === "series"
    ? " (the whole series)"
    : "";
  const lines = [`Updated event ${safe(eventId)}${what}`];
  const changes = objectsField(data, "changes").map((c) => ({
    field: stringField(c, "field") ?? "",
    before: c.before,
    after: c.after,
  }));
  const width = Math.max(0, ...changes.map((c) => c.field.length));
  for (const c of changes) {
    lines.push(
      `  ${c.field.padEnd(width)}  ${show(c.field, c.before)} → ${show(c.field, c.after)}`,
    );
  }
  for (const id of stringsField(data, "attendees_added")) lines.push(`  + attendee ${safe(id)}`);
  for (const id of stringsField(data, "attendees_removed")) {
    lines.push(`  − attendee ${safe(id)}`);
  }
  if (lines.length === 1) lines.push("  nothing changed: the event already had these values");
  return lines.join("\n") + "\n";
}
