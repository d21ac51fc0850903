/**
 * Where the app id and secret come from, and where the secret may go. `HARK_APP_ID` /
 * `HARK_APP_SECRET` win over the profile's app entry, whose secret is a SecretInput. Every
 * request that carries the secret names its destination, and the secret goes there only when:
 * - it was stored by `config init` in this config's own keychain entry, for that service (or
 *   its sign-in host): a config file reads only its own entries;
 * - it comes from the environment (`@env:VAR`, `HARK_APP_SECRET`, or a keychain entry written
 *   before hark recorded the service it is for) and the destination is one of Lark's services
 *   or an origin the user trusts outside any config file (`HARK_TRUSTED_ORIGINS`,
 *   `HARK_BASE_URL`); a loopback address is no exception;
 * - or it is written in the config file itself (`@plain:`), which tells the file's author
 *   nothing new.
 * The secret the config refers to also goes only to the profile's own service: `HARK_BASE_URL`
 * pointing elsewhere never receives it.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  accountsOriginOf,
  type AppEntry,
  BASE_URL_VAR,
  checkOwnEntry,
  type Config,
  DEFAULT_BASE_URL,
  isLarkOrigin,
  parseSecretInput,
  readStoredAppSecret,
  resolveSecretInput,
  type ServiceAddress,
  TRUSTED_ORIGINS_VAR,
  trustedOrigins,
} from "../config/mod.ts";
import { AuthError, ValidationError } from "../errors/mod.ts";
import { KeychainError } from "../keychain/keychain.ts";
import { TENANT_TOKEN_VAR } from "./env_provider.ts";

/** Resolved app credentials and where they came from. */
export interface ResolvedAppCredentials {
  /** The app id. */
  appId: string;
  /** The app secret. */
  appSecret: string;
  /** `env` for `HARK_APP_ID` / `HARK_APP_SECRET`, `config` for `apps.<profile>`. */
  source: "env" | "config";
}

/** Whose app credentials are resolved. */
export interface AppCredentialsTarget {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path: which keychain entries it owns, and for messages. */
  configPath: string;
}

/**
 * Resolves the app credentials of a profile for one request: `HARK_APP_ID` and
 * `HARK_APP_SECRET` when both are set, else `apps.<profile>.app_id` and
 * `apps.<profile>.app_secret` (a SecretInput), checked against the request's destination as the
 * module documents. Nothing is sent when a check fails.
 *
 * @param ctx the context
 * @param target the config, its path and the profile
 * @param service the profile's service now
 * @param destination the URL the secret is about to be sent to
 * @throws {ValidationError} when no app is configured, only one of the variables is set, or the
 *   config refers to a keychain entry that is not its own
 * @throws {AuthError} when the secret may not go to `destination`
 * @throws {KeychainError} when the secret's keychain entry cannot be read
 */
export async function resolveAppCredentials(
  ctx: Context,
  target: AppCredentialsTarget,
  service: ServiceAddress,
  destination: string,
): Promise<ResolvedAppCredentials> {
  const { config, profile, configPath } = target;
  const to = new URL(destination).origin;
  const envId = ctx.env.get("HARK_APP_ID") || undefined;
  const envSecret = ctx.env.get("HARK_APP_SECRET") || undefined;
  if (envId && envSecret) {
    checkOutsideSecret(ctx, to, { what: "HARK_APP_SECRET" });
    return { appId: envId, appSecret: envSecret, source: "env" };
  }
  if (envId || envSecret) {
    const missing = envId ? "HARK_APP_SECRET" : "HARK_APP_ID";
    throw new ValidationError(
      `Cannot use the app credentials from the environment: "${missing}" is not set`,
      { param: missing, suggestion: "Set both HARK_APP_ID and HARK_APP_SECRET, or neither" },
    );
  }
  const app = appOf(config, profile);
  if (!app.app_id || !app.app_secret) throw noApp(profile);
  checkOwnService(app, profile, service);
  const key = `apps.${profile}.app_secret`;
  const input = parseSecretInput(app.app_secret);
  let appSecret: string;
  if (input.kind === "keychain") {
    const path = checkOwnEntry(ctx, target, key, input.path, "app_secret");
    const text = await ctx.keychain.get(path);
    if (text === undefined) throw missingEntry(ctx, key, path);
    const stored = readStoredAppSecret(text);
    if (stored.origin === undefined) {
      checkOutsideSecret(ctx, to, { what: key, configPath, legacy: true });
    } else checkStoredFor(ctx, to, stored.origin, target);
    appSecret = stored.secret;
  } else {
    // Reading the variable sends nothing; its name is checked first, its destination next.
    appSecret = await resolveSecretInput(ctx, app.app_secret, key);
    if (input.kind === "env") checkOutsideSecret(ctx, to, { what: key, configPath, input });
  }
  return { appId: app.app_id, appSecret, source: "config" };
}

