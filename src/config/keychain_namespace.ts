/**
 * Each config file keeps its own keychain entries. The config at the default path uses
 * `hark/<profile>/<name>`; a config anywhere else gets a namespace at `config init` (or at its
 * first sign-in), kept in the file as `keychain_namespace`, and its entries are
 * `hark/<namespace>/<profile>/<name>`. So a second config that signs in as someone else, or is
 * initialised again, never changes the secrets the first one uses.
 *
 * A config written before namespaces existed (another path, entries `hark/<profile>/<name>`
 * that it may share with the default config) is migrated on first use: its secrets are copied
 * under a new namespace and its references rewritten. The old entries stay where they are: the
 * default config, or another old one, may still refer to them.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { isKeychainNamespace, keychainPath } from "../keychain/keychain.ts";
import type { Config } from "./config.ts";
import { isDefaultConfigPath } from "./config_path.ts";
import { updateConfig } from "./config_file.ts";
import { parseSecretInput } from "./secret_input.ts";

/**
 * A new namespace: 10 random hex digits.
 *
 * @param ctx the context (random bytes)
 */
export function newKeychainNamespace(ctx: Pick<Context, "randomBytes">): string {
  return [...ctx.randomBytes(5)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The namespace new keychain entries of this config go under: the config's own; for a config
 * at another path than the default one that has none yet, a new one (`created`: the caller
 * stores it with {@link adoptKeychainNamespace} in the same config write as the references);
 * none for the default path.
 *
 * @param ctx the context
 * @param config the loaded config
 * @param configPath the config file's path
 */
export function namespaceFor(
  ctx: Context,
  config: Config,
  configPath: string,
): { namespace?: string; created: boolean } {
  if (isKeychainNamespace(config.keychain_namespace)) {
    return { namespace: config.keychain_namespace, created: false };
  }
  if (isDefaultConfigPath(ctx, configPath)) return { created: false };
  return { namespace: newKeychainNamespace(ctx), created: true };
}

/**
 * The namespace of the entries this config owns by their path (beyond those it refers to):
 * `{ namespace }` (undefined for the default config's `hark/<profile>/<name>`), or `undefined`
 * for a config at another path that has no namespace yet and so owns no path of its own: the
 * `hark/<profile>/<name>` entries belong to the default config.
 *
 * @param ctx the context
 * @param config the loaded config
 * @param configPath the config file's path
 */
export function ownedNamespace(
  ctx: Context,
  config: Config,
  configPath: string,
): { namespace?: string } | undefined {
  if (isKeychainNamespace(config.keychain_namespace)) {
    return { namespace: config.keychain_namespace };
  }
  return isDefaultConfigPath(ctx, configPath) ? {} : undefined;
}

/**
 * Records `namespace` in a config being written, unless it already has one (a concurrent
 * writer's; the references written with this change name their entries in full either way).
 *
 * @param config the config being changed (mutated)
 * @param namespace the namespace chosen by {@link namespaceFor}
 */
export function adoptKeychainNamespace(config: Config, namespace: string | undefined): void {
  if (namespace !== undefined && config.keychain_namespace === undefined) {
    config.keychain_namespace = namespace;
  }
}

/**
 * Whether the config refers to the keychain entry `path` (an app secret or a user token).
 *
 * @param config the config
 * @param path a keychain path
 */
export function refersTo(config: Config, path: string): boolean {
  return secretReferences(config).some((reference) => reference.path === path);
}

/** A `@keychain:` reference of a config, and where it is. */
interface Reference {
  /** `apps` or `users`. */
  section: "apps" | "users";
  /** The profile. */
  profile: string;
  /** `app_secret` or `access_token`. */
  field: "app_secret" | "access_token";
  /** The keychain path. */
  path: string;
}

function secretReferences(config: Config): Reference[] {
  const references: Reference[] = [];
  const add = (
    section: Reference["section"],
    field: Reference["field"],
    entries: Record<string, Record<string, unknown>> | undefined,
  ) => {
    for (const [profile, entry] of Object.entries(entries ?? {})) {
      const value = entry?.[field];
      if (typeof value !== "string") continue;
      const input = parseSecretInput(value);
      if (input.kind === "keychain") references.push({ section, profile, field, path: input.path });
    }
  };
  add("apps", "app_secret", config.apps);
  add("users", "access_token", config.users);
  return references;
}

/** What {@link migrateKeychainNamespace} did. */
export interface NamespaceMigration {
  /** The config as it now is. */
  config: Config;
  /** The entries copied, old path to new path. */
  moved: { from: string; to: string }[];
}

/**
 * Migrates a config written before keychain namespaces: when it lives at another path than the
 * default one, has no namespace, and refers to entries `hark/<profile>/<name>`, those secrets are
 * copied to `hark/<namespace>/<profile>/<name>` under a new namespace and the references
 * rewritten, in one config write. The old entries are left in place (another config may refer to
 * them). Nothing happens in any other case.
 *
 * @param ctx the context
 * @param configPath the config file's path
 * @param config the loaded config
 * @returns the config to use from now on, and what moved
 * @throws {KeychainError} when the keychain cannot be read or written (the config is unchanged)
 */
export async function migrateKeychainNamespace(
  ctx: Context,
  configPath: string,
  config: Config,
): Promise<NamespaceMigration> {
  const unchanged = { config, moved: [] };
  if (config.keychain_namespace !== undefined || isDefaultConfigPath(ctx, configPath)) {
    return unchanged;
  }
  const legacy = secretReferences(config).filter((r) => r.path.split("/").length === 3);
  if (legacy.length === 0) return unchanged;
  const namespace = newKeychainNamespace(ctx);
  const moved = new Map<string, string>();
  for (const reference of legacy) {
    if (moved.has(reference.path)) continue;
    const secret = await ctx.keychain.get(reference.path);
    if (secret === undefined) continue;
    const [, profile, name] = reference.path.split("/");
    const target = keychainPath(profile, name, namespace);
    await ctx.keychain.set(target, secret);
    moved.set(reference.path, target);
  }
  const updated = await updateConfig(ctx, (current) => {
    if (current.keychain_namespace !== undefined) return;
    current.keychain_namespace = namespace;
    for (const reference of secretReferences(current)) {
      const target = moved.get(reference.path);
      const entry = current[reference.section]?.[reference.profile];
      if (target !== undefined && entry) entry[reference.field] = `@keychain:${target}`;
    }
  }, configPath);
  if (updated.keychain_namespace !== namespace) {
    // Another process migrated first: its copies are the ones referred to; ours are orphans.
    for (const target of moved.values()) await ctx.keychain.delete(target);
    return { config: updated, moved: [] };
  }
  return { config: updated, moved: [...moved].map(([from, to]) => ({ from, to })) };
}
