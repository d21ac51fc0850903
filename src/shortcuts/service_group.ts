/**
 * A service group: `hark calendar`, `hark contact`, `hark im`, with its shortcuts.
 *
 * @module
 */

import type { AnyShortcut } from "./definition.ts";

/** A service group and its shortcuts, as each service folder's `mod.ts` declares it. */
export interface ServiceGroup {
  /** The group command's name, such as `calendar`. */
  name: string;
  /** One line saying what the group covers. */
  description: string;
  /** Command lines starting with `hark`; at least one. */
  examples: string[];
  /** The shortcuts, in help order. */
  shortcuts: AnyShortcut[];
}
