/**
 * The service groups (`hark calendar`, `hark contact`, `hark im`): their names and help, with
 * their shortcuts loaded on demand, so a command that does not run a shortcut never loads one.
 * Adding a service: a folder with its shortcuts and one entry here.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import {
  type AnyShortcut,
  identitiesOf,
  optionalScopesFor,
  scopesFor,
  shortcutName,
} from "./definition.ts";

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

/**
 * Every service group with its shortcuts loaded (for `hark schema`, completion and the MCP
 * server).
 *
 * @param entries the groups; default {@link SERVICE_ENTRIES}
 */
export async function loadServices(
  entries: readonly ServiceEntry[] = SERVICE_ENTRIES,
): Promise<ServiceGroup[]> {
  return await Promise.all(entries.map(async ({ load, ...group }) => ({
    ...group,
    shortcuts: await load(),
  })));
}

/**
 * Every scope a user token needs to run every shortcut as the user, and to see all it shows (the
 * optional scopes too): what `hark auth login` asks for when no `--scope` is given. Sorted,
 * without duplicates.
 *
 * @param groups the loaded service groups
 */
export function userScopesOf(groups: readonly ServiceGroup[]): string[] {
  const { required, optional } = userScopeNeedsOf(groups);
  return [...new Set([...required, ...optional])].sort();
}

/** What running shortcuts as the user takes, as {@link userScopeNeedsOf} gathers it. */
export interface UserScopeNeeds {
  /** The scopes they need to run, sorted. */
  required: string[];
  /** The scopes that unlock part of their output and are not required, sorted. */
  optional: string[];
  /** Scopes accepted instead of a required or optional one, by that one. */
  alternatives: Record<string, string[]>;
  /** The scopes the app needs for calls made with the tenant token, and when, per shortcut. */
  tenantCalls: { shortcut: string; when: string; scopes: string[] }[];
}

/**
 * What running the shortcuts of `groups` as the user takes: the required scopes, the optional
 * ones, their alternatives, and the app's scopes for the calls only the tenant token may make.
 *
 * @param groups the loaded service groups (or one group)
 */
export function userScopeNeedsOf(groups: readonly ServiceGroup[]): UserScopeNeeds {
  const required = new Set<string>();
  const optional = new Set<string>();
  const alternatives: Record<string, string[]> = {};
  const tenantCalls: UserScopeNeeds["tenantCalls"] = [];
  for (const shortcut of groups.flatMap((g) => g.shortcuts)) {
    if (!identitiesOf(shortcut).includes("user")) continue;
    for (const scope of scopesFor(shortcut, "user")) required.add(scope);
    for (const scope of optionalScopesFor(shortcut, "user")) optional.add(scope);
    for (const [scope, others] of Object.entries(shortcut.scopes.alternatives ?? {})) {
      alternatives[scope] = [...new Set([...alternatives[scope] ?? [], ...others])];
    }
    const tenant = shortcut.scopes.tenantCalls;
    if (tenant) {
      tenantCalls.push({
        shortcut: shortcutName(shortcut),
        when: tenant.when,
        scopes: [...tenant.scopes],
      });
    }
  }
  for (const scope of required) optional.delete(scope);
  return {
    required: [...required].sort(),
    optional: [...optional].sort(),
    alternatives,
    tenantCalls,
  };
}

/**
 * The shortcuts that need any of `scopes` to run as `identity`, by name (`calendar +agenda`).
 *
 * @param groups the loaded service groups
 * @param scopes the scopes in question (not granted, say)
 * @param identity the identity
 */
export function shortcutsNeeding(
  groups: readonly ServiceGroup[],
  scopes: readonly string[],
  identity: Identity,
): string[] {
  return groups.flatMap((g) => g.shortcuts)
    .filter((s) =>
      identitiesOf(s).includes(identity) && scopesFor(s, identity).some((x) => scopes.includes(x))
    )
    .map(shortcutName);
}
