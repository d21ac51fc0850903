/**
 * The slot computation of `calendar +find-time`: the earliest times at which everyone is within
 * their working hours, on a working day of their own zone, and busy with nothing else.
 *
 * Every time is an instant (epoch ms); each person's working hours and weekends are read in
 * that person's zone, so people in zones far apart (13 hours between Auckland and London) and
 * days of 23 or 25 hours are handled. Busy blocks of all attendees are merged, however they
 * overlap, touch, nest, repeat or are ordered. A slot may touch a busy block: a meeting may start
 * the minute another ends.
 *
 * @module
 */

import {
  addDays,
  dateIn,
  endOfDay,
  formatDuration,
  intersectIntervals,
  type Interval,
  mergeIntervals,
  startOfDay,
  subtractIntervals,
  wallTimeToInstant,
  weekdayOf,
  type WorkingHours,
} from "../../time/mod.ts";

/** Slot starts fall on multiples of this many minutes unless told otherwise: :00, :15, :30, :45. */
export const DEFAULT_GRANULARITY_MINUTES = 15;
/** How many slots are returned unless told otherwise. */
export const DEFAULT_SLOT_LIMIT = 10;
/** The working days when none are given: Monday (1) to Friday (5), ISO weekday numbers. */
export const MONDAY_TO_FRIDAY: readonly number[] = Object.freeze([1, 2, 3, 4, 5]);

/**
 * A busy stretch of whole days in the attendee's own zone, as an all-day event gives it: from
 * the start of `startDate` to the start of `endDate`, which is exclusive like Lark's
 * `end_time.date` (pass Lark's dates as they are). An `endDate` not after `startDate` means the
 * one day `startDate`.
 */
export interface AllDayBusy {
  /** The first busy day, `YYYY-MM-DD`. */
  startDate: string;
  /** The day after the last busy day, `YYYY-MM-DD`. */
  endDate: string;
}

/**
 * A busy block: an {@link Interval} of instants (what `freebusy/list` returns, parsed), or an
 * {@link AllDayBusy} read in the attendee's zone. Empty intervals (`end <= start`) are ignored.
 */
export type BusyBlock = Interval | AllDayBusy;

/** One person whose time counts. */
export interface SlotAttendee {
  /** The person's IANA zone; their working hours and working days are read in it. */
  timeZone: string;
  /** The person's working hours, each working day. */
  workingHours: WorkingHours;
  /** ISO weekdays (1 Monday … 7 Sunday) the person works; default Monday to Friday. */
  workingDays?: readonly number[];
  /** When the person is busy. */
  busy: readonly BusyBlock[];
}

/** Options of {@link findSlots}. */
export interface FindSlotsOptions {
  /** The span to search, `[start, end)`, epoch ms; a slot lies wholly inside it. */
  window: Interval;
  /** The meeting length, whole minutes, at least 1. */
  durationMinutes: number;
  /** The people; at least one. */
  attendees: readonly SlotAttendee[];
  /** Every day is a working day for everyone, `workingDays` notwithstanding; default `false`. */
  includeWeekends?: boolean;
  /**
   * Slot starts are multiples of this many minutes since the Unix epoch, whole minutes 1–1440;
   * default 15. With 15, starts fall on :00, :15, :30 and :45 in every zone (all UTC offsets in
   * use are whole quarter hours); with 30 or 60 they fall on the hour or half hour in UTC, which
   * is :15/:45 in a zone such as Asia/Kathmandu (+05:45).
   */
  granularityMinutes?: number;
  /** The most slots returned, at least 1; default 10. */
  limit?: number;
}

/**
 * Why no slot was found:
 * - `window_too_short`: the window itself cannot hold the meeting;
 * - `no_common_working_time`: no stretch of the meeting's length lies within everyone's working
 *   hours on working days (weekends only, zones too far apart, working hours shorter than the
 *   meeting);
 * - `all_busy`: such stretches exist, but busy blocks leave none free.
 */
export type NoSlotReason = "window_too_short" | "no_common_working_time" | "all_busy";

