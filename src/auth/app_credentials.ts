/**
 * Where the app id and secret come from: `HARK_APP_ID` / `HARK_APP_SECRET`, else the profile's
 * app entry with its secret resolved as a SecretInput. The secret the config holds (a keychain
 * or `@env:` reference in the profile) goes only to the profile's own service
 * (`apps.<profile>.base_url`, or Lark's public address): `HARK_BASE_URL` pointing elsewhere
 * never receives it. Secrets given in the environment go where `HARK_BASE_URL` says.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type AppEntry,
  BASE_URL_VAR,
  type Config,
  DEFAULT_BASE_URL,
  resolveSecretInput,
  type ServiceAddress,
} from "../config/mod.ts";
import { AuthError, ValidationError } from "../errors/mod.ts";
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

/**
 * Resolves the app credentials of a profile, to be sent to `service`: `HARK_APP_ID` and
 * `HARK_APP_SECRET` when both are set, else `apps.<profile>.app_id` and
 * `apps.<profile>.app_secret` (a SecretInput), which only the profile's own service receives.
 *
 * @param ctx the context
 * @param config the loaded config
 * @param profile the profile
 * @param service where the secret is about to go (the profile's service now)
 * @throws {ValidationError} when no app is configured, or only one of the variables is set
 * @throws {AuthError} when the config's secret would go to another service than the profile's
 *   own (`HARK_BASE_URL` points elsewhere)
 * @throws {KeychainError} when the secret's keychain entry cannot be read
 */
export async function resolveAppCredentials(
  ctx: Context,
  config: Config,
  profile: string,
  service: ServiceAddress,
): Promise<ResolvedAppCredentials> {
  const envId = ctx.env.get("HARK_APP_ID") || undefined;
  const envSecret = ctx.env.get("HARK_APP_SECRET") || undefined;
  if (envId && envSecret) return { appId: envId, appSecret: envSecret, source: "env" };
  if (envId || envSecret) {
    const missing = envId ? "HARK_APP_SECRET" : "HARK_APP_ID";
    throw new ValidationError(
      `Cannot use the app credentials from the environment: "${missing}" is not set`,
      { param: missing, suggestion: "Set both HARK_APP_ID and HARK_APP_SECRET, or neither" },
    );
  }
  const app = appOf(config, profile);
  if (!app.app_id || !app.app_secret) throw noApp(profile);
  checkSecretDestination(app, profile, service);
  const appSecret = await resolveSecretInput(ctx, app.app_secret, `apps.${profile}.app_secret`);
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
 * Refuses to send the config's app secret to another origin than the profile's own service.
 * Only `HARK_BASE_URL` can make the two differ: without it the service is the profile's own.
 *
 * @param app the profile's app entry
 * @param profile the profile
 * @param service where the secret is about to go
 * @throws {AuthError} naming both origins and the ways out
 */
function checkSecretDestination(app: AppEntry, profile: string, service: ServiceAddress): void {
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

function noApp(profile: string): ValidationError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new ValidationError(`No app is configured for profile "${profile}"`, {
    param: `apps.${profile}`,
    suggestion: "Set up the app id and secret first, or set HARK_APP_ID and HARK_APP_SECRET",
    command: `hark config init${flag}`,
  });
}
