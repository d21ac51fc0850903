/**
 * Bad inputs of the calendar room, recurrence and suggestion flags (`+room-find`,
 * `+suggestion`, `+create --rrule` / `--room`, `+find-time --exclude`), for the bad-input
 * corpus: each must end with exit 2 before any request.
 *
 * @module
 */

import type { BadCase } from "./_bad_input_corpus.ts";

const HUGE = "x".repeat(100_000);
const SLOT = "2026-12-01 10:00~2026-12-01 11:00";
const CREATE = [
  "calendar",
  "+create",
  "--summary",
  "x",
  "--start",
  "2026-12-01 10:00",
  "--duration",
  "30m",
];

/**
 * Adds the cases.
 *
 * @param add the corpus's `add`
 */
export function addCalendarRoomCases(
  add: (why: string, argv: string[], extra?: Partial<BadCase>) => void,
): void {
  const badRanges = [
    "",
    ",",
    "2026-12-01 10:00",
    "2026-12-01 10:00~",
    "~2026-12-01 10:00",
    "a~b~c",
    "2026-12-01 11:00~2026-12-01 10:00",
    "2026-12-01 10:00~soon",
    `${SLOT}\u0000`,
    Array(21).fill(SLOT).join(","),
    HUGE,
  ];
  for (const range of badRanges) {
    add("bad --slot", ["calendar", "+room-find", "--slot", range]);
    add("bad --exclude", ["calendar", "+suggestion", "--exclude", range]);
    add("bad --exclude", [
      "calendar",
      "+find-time",
      "--attendees",
      "ou_1",
      "--duration",
      "30m",
      "--exclude",
      range,
    ]);
  }
  add("missing --slot", ["calendar", "+room-find"]);
  for (const n of ["0", "-1", "1.5", "many", HUGE]) {
    add("bad --min-capacity", ["calendar", "+room-find", "--slot", SLOT, "--min-capacity", n]);
    add("bad --max-capacity", ["calendar", "+room-find", "--slot", SLOT, "--max-capacity", n]);
  }
  add("--min-capacity above --max-capacity", [
    "calendar",
    "+room-find",
    "--slot",
    SLOT,
    "--min-capacity",
    "10",
    "--max-capacity",
    "4",
  ]);
  for (const text of ["", " ", "F2\u0007", "\u202eF2"]) {
    for (const flag of ["--city", "--building", "--floor", "--room-name"]) {
      add(`bad ${flag}`, ["calendar", "+room-find", "--slot", SLOT, flag, text]);
    }
  }
  const badRules = [
    "",
    "FREQ",
    "INTERVAL=2",
    "FREQ=HOURLY",
    "FREQ=DAILY;COUNT=0",
    "FREQ=DAILY;COUNT=2;UNTIL=20270101",
    "FREQ=DAILY;FREQ=WEEKLY",
    "FREQ=WEEKLY;BYDAY=XX",
    "FREQ=DAILY;BYHOUR=9",
    "FREQ=DAILY\u0000",
    `FREQ=DAILY;${HUGE}`,
  ];
  for (const rule of badRules) {
    add("bad --rrule", [...CREATE, "--rrule", rule]);
    add("bad --rrule", ["calendar", "+room-find", "--slot", SLOT, "--rrule", rule]);
    add("bad --rrule", ["calendar", "+suggestion", "--rrule", rule]);
  }
  for (const ids of ["", ",", "ou_1", "oc_1", "omm 1", "omm_1\u0007"]) {
    add("bad --room", [...CREATE, "--room", ids]);
  }
  for (const ids of ["omm_1", "ou 1", "x_1", "ou_1\u202e"]) {
    add("bad --attendees", ["calendar", "+room-find", "--slot", SLOT, "--attendees", ids]);
    add("bad --attendees", ["calendar", "+suggestion", "--attendees", ids]);
  }
  for (const duration of ["0m", "30", "25h", "soon"]) {
    add("bad --duration", ["calendar", "+suggestion", "--duration", duration]);
  }
}
