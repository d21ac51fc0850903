/**
 * The service groups with their shortcuts loaded, and the scopes running them takes. The groups
 * themselves (names, help, how to load their shortcuts) are in `service_entries.ts`.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import { identitiesOf, optionalScopesFor, scopesFor, shortcutName } from "./definition.ts";
import { SERVICE_ENTRIES, type ServiceEntry, type ServiceGroup } from "./service_entries.ts";

export { SERVICE_ENTRIES, type ServiceEntry, type ServiceGroup };

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
