/**
 * Choosing the active profile.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { Config } from "./config.ts";

const PROFILE_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;
/** Names that are keys of every JS object: as map keys they would read or set the prototype. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The profile to use: `--profile`, then `$HARK_PROFILE`, then `active_profile`, then `default`.
 *
 * @param ctx the context
 * @param config the loaded config
 * @param flag the value of `--profile`
 * @throws {ValidationError} when the chosen name is not a valid profile name
 */
export function selectProfile(ctx: Context, config: Config, flag?: string): string {
  const name = flag ?? ctx.env.get("HARK_PROFILE") ?? config.active_profile ?? "default";
  return checkProfileName(name, flag !== undefined ? "--profile" : "HARK_PROFILE");
}

/**
 * Checks a profile name: 1 to 64 letters, digits or `_ . @ -`.
 *
 * @param name the name
 * @param param what the name came from, for the message
 * @throws {ValidationError} when the name has another shape
 */
export function checkProfileName(name: string, param = "--profile"): string {
  if (!PROFILE_NAME.test(name) || RESERVED_NAMES.has(name)) {
    throw new ValidationError(
      `Invalid profile name "${name}": use 1 to 64 letters, digits or "_ . @ -"`,
      { param },
    );
  }
  return name;
}

/**
 * Checks that a profile has an app entry.
 *
 * @param config the config
 * @param name the profile
 * @param param what named it, for the message: `<name>`, `--profile`, `HARK_PROFILE`,
 *   `active_profile`, …
 * @throws {ValidationError} listing the known profiles
 */
export function requireKnownProfile(config: Config, name: string, param = "<name>"): void {
  checkProfileName(name, param);
  const known = Object.keys(config.apps ?? {}).sort();
  if (known.includes(name)) return;
  const from = ["--profile", "HARK_PROFILE", "active_profile"].includes(param)
    ? ` (from ${param})`
    : "";
  throw new ValidationError(
    `Unknown profile "${name}"${from}${
      known.length > 0 ? `; known profiles: ${known.join(", ")}` : "; no profiles exist yet"
    }`,
    {
      param,
      suggestion: known.length > 0
        ? "Name one of the known profiles"
        : `Create it first${param === "HARK_PROFILE" ? ", or unset HARK_PROFILE" : ""}`,
      command: known.length > 0 ? "hark profile list" : `hark config init --profile ${name}`,
    },
  );
}

/**
 * The error for a profile that has no app and no credential in the environment: nothing to sign
 * in with and no token to use, so `hark config init` comes first.
 *
 * @param profile the profile
 * @param variables the environment variables that would do instead, in words
 */
export function notConfigured(profile: string, variables: string): ValidationError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new ValidationError(`No app is configured for profile "${profile}"`, {
    param: `apps.${profile}`,
    suggestion: `Run hark config init${flag} first; in CI, set ${variables} instead`,
    command: `hark config init${flag}`,
  });
}
