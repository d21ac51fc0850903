/**
 * Time as hark's users type it and read it: parsing `--start`/`--end`, durations and working
 * hours; days in a time zone (DST-safe); all-day dates; Lark's event times; formatting for
 * tables and JSON; interval sets. Everything takes the clock and the zone as arguments.
 *
 * @module
 */

export { type ValueSource } from "./_invalid_value.ts";
export { addDays, allDayEndDate, allDayLastDay, isCalendarDate } from "./all_day.ts";
export { checkTimeZone } from "./check_time_zone.ts";
export { formatLocalTime, formatRfc3339InZone } from "./format_time.ts";
export {
  intersectIntervals,
  type Interval,
  mergeIntervals,
  subtractIntervals,
} from "./intervals.ts";
export {
  type EventSpan,
  formatEventSpan,
  larkEventSpan,
  type LarkEventTime,
  readLarkEventTime,
  toLarkEventTimes,
} from "./lark_event_time.ts";
export { badTimeWarning, epochMsOf, epochMsOfText, MAX_EPOCH_MS } from "./network_time.ts";
export { formatDuration, parseDuration, readDurationMinutes } from "./parse_duration.ts";
export {
  type DateInput,
  type InstantInput,
  parseTimeInput,
  type ParseTimeOptions,
  TIME_INPUT_FORMS,
  type TimeInput,
} from "./parse_time_input.ts";
export {
  DEFAULT_WORKING_HOURS,
  formatWorkingHours,
  parseWorkingHours,
  type WorkingHours,
} from "./parse_working_hours.ts";
export { resolveTimeInput, resolveTimeRange } from "./time_range.ts";
export {
  dateIn,
  endOfDay,
  MINUTES_PER_DAY,
  startOfDay,
  wallTimeToInstant,
  weekdayOf,
} from "./zoned_day.ts";
