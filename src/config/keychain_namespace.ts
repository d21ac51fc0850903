/**
 * Each config file keeps its own keychain entries. The config at the default path uses
 * `hark/<profile>/<name>`; a config anywhere else gets a namespace at `config init` (or at its
 * first sign-in), kept in the file as `keychain_namespace`, and its entries are
 * `hark/<namespace>/<profile>/<name>`. So a second config that signs in as someone else, or is
 * initialised again, never changes the secrets the first one uses.
 *
 * A config reads only its own entries ({@link checkOwnEntry}): one at another path that refers
 * to `hark/<profile>/<name>` (the default config's, or written before namespaces existed) is
 * refused until it stores its own secrets (`config init`, `auth login`). Such a config used to be
 * migrated by copying those entries; that copy is what let any config file take the default
 * config's secrets.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
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
 * The namespace new keychain entries of this config go under, recorded in the config file first
 * when it is new ({@link namespaceFor}): two commands that give a config its first entries at
 * once (sign-ins of two profiles) then agree on one namespace, the one the file holds, and each
 * reference names an entry of the config's own ({@link checkOwnEntry}).
 *
 * @param ctx the context
 * @param config the loaded config
 * @param configPath the config file's path
 * @param planned a new namespace already chosen with {@link namespaceFor}, to record
 * @returns the namespace, or `undefined` for the default config
 * @throws {ValidationError} when the config cannot be written
 */
export async function claimKeychainNamespace(
  ctx: Context,
  config: Config,
  configPath: string,
  planned?: string,
): Promise<string | undefined> {
  const chosen = namespaceFor(ctx, config, configPath);
  if (!chosen.created) return chosen.namespace;
  const namespace = planned ?? chosen.namespace;
  const updated = await updateConfig(
    ctx,
    (current) => adoptKeychainNamespace(current, namespace),
    configPath,
  );
  return updated.keychain_namespace ?? namespace;
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

/**
 * Checks that a `@keychain:` reference of the config names the config's own entry for the
 * profile: `hark/<profile>/<name>` for the default config, `hark/<namespace>/<profile>/<name>`
 * for a config with a namespace. A config at another path without a namespace owns no entry.
 * Any other path (another config's entries, another profile's, another kind of entry such as a
 * token record named as an app secret) is refused before it is read: a config file someone
 * else wrote must not pick secrets out of the keychain and send them to its own server.
 *
 * @param ctx the context
 * @param target the config, its path and the profile
 * @param key the setting holding the reference, such as `apps.default.app_secret`
 * @param path the keychain path it names
 * @param name the entry's name for that setting: `app_secret` or `user_token`
 * @returns `path`, checked
 * @throws {ValidationError} naming the file, the setting and the fix
 */
export function checkOwnEntry(
  ctx: Context,
  target: { config: Config; configPath: string; profile: string },
  key: string,
  path: string,
  name: "app_secret" | "user_token",
): string {
  const { config, configPath, profile } = target;
  const owned = ownedNamespace(ctx, config, configPath);
  const own = owned === undefined ? undefined : keychainPath(profile, name, owned.namespace);
  if (path === own) return path;
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  const [fix, command] = name === "app_secret"
    ? ["store the app secret again for this config file", `hark config init --force${flag}`]
    : ["sign in again with this config file", `hark auth login${flag}`];
  throw new ValidationError(
    `Refusing ${key} in "${configPath}": "@keychain:${path}" is not an entry of this config ` +
      `file (${
        own === undefined ? "it has no keychain entries of its own yet" : `its own is "${own}"`
      }); a config file reads only its own keychain entries`,
    {
      param: key,
      suggestion: `If the file is yours, ${fix} (its secrets are kept under its own ` +
        "namespace); if it is not, do not use it: it may be trying to send another config's " +
        "secrets elsewhere",
      command,
    },
  );
}
