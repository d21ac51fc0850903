/**
 * The calendar shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { agenda } from "./agenda.ts";
import { create } from "./create.ts";
import { freebusy } from "./freebusy.ts";

/** The shortcuts of `hark calendar`, in help order. */
export const CALENDAR_SHORTCUTS: readonly AnyShortcut[] = [agenda, create, freebusy];
