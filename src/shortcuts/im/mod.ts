/**
 * The instant-messaging shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { send } from "./send.ts";

/** The shortcuts of `hark im`, in help order. */
export const IM_SHORTCUTS: readonly AnyShortcut[] = [send];
