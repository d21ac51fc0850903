/**
 * The service groups (`hark calendar`, `hark contact`, `hark im`): their names and help, with
 * their shortcuts loaded on demand. Apart from `services.ts` (which reads the shortcuts' scopes)
 * so that the command tree lists the groups without loading the shortcut framework. Adding a
 * service: a folder with its shortcuts and one entry here.
 *
 * @module
 */

import type { AnyShortcut } from "./definition.ts";

/** A service group and its shortcuts, loaded. */
export interface ServiceGroup {
  /** The group command's name, such as `calendar`. */
  name: string;
  /** One line saying what the group covers. */
  description: string;
  /** Command lines starting with `hark`; at least one. */
  examples: readonly string[];
  /** The shortcuts, in help order. */
  shortcuts: readonly AnyShortcut[];
}

/** A service group whose shortcuts load on demand. */
export interface ServiceEntry extends Omit<ServiceGroup, "shortcuts"> {
  /** Loads the shortcuts, in help order. */
  load(): Promise<readonly AnyShortcut[]>;
}

/** The service groups, in help order. */
export const SERVICE_ENTRIES: readonly ServiceEntry[] = [
  {
    name: "calendar",
    description: "Calendar: agenda, new events, free/busy",
    examples: [
      "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
      "hark calendar +create --summary Standup --start '2026-11-24 09:30' --end '2026-11-24 09:45'",
    ],
    load: async () => (await import("./calendar/mod.ts")).CALENDAR_SHORTCUTS,
  },
  {
    name: "contact",
    description: "Contacts: find people, look them up, who you are",
    examples: [
      "hark contact +search-user --query alice",
      "hark contact +get-user --user-id ou_123",
    ],
    load: async () => (await import("./contact/mod.ts")).CONTACT_SHORTCUTS,
  },
  {
    name: "im",
    description: "Instant messaging: read, send and reply, files, chats",
    examples: [
      "hark im +messages --chat-id oc_123 --limit 10",
      "hark im +send --chat-id oc_123 --text 'Deploy finished'",
    ],
    load: async () => (await import("./im/mod.ts")).IM_SHORTCUTS,
  },
];
