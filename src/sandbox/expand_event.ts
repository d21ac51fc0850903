/**
 * Expands stored events into the instances `instance_view` returns.
 *
 * @module
 */

import type { CalendarEvent, EventTime } from "./seed_data.ts";

const DAY = 86_400;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

/** One occurrence of an event, in the shape of `instance_view` items. */
export interface EventInstance {
  event_id: string;
  summary: string;
  description: string;
  start_time: EventTime;
  end_time: EventTime;
  status: CalendarEvent["status"];
  free_busy_status: CalendarEvent["free_busy_status"];
  self_rsvp_status: CalendarEvent["self_rsvp_status"];
  recurring_event_id?: string;
  is_exception?: boolean;
}

/** Unix seconds of an event time (an all-day date counts from its UTC midnight). */
export function timeToSeconds(time: EventTime): number {
  if ("timestamp" in time) return Number(time.timestamp);
  return Date.parse(`${time.date}T00:00:00Z`) / 1000;
}

interface Rule {
  freq: "DAILY" | "WEEKLY";
  interval: number;
  count?: number;
  until?: number;
  byday?: number[];
}

/**
 * Parses the supported subset of an RFC 5545 RRULE: FREQ=DAILY|WEEKLY, INTERVAL, COUNT, UNTIL and
 * BYDAY (weekly only).
 *
 * @throws {Error} on an unsupported or malformed rule
 */
export function parseRule(text: string): Rule {
  const parts = new Map(
    text.replace(/^RRULE:/, "").split(";").map((p) => p.split("=") as [string, string]),
  );
  const freq = parts.get("FREQ");
  if (freq !== "DAILY" && freq !== "WEEKLY") {
    throw new Error(`Cannot parse recurrence "${text}": FREQ must be DAILY or WEEKLY`);
  }
  const interval = Number(parts.get("INTERVAL") ?? "1");
  if (!Number.isInteger(interval) || interval < 1) {
    throw new Error(`Cannot parse recurrence "${text}": bad INTERVAL`);
  }
  const rule: Rule = { freq, interval };
  if (parts.has("COUNT")) rule.count = Number(parts.get("COUNT"));
  const until = parts.get("UNTIL");
  if (until) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(until);
    if (!m) throw new Error(`Cannot parse recurrence "${text}": bad UNTIL`);
    rule.until = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 23), +(m[5] ?? 59), +(m[6] ?? 59)) /
      1000;
  }
  const byday = parts.get("BYDAY");
  if (byday) {
    rule.byday = byday.split(",").map((d) => {
      const i = WEEKDAYS.indexOf(d);
      if (i < 0) throw new Error(`Cannot parse recurrence "${text}": bad BYDAY "${d}"`);
      return i;
    });
  }
  return rule;
}

function shift(time: EventTime, seconds: number): EventTime {
  if ("timestamp" in time) return { timestamp: String(Number(time.timestamp) + seconds) };
  return { date: new Date((timeToSeconds(time) + seconds) * 1000).toISOString().slice(0, 10) };
}

/**
 * Returns the instances of `event` that overlap `[from, to)` (Unix seconds): the event itself for a
 * one-off, the expanded occurrences for a series (ids `<event_id>_<start second>`).
 */
export function expandEvent(event: CalendarEvent, from: number, to: number): EventInstance[] {
  const start = timeToSeconds(event.start_time);
  const duration = timeToSeconds(event.end_time) - start;
  const base = {
    summary: event.summary,
    description: event.description,
    status: event.status,
    free_busy_status: event.free_busy_status,
    self_rsvp_status: event.self_rsvp_status,
  };
  if (!event.recurrence) {
    if (start >= to || start + duration <= from) return [];
    return [{
      event_id: event.event_id,
      ...base,
      start_time: event.start_time,
      end_time: event.end_time,
    }];
  }
  const rule = parseRule(event.recurrence);
  const out: EventInstance[] = [];
  const startDay = Math.floor(start / DAY) * DAY;
  const startWeek = startDay - new Date(startDay * 1000).getUTCDay() * DAY;
  const byday = rule.byday ?? [new Date(startDay * 1000).getUTCDay()];
  let produced = 0;
  for (let day = startDay; day < to; day += DAY) {
    const offset = day - startDay;
    const instanceStart = start + offset;
    if (instanceStart >= to) break;
    if (rule.until !== undefined && instanceStart > rule.until) break;
    if (rule.count !== undefined && produced >= rule.count) break;
    let matches: boolean;
    if (rule.freq === "DAILY") {
      matches = (offset / DAY) % rule.interval === 0;
    } else {
      const week = Math.floor((day - startWeek) / (7 * DAY));
      matches = week % rule.interval === 0 && byday.includes(new Date(day * 1000).getUTCDay());
    }
    if (!matches) continue;
    produced++;
    if (instanceStart + duration <= from) continue;
    const exception = event.exceptions?.[String(instanceStart)];
    const instance: EventInstance = {
      event_id: `${event.event_id.replace(/_0$/, "")}_${instanceStart}`,
      ...base,
      start_time: shift(event.start_time, offset),
      end_time: shift(event.end_time, offset),
      recurring_event_id: event.event_id,
    };
    if (exception) {
      instance.is_exception = true;
      instance.status = exception.status;
      if (exception.summary) instance.summary = exception.summary;
    }
    out.push(instance);
  }
  return out;
}
