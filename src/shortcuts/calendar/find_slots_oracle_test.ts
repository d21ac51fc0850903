/**
 * findSlots() against a brute-force oracle: random attendees, zones, working hours, busy blocks
 * and windows around DST changes, checked minute by minute. The oracle shares no code with
 * findSlots(): it reads each minute's wall clock from the zone's offset and decides free or not
 * from the definitions alone.
 */

import assert from "node:assert/strict";
import type { Interval } from "../../time/mod.ts";
import {
  type AllDayBusy,
  findSlots,
  type FindSlotsOptions,
  type FindSlotsResult,
  MONDAY_TO_FRIDAY,
  type SlotAttendee,
} from "./find_slots.ts";

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

const ZONES = [
  "America/New_York",
  "America/Los_Angeles",
  "Europe/Berlin",
  "Europe/London",
  "Pacific/Auckland",
  "Asia/Shanghai",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "America/Santiago",
  "Australia/Lord_Howe",
  "America/St_Johns",
  "Pacific/Chatham",
  "UTC",
];

/** Days around which windows are placed: the 2026 clock changes of the zones above, and others. */
const ANCHORS: { date: string; zones: string[] }[] = [
  { date: "2026-03-08", zones: ["America/New_York", "America/Los_Angeles", "America/St_Johns"] },
  { date: "2026-03-29", zones: ["Europe/Berlin", "Europe/London"] },
  { date: "2026-04-05", zones: ["Pacific/Auckland", "America/Santiago", "Australia/Lord_Howe"] },
  { date: "2026-09-06", zones: ["America/Santiago"] }, // midnight skipped
  { date: "2026-09-27", zones: ["Pacific/Auckland", "Pacific/Chatham"] },
  { date: "2026-10-04", zones: ["Australia/Lord_Howe"] }, // 30 minutes
  { date: "2026-10-25", zones: ["Europe/Berlin", "Europe/London"] },
  { date: "2026-11-01", zones: ["America/New_York", "America/Los_Angeles", "America/St_Johns"] },
  { date: "2026-06-17", zones: ZONES },
  { date: "2026-12-31", zones: ZONES },
];

/** A small seeded generator (mulberry32), so a failure names the seed that reproduces it. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)];
  return { next, int, pick };
}

/**
 * Working hours, often with an end inside the small hours where the clocks of the zones above
 * jump forward or repeat an hour.
 */
function randomWorkingHours(random: ReturnType<typeof generator>) {
  const smallHours = [0, 30, 60, 90, 120, 135, 150, 165, 180, 210, 225];
  const startMinute = random.next() < 0.4 ? random.pick(smallHours) : random.int(4 * 60, 11 * 60);
  const endMinute = random.next() < 0.25
    ? DAY_MINUTES
    : random.next() < 0.2
    ? random.pick(smallHours.filter((m) => m > startMinute).concat([240]))
    : random.int(13 * 60, DAY_MINUTES - 1);
  return { startMinute, endMinute };
}

function randomCase(seed: number): FindSlotsOptions {
  const random = generator(seed);
  const { date, zones } = random.pick(ANCHORS);
  const anchor = Date.parse(`${date}T00:00:00Z`);
  // From up to two days before the anchor day begins at UTC+14 to the moment it does.
  const start = anchor + random.int(-2 * DAY_MINUTES - 840, -840) * MINUTE;
  const lengthMinutes = random.next() < 0.05 ? random.int(0, 120) : random.int(60, 4 * DAY_MINUTES);
  const window = { start, end: start + lengthMinutes * MINUTE };
  const attendees: SlotAttendee[] = [];
  const count = random.int(1, 3);
  for (let a = 0; a < count; a++) {
    const busy: (Interval | AllDayBusy)[] = [];
    const blocks = random.int(0, 8);
    for (let b = 0; b < blocks; b++) {
      const from = window.start + random.int(-300, lengthMinutes + 60) * MINUTE;
      busy.push({ start: from, end: from + random.int(-10, 300) * MINUTE });
    }
    if (random.next() < 0.25) {
      const day = new Date(window.start + random.int(-1, 3) * DAY_MINUTES * MINUTE)
        .toISOString().slice(0, 10);
      const startDate = Temporal.PlainDate.from(day);
      busy.push({
        startDate: startDate.toString(),
        endDate: startDate.add({ days: random.int(0, 2) }).toString(),
      });
    }
    const workingDays = random.next() < 0.2
      ? [1, 2, 3, 4, 5, 6, 7].filter(() => random.next() < 0.6)
      : undefined;
    attendees.push({
      // Often a zone whose clocks change near the window.
      timeZone: random.pick(random.next() < 0.6 ? zones : ZONES),
      workingHours: randomWorkingHours(random),
      busy,
      ...(workingDays ? { workingDays } : {}),
    });
  }
  return {
    window,
    durationMinutes: random.pick([1, 7, 15, 30, 45, 60, 90, 120, 240]),
    attendees,
    includeWeekends: random.next() < 0.4,
    granularityMinutes: random.pick([1, 5, 10, 15, 30, 60]),
    limit: random.int(1, 8),
  };
}

/** The wall clock of a zone, minute by minute, from the zone's offsets alone. */
class WallClock {
  #offsetMs = 0;
  #validFrom = Number.POSITIVE_INFINITY;
  #validUntil = Number.NEGATIVE_INFINITY;

  constructor(readonly timeZone: string) {}

