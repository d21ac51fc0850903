/**
 * Where the app id and secret come from: `HARK_APP_ID` / `HARK_APP_SECRET`, else the profile's
 * app entry with its secret resolved as a SecretInput.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type AppEntry, type Config, resolveSecretInput } from "../config/mod.ts";
import { ValidationError } from "../errors/mod.ts";

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
 * Resolves the app credentials of a profile: `HARK_APP_ID` and `HARK_APP_SECRET` when both are
 * set, else `apps.<profile>.app_id` and `apps.<profile>.app_secret` (a SecretInput).
 *
 * @param ctx the context
 * @param config the loaded config
 * @param profile the profile
 * @throws {ValidationError} when no app is configured, or only one of the variables is set
 * @throws {KeychainError} when the secret's keychain entry cannot be read
 */
export async function resolveAppCredentials(
  ctx: Context,
  config: Config,
  profile: string,
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

function noApp(profile: string): ValidationError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new ValidationError(`No app is configured for profile "${profile}"`, {
    param: `apps.${profile}`,
    suggestion: "Set up the app id and secret first, or set HARK_APP_ID and HARK_APP_SECRET",
    command: `hark config init${flag}`,
  });
}
