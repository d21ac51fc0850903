/**
 * The contact shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { searchUser } from "./search_user.ts";

/** The shortcuts of `hark contact`, in help order. */
export const CONTACT_SHORTCUTS: readonly AnyShortcut[] = [searchUser];