  /** The local day (days since 1970-01-01), ISO weekday and minute of the day at an instant. */
  at(t: number): { day: number; weekday: number; minuteOfDay: number } {
    if (t < this.#validFrom || t >= this.#validUntil) {
      const zoned = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(this.timeZone);
      this.#offsetMs = zoned.offsetNanoseconds / 1e6;
      this.#validFrom = t;
      this.#validUntil = zoned.getTimeZoneTransition("next")?.epochMilliseconds ??
        Number.POSITIVE_INFINITY;
    }
    const local = t + this.#offsetMs;
    const day = Math.floor(local / (DAY_MINUTES * MINUTE));
    return {
      day,
      // 1970-01-01 was a Thursday (4).
      weekday: ((day + 3) % 7 + 7) % 7 + 1,
      minuteOfDay: Math.floor((local - day * DAY_MINUTES * MINUTE) / MINUTE),
    };
  }
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / (DAY_MINUTES * MINUTE);
}

/**
 * Minute by minute over the window, whether a person works: on a working day, once the clock
 * has shown the start time (or later) that day and not yet the end time. "Has shown" is the
 * highest reading of the clock since the day began, so a skipped start counts from the jump and
 * a repeated hour does not undo a start or end already passed.
 */
function workingMinutes(
  attendee: SlotAttendee,
  window: Interval,
  includeWeekends: boolean,
): boolean[] {
  const clock = new WallClock(attendee.timeZone);
  const days = attendee.workingDays ?? MONDAY_TO_FRIDAY;
  const { startMinute, endMinute } = attendee.workingHours;
  const minutes = Math.max(0, (window.end - window.start) / MINUTE);
  const flags: boolean[] = [];
  let day = Number.NaN;
  let highest = -1;
  // Start two days early, so the clock's highest reading today is known at the window's start.
  for (let m = -2 * DAY_MINUTES; m < minutes; m++) {
    const wall = clock.at(window.start + m * MINUTE);
    if (wall.day !== day) [day, highest] = [wall.day, -1];
    highest = Math.max(highest, wall.minuteOfDay);
    if (m < 0) continue;
    const workingDay = includeWeekends || days.includes(wall.weekday);
    flags.push(workingDay && startMinute <= highest && highest < endMinute);
  }
  return flags;
}

/** What findSlots() should answer, worked out one minute at a time. */
function oracle(options: FindSlotsOptions): FindSlotsResult {
  const { window } = options;
  const minutes = Math.max(0, (window.end - window.start) / MINUTE);
  const clocks = options.attendees.map((a) => new WallClock(a.timeZone));
  const workingOf = options.attendees.map((a) =>
    workingMinutes(a, window, options.includeWeekends ?? false)
  );
  const working: boolean[] = [];
  const free: boolean[] = [];
  for (let m = 0; m < minutes; m++) {
    const t = window.start + m * MINUTE;
    const allWorking = workingOf.every((flags) => flags[m]);
    const anyBusy = allWorking &&
      options.attendees.some((attendee, i) =>
        attendee.busy.some((block) => {
          if ("start" in block) return block.start <= t && t < block.end;
          const first = dayNumber(block.startDate);
          const end = block.endDate > block.startDate ? dayNumber(block.endDate) : first + 1;
          const today = clocks[i].at(t).day;
          return first <= today && today < end;
        })
      );
    working.push(allWorking);
    free.push(allWorking && !anyBusy);
  }

  const step = (options.granularityMinutes ?? 15) * MINUTE;
  const length = options.durationMinutes;
  const allTrue = (flags: boolean[] | null, s: number) => {
    const first = (s - window.start) / MINUTE;
    for (let m = first; m < first + length; m++) if (flags !== null && !flags[m]) return false;
    return true;
  };
  const starts: number[] = [];
  for (
    let s = Math.ceil(window.start / step) * step;
    s + length * MINUTE <= window.end;
    s += step
  ) {
    starts.push(s);
  }
  const slots: Interval[] = [];
  let after = Number.NEGATIVE_INFINITY;
  for (const s of starts) {
    if (slots.length === (options.limit ?? 10)) break;
    if (s >= after && allTrue(free, s)) {
      slots.push({ start: s, end: s + length * MINUTE });
      after = s + length * MINUTE;
    }
  }

  const runs: Interval[] = [];
  free.forEach((isFree, m) => {
    if (!isFree) return;
    const t = window.start + m * MINUTE;
    const last = runs.at(-1);
    if (last && last.end === t) last.end = t + MINUTE;
    else runs.push({ start: t, end: t + MINUTE });
  });

  if (slots.length > 0) return { slots, free: runs };
  const reason = starts.length === 0
    ? "window_too_short"
    : !starts.some((s) => allTrue(working, s))
    ? "no_common_working_time"
    : "all_busy";
  return { slots, free: runs, reason };
}

Deno.test("findSlots() agrees with a minute-by-minute oracle on 1000 random cases", () => {
  const reasons = new Map<string, number>();
  for (let seed = 1; seed <= 1000; seed++) {
    const options = randomCase(seed);
    const expected = oracle(options);
    const actual = findSlots(options);
    assert.deepEqual(
      actual,
      expected,
      `seed ${seed} differs: ${JSON.stringify(options)}`,
    );
    const outcome = expected.reason ?? "slots";
    reasons.set(outcome, (reasons.get(outcome) ?? 0) + 1);
  }
  // The generator reaches every outcome, so each branch was compared.
  for (const outcome of ["slots", "window_too_short", "no_common_working_time", "all_busy"]) {
    assert.ok((reasons.get(outcome) ?? 0) >= 3, `too few cases of ${outcome}: ${[...reasons]}`);
  }
});
