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

/** What `+update` would change, as its `--dry-run` knows it: the values it would set. */
export interface PlannedUpdate {
  /** The event. */
  eventId: string;
  /** The patch body's fields that change the event (times in Lark's shape). */
  set: { summary?: string; description?: string; location?: { name: string } };
  /** The new start and end, as hark's JSON shows them (RFC 3339, or dates), when moved. */
  span?: { start_time?: unknown; end_time?: unknown };
  /** Open ids to invite, and to remove. */
  add: readonly string[];
  remove: readonly string[];
}

/**
 * The terminal view of an update's `--dry-run`: the values it would set, `→ after` in local
 * time (what the event has now is not read: a dry run sends nothing), and the attendees it would
 * invite or remove.
 *
 * @param plan what the update would do
 * @param timeZone the viewer's zone
 */
export function drawPlannedChanges(plan: PlannedUpdate, timeZone: string): string {
  const safe = (v: unknown) => terminalSafe(String(v ?? ""), { breaks: "space" });
  const fields: [string, string][] = [];
  for (const field of ["summary", "description"] as const) {
    const value = plan.set[field];
    if (value !== undefined) fields.push([field, JSON.stringify(safe(value))]);
  }
  for (const field of ["start_time", "end_time"] as const) {
    const value = plan.span?.[field];
    if (value !== undefined) fields.push([field, localTime(value, timeZone)]);
  }
  if (plan.set.location) fields.push(["location", JSON.stringify(safe(plan.set.location.name))]);
  const width = Math.max(0, ...fields.map(([field]) => field.length));
  return [
    `Would update event ${safe(plan.eventId)}:`,
    ...fields.map(([field, value]) => `  ${field.padEnd(width)}  → ${value}`),
    ...plan.add.map((id) => `  + attendee ${safe(id)}`),
    ...plan.remove.map((id) => `  − attendee ${safe(id)}`),
  ].join("\n") + "\n";
}