/** What {@link findSlots} found. */
export interface FindSlotsResult {
  /**
   * The earliest slots, each `durationMinutes` long, sorted, none overlapping another: after a
   * slot, the next starts at the first allowed start at or after its end. At most `limit`.
   */
  slots: Interval[];
  /** All common free time in the window (working for everyone, busy for no one), any length. */
  free: Interval[];
  /** Set exactly when `slots` is empty. */
  reason?: NoSlotReason;
}

/**
 * Finds the earliest common free slots of a meeting.
 *
 * @param options the window, the meeting length, the attendees and the rules
 * @returns the slots, the common free time, and when there is no slot, why
 * @throws {RangeError} on a duration, granularity or limit that is not a positive whole number
 *   (or a granularity over 1440), no attendees, a non-finite window, or an unknown zone: the
 *   caller validates user input first
 * @example
 * ```ts
 * findSlots({
 *   window: { start: Date.parse("2026-11-23T00:00Z"), end: Date.parse("2026-11-24T00:00Z") },
 *   durationMinutes: 30,
 *   attendees: [
 *     { timeZone: "Asia/Shanghai", workingHours: { startMinute: 540, endMinute: 1080 }, busy: [] },
 *   ],
 *   limit: 1,
 * }).slots; // [{ start: Date.parse("2026-11-23T01:00Z"), end: Date.parse("2026-11-23T01:30Z") }]
 * ```
 */
export function findSlots(options: FindSlotsOptions): FindSlotsResult {
  const granularity = options.granularityMinutes ?? DEFAULT_GRANULARITY_MINUTES;
  const limit = options.limit ?? DEFAULT_SLOT_LIMIT;
  checkWhole("find slots", "duration", options.durationMinutes);
  checkWhole("find slots", "granularity", granularity, 1440);
  checkWhole("find slots", "limit", limit);
  if (options.attendees.length === 0) {
    throw new RangeError("Cannot find slots: no attendees");
  }
  const { window } = options;
  if (!Number.isFinite(window.start) || !Number.isFinite(window.end)) {
    throw new RangeError("Cannot find slots: the window is not finite");
  }
  const fit = { durationMs: options.durationMinutes * 60_000, stepMs: granularity * 60_000 };

  const whole = mergeIntervals([window]);
  let common = whole;
  for (const attendee of options.attendees) {
    common = intersectIntervals(
      common,
      workingTime(attendee, window, options.includeWeekends ?? false),
    );
  }
  const busy = mergeIntervals(options.attendees.flatMap(busyTime));
  const free = subtractIntervals(common, busy);
  const slots = pickSlots(free, fit, limit);
  if (slots.length > 0) return { slots, free };
  const reason: NoSlotReason = pickSlots(whole, fit, 1).length === 0
    ? "window_too_short"
    : pickSlots(common, fit, 1).length === 0
    ? "no_common_working_time"
    : "all_busy";
  return { slots, free, reason };
}

/**
 * One person's working time overlapping a window: their working hours on each of their working
 * days, in their zone. Each day's stretch runs from the first moment the clocks show the start
 * time to the first moment they show the end time: on a day the clocks change inside the working
 * hours, a skipped hour is not worked and a repeated hour is worked twice.
 *
 * @param attendee the person
 * @param window the span of interest
 * @param includeWeekends every day is a working day
 * @returns sorted, disjoint intervals within the window
 */
export function workingTime(
  attendee: SlotAttendee,
  window: Interval,
  includeWeekends: boolean,
): Interval[] {
  if (window.end <= window.start) return [];
  const { timeZone, workingHours } = attendee;
  const days = attendee.workingDays ?? MONDAY_TO_FRIDAY;
  const last = dateIn(window.end, timeZone);
  const stretches: Interval[] = [];
  for (let day = dateIn(window.start, timeZone); day <= last; day = addDays(day, 1)) {
    if (!includeWeekends && !days.includes(weekdayOf(day))) continue;
    stretches.push({
      start: wallTimeToInstant(day, workingHours.startMinute, timeZone),
      end: wallTimeToInstant(day, workingHours.endMinute, timeZone),
    });
  }
  return intersectIntervals(mergeIntervals(stretches), [window]);
}

