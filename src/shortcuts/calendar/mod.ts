/**
 * The calendar shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { agenda } from "./agenda.ts";
import { calendars } from "./calendars.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { findTime } from "./find_time.ts";
import { freebusy } from "./freebusy.ts";
import { get } from "./get.ts";
import { roomFind } from "./room_find.ts";
import { rsvp } from "./rsvp.ts";
import { suggestion } from "./suggestion.ts";
import { update } from "./update.ts";

/** The shortcuts of `hark calendar`, in help order. */
export const CALENDAR_SHORTCUTS: readonly AnyShortcut[] = [
  agenda,
  calendars,
  create,
  remove,
  findTime,
  freebusy,
  get,
  roomFind,
  rsvp,
  suggestion,
  update,
];
