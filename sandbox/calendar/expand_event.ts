/**
 * Expands stored events into their occurrences: a one-off event is one occurrence, a series one
 * per instance, with Lark's instance ids and the changes of exception instances applied.
 *
 * Instance ids are `<event id without "_0">_<original start second>` and the series keeps its
 * `<uid>_0` id as `recurring_event_id`: types/index.d.ts (calendar.v4.calendarEvent.get) says the
 * time of an exception instance is the suffix of its event_id (`xxxxxxxxx_1602504000`), and the
 * MCP server's attendee schema (`instance_start_time_admin`) shows instance ids such as
 * `2cf525f0-1e67-4b04-ad4d-30b7f003903c_1713168000`.
 *
 * @module
 */

import type { CalendarEvent, EventTime, InstanceOverride } from "../core/seed_data.ts";

const DAY = 86_400;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

/** One occurrence of an event in a time window. */
export interface Occurrence<E extends CalendarEvent = CalendarEvent> {
  /** The stored event: the one-off event or the master of the series. */
  event: E;
  /** The id clients see: the event's own id, or the instance id of a series. */
  id: string;
  /** The original start second of a series instance (the key of its exception). */
  originalStart?: number;
  /** The changes of an exception instance. */
  override?: InstanceOverride;
  /** The effective start and end, after an exception moved the instance. */
  start_time: EventTime;
  end_time: EventTime;
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
 * BYDAY (weekly only). COUNT and UNTIL together are refused, as Lark does (MCP server
 * `calendar_v4` schema of `recurrence`: "COUNT 和 UNTIL 不支持同时出现").
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
  for (const key of parts.keys()) {
    if (!["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"].includes(key)) {
      throw new Error(`Cannot parse recurrence "${text}": "${key}" is not supported`);
    }
  }
  const interval = Number(parts.get("INTERVAL") ?? "1");
  if (!Number.isInteger(interval) || interval < 1) {
    throw new Error(`Cannot parse recurrence "${text}": bad INTERVAL`);
  }
  const rule: Rule = { freq, interval };
  if (parts.has("COUNT") && parts.has("UNTIL")) {
    throw new Error(`Cannot parse recurrence "${text}": COUNT and UNTIL cannot both be given`);
  }
  if (parts.has("COUNT")) {
    rule.count = Number(parts.get("COUNT"));
    if (!Number.isInteger(rule.count) || rule.count < 1) {
      throw new Error(`Cannot parse recurrence "${text}": bad COUNT`);
    }
  }
  const until = parts.get("UNTIL");
  if (until !== undefined) {
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

/** `time` moved by `seconds` (whole days for all-day times), keeping its time zone. */
export function shiftTime(time: EventTime, seconds: number): EventTime {
  const zone = time.timezone === undefined ? {} : { timezone: time.timezone };
  if ("timestamp" in time) return { timestamp: String(Number(time.timestamp) + seconds), ...zone };
  const date = new Date((timeToSeconds(time) + seconds) * 1000).toISOString().slice(0, 10);
  return { date, ...zone };
}

/** The instance id of the series instance that originally starts at `start`. */
export function instanceId(seriesId: string, start: number): string {
  return `${seriesId.replace(/_0$/, "")}_${start}`;
}

/**
 * The original start seconds of a series' instances, in order, up to (not including) `before`.
 *
 * @param event a series (with `recurrence`)
 * @param before stop at the first instance starting at or after this second
 */
export function seriesStarts(event: CalendarEvent, before: number): number[] {
  const rule = parseRule(event.recurrence!);
  const start = timeToSeconds(event.start_time);
  const startDay = Math.floor(start / DAY) * DAY;
  const startWeek = startDay - new Date(startDay * 1000).getUTCDay() * DAY;
  const byday = rule.byday ?? [new Date(startDay * 1000).getUTCDay()];
  const out: number[] = [];
  for (let day = startDay;; day += DAY) {
    const instanceStart = start + (day - startDay);
    if (instanceStart >= before) break;
    if (rule.until !== undefined && instanceStart > rule.until) break;
    if (rule.count !== undefined && out.length >= rule.count) break;
    let matches: boolean;
    if (rule.freq === "DAILY") {
      matches = ((day - startDay) / DAY) % rule.interval === 0;
    } else {
      const week = Math.floor((day - startWeek) / (7 * DAY));
      matches = week % rule.interval === 0 && byday.includes(new Date(day * 1000).getUTCDay());
    }
    if (matches) out.push(instanceStart);
  }
  return out;
}

/**
 * The occurrence of a series that originally starts at `start`, with its exception applied.
 *
 * @param event a series
 * @param start an original start second from {@link seriesStarts}
 */
export function seriesOccurrence<E extends CalendarEvent>(
  event: E,
  start: number,
): Occurrence<E> {
  const offset = start - timeToSeconds(event.start_time);
  const override = event.exceptions?.[String(start)];
  return {
    event,
    id: instanceId(event.event_id, start),
    originalStart: start,
    override,
    start_time: override?.start_time ?? shiftTime(event.start_time, offset),
    end_time: override?.end_time ?? shiftTime(event.end_time, offset),
  };
}

/**
 * The occurrences of `event` that overlap `[from, to)` (Unix seconds), sorted by start: the event
 * itself for a one-off, the instances of a series. An exception that moved an instance is found
 * at its new time if it moved by less than a week.
 */
export function occurrencesOf<E extends CalendarEvent>(
  event: E,
  from: number,
  to: number,
): Occurrence<E>[] {
  const overlaps = (o: Occurrence<E>) =>
    timeToSeconds(o.start_time) < to && timeToSeconds(o.end_time) > from;
  if (!event.recurrence) {
    const one: Occurrence<E> = {
      event,
      id: event.event_id,
      start_time: event.start_time,
      end_time: event.end_time,
    };
    return overlaps(one) ? [one] : [];
  }
  const duration = timeToSeconds(event.end_time) - timeToSeconds(event.start_time);
  return seriesStarts(event, to + 7 * DAY)
    .filter((start) => start + duration > from - 7 * DAY)
    .map((start) => seriesOccurrence(event, start))
    .filter(overlaps)
    .sort((a, b) => timeToSeconds(a.start_time) - timeToSeconds(b.start_time));
}