/**
 * One person's busy blocks as instants: all-day blocks become the span of their days in the
 * person's zone.
 *
 * @param attendee the person
 * @returns the blocks, unmerged
 */
export function busyTime(attendee: SlotAttendee): Interval[] {
  return attendee.busy.map((block) => {
    if ("start" in block) return { start: block.start, end: block.end };
    const end = block.endDate > block.startDate ? block.endDate : addDays(block.startDate, 1);
    return {
      start: startOfDay(block.startDate, attendee.timeZone),
      end: startOfDay(end, attendee.timeZone),
    };
  });
}

/**
 * A sentence saying why no slot was found, for a message: `no 30m stretch is inside everyone's
 * working hours on a working day in the window`.
 *
 * @param reason the reason {@link findSlots} gave
 * @param durationMinutes the meeting length
 */
export function explainNoSlot(reason: NoSlotReason, durationMinutes: number): string {
  const length = formatDuration(durationMinutes);
  switch (reason) {
    case "window_too_short":
      return `the window is too short for a meeting of ${length}`;
    case "no_common_working_time":
      return `no ${length} stretch of the window is inside everyone's working hours on a ` +
        "working day";
    case "all_busy":
      return `everyone's common working time in the window is busy: no free ${length} stretch`;
  }
}

/** Options of {@link defaultWindow}. */
export interface DefaultWindowOptions {
  /** How many working days the window covers; default 5. */
  days?: number;
  /** Count every day, not only working days; default `false`. */
  includeWeekends?: boolean;
  /** ISO weekdays that count as working days; default Monday to Friday. */
  workingDays?: readonly number[];
}

/**
 * The window of `+find-time` when `--start` and `--end` are not given: from now to the end of the
 * fifth working day in the zone, today counting as the first when it is a working day.
 *
 * @param now the current instant, epoch ms (`ctx.now()`)
 * @param timeZone the user's IANA zone
 * @param options how many days, and which count
 * @returns `[now, end of the last day)`
 * @throws {RangeError} on a day count that is not a positive whole number, or no working days
 */
export function defaultWindow(
  now: number,
  timeZone: string,
  options: DefaultWindowOptions = {},
): Interval {
  const wanted = options.days ?? 5;
  checkWhole("choose a window", "day count", wanted);
  const days = options.workingDays ?? MONDAY_TO_FRIDAY;
  if (!options.includeWeekends && !days.some((d) => d >= 1 && d <= 7)) {
    throw new RangeError("Cannot choose a window: no working days");
  }
  let day = dateIn(now, timeZone);
  for (let counted = 0;; day = addDays(day, 1)) {
    if (options.includeWeekends || days.includes(weekdayOf(day))) counted++;
    if (counted === wanted) return { start: now, end: endOfDay(day, timeZone) };
  }
}

function pickSlots(
  free: readonly Interval[],
  fit: { durationMs: number; stepMs: number },
  limit: number,
): Interval[] {
  const slots: Interval[] = [];
  const align = (t: number) => Math.ceil(t / fit.stepMs) * fit.stepMs;
  let after = Number.NEGATIVE_INFINITY;
  for (const interval of free) {
    for (
      let start = align(Math.max(interval.start, after));
      start + fit.durationMs <= interval.end && slots.length < limit;
      start = align(after)
    ) {
      slots.push({ start, end: start + fit.durationMs });
      after = start + fit.durationMs;
    }
    if (slots.length === limit) break;
  }
  return slots;
}

function checkWhole(
  action: string,
  what: string,
  value: number,
  max = Number.MAX_SAFE_INTEGER,
): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? "at least 1" : `from 1 to ${max}`;
    throw new RangeError(`Cannot ${action}: the ${what} ${value} is not a whole number ${range}`);
  }
}