/**
 * The app entry of a profile, or an empty one (defaults apply) when there is none.
 *
 * @param config the loaded config
 * @param profile the profile
 */
export function appOf(config: Config, profile: string): AppEntry {
  return config.apps?.[profile] ?? {};
}

/**
 * Refuses to send a secret from outside the config file (the environment, or a keychain entry
 * that does not say what it is for) to an origin that is neither Lark's nor trusted by the user
 * outside any config file.
 *
 * @throws {AuthError} naming the secret, the origin, the file and the way to trust it
 * @throws {ValidationError} for a malformed `HARK_TRUSTED_ORIGINS`
 */
function checkOutsideSecret(
  ctx: Context,
  to: string,
  source: {
    what: string;
    configPath?: string;
    input?: { name: string };
    legacy?: boolean;
  },
): void {
  if (isLarkOrigin(to) || trustedOrigins(ctx.env).has(to)) return;
  const named = source.input ? `${source.what} ("@env:${source.input.name}")` : source.what;
  const from = source.configPath === undefined ? "" : ` (named by "${source.configPath}")`;
  const why = source.legacy
    ? "it was stored by an older hark, without the service it is for, so it goes only to " +
      "Lark's services or to an origin trusted outside the config file"
    : "a secret from the environment goes only to Lark's services (open.feishu.cn, " +
      "open.larksuite.com) or to an origin trusted outside the config file";
  throw new AuthError(`Refusing to send ${named} to "${to}"${from}: ${why}`, {
    suggestion: `If "${to}" is your own deployment, trust it outside the config file: ` +
      `${TRUSTED_ORIGINS_VAR}=${to} (or ${BASE_URL_VAR})` +
      (source.legacy
        ? "; or store the secret again with hark config init --force, which records its service"
        : "") +
      (source.configPath === undefined
        ? ""
        : `; if you did not write "${source.configPath}", do not use it`),
    command: "",
  });
}

/**
 * Refuses to send a stored secret to another origin than the one it was stored for (or that
 * origin's sign-in host), unless the user trusts that origin outside any config file.
 *
 * @throws {AuthError} naming both origins and the ways out
 */
function checkStoredFor(
  ctx: Context,
  to: string,
  origin: string,
  target: AppCredentialsTarget,
): void {
  if (to === origin || to === accountsOriginOf(origin) || trustedOrigins(ctx.env).has(to)) return;
  const { profile, configPath } = target;
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  throw new AuthError(
    `Refusing to send the app secret of profile "${profile}" to "${to}" (named by ` +
      `"${configPath}"): it was stored for "${origin}"`,
    {
      suggestion: `A stored secret goes only to the service it was stored for: point ` +
        `apps.${profile}.base_url back at "${origin}", or store the secret again for the new ` +
        "service",
      command: `hark config init --force${flag}`,
    },
  );
}

/**
 * Refuses to send the config's app secret to another origin than the profile's own service.
 * Only `HARK_BASE_URL` can make the two differ: without it the service is the profile's own.
 *
 * @param app the profile's app entry
 * @param profile the profile
 * @param service where the secret is about to go
 * @throws {AuthError} naming both origins and the ways out
 */
function checkOwnService(app: AppEntry, profile: string, service: ServiceAddress): void {
  if (service.source !== BASE_URL_VAR) return;
  const configured = app.base_url ?? DEFAULT_BASE_URL;
  let own: string;
  try {
    own = new URL(configured).origin;
  } catch {
    own = configured;
  }
  if (own === service.origin) return;
  throw new AuthError(
    `Cannot send the app secret of profile "${profile}" to "${service.origin}" ` +
      `(${BASE_URL_VAR}): the secret in the config goes only to the profile's own service ` +
      `"${own}" (${app.base_url === undefined ? "default" : `apps.${profile}.base_url`})`,
    {
      suggestion: `Unset ${BASE_URL_VAR} to use "${own}"; to reach "${service.origin}" in CI, ` +
        `give a tenant token in ${TENANT_TOKEN_VAR}, or the app's credentials in HARK_APP_ID ` +
        `and HARK_APP_SECRET (credentials from the environment go to ${BASE_URL_VAR})`,
      command: "",
    },
  );
}

function missingEntry(ctx: Context, key: string, path: string): KeychainError {
  return new KeychainError(
    ctx.keychain.backend,
    `Cannot resolve ${key}: no keychain entry "${path}" in the ${ctx.keychain.backend} keychain`,
    {
      suggestion: "Store the secret again with hark config init",
      command: "hark config init",
    },
  );
}

function noApp(profile: string): ValidationError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new ValidationError(`No app is configured for profile "${profile}"`, {
    param: `apps.${profile}`,
    suggestion: "Set up the app id and secret first, or set HARK_APP_ID and HARK_APP_SECRET",
    command: `hark config init${flag}`,
  });
}
