/**
 * The contact shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { getUser } from "./get_user.ts";
import { me } from "./me.ts";
import { searchUser } from "./search_user.ts";

/** The shortcuts of `hark contact`, in help order. */
export const CONTACT_SHORTCUTS: readonly AnyShortcut[] = [searchUser, getUser, me];
