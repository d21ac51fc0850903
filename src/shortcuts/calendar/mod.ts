/**
 * The calendar shortcuts. Adding one: a new file in this folder and one line in `shortcuts`.
 *
 * @module
 */

import type { ServiceGroup } from "../service_group.ts";
import { agenda } from "./agenda.ts";
import { create } from "./create.ts";
import { freebusy } from "./freebusy.ts";

/** `hark calendar`. */
export const calendarService: ServiceGroup = {
  name: "calendar",
  description: "Calendar: agenda, new events, free/busy",
  examples: [
    "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
    "hark calendar +create --summary Standup --start '2026-11-24 09:30' --end '2026-11-24 09:45'",
  ],
  shortcuts: [
    agenda,
    create,
    freebusy,
  ],
};
