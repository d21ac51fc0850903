/**
 * Tokens stay with their service: a token is sent only to the origin that issued it (or, for
 * an environment token, the one `HARK_BASE_URL` names), and a changed `base_url` needs a new
 * sign-in. This file holds the checks and their errors; the providers record the origin.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  BASE_URL_VAR,
  type Config,
  DEFAULT_BASE_URL,
  resolveServiceAddress,
  type ServiceAddress,
} from "../config/mod.ts";
import { AuthError } from "../errors/mod.ts";
import type { ResolvedToken } from "./token_source.ts";

/** What the service of a profile is resolved from. */
export interface ServiceTarget {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. Default false. */
  allowInsecureHttp?: boolean;
}

/**
 * The checked service address of a profile (`HARK_BASE_URL`, else `apps.<profile>.base_url`).
 *
 * @param ctx the context (environment)
 * @param target the config, profile and `--allow-insecure-http`
 * @throws {ValidationError} for an address that is not an http(s) URL, or plain HTTP to another
 *   machine without the allowance
 */
export function serviceOf(ctx: Context, target: ServiceTarget): ServiceAddress {
  return resolveServiceAddress(ctx.env, target.config, target.profile, {
    allowInsecureHttp: target.allowInsecureHttp,
  });
}

/**
 * The origin an environment token may go to: `HARK_BASE_URL`'s, else Lark's public service. A
 * config file never redirects it.
 *
 * @param ctx the context (environment)
 */
export function environmentTokenOrigin(ctx: Context): string {
  const explicit = ctx.env.get(BASE_URL_VAR)?.trim();
  try {
    return new URL(explicit || DEFAULT_BASE_URL).origin;
  } catch {
    // resolveServiceAddress reports a malformed HARK_BASE_URL; nothing may match it meanwhile.
    return "invalid:";
  }
}

/**
 * The error for a stored sign-in whose token was issued by another service than the profile's
 * current one (`base_url` changed, or `HARK_BASE_URL` points elsewhere).
 *
 * @param profile the profile
 * @param issuer the origin that issued the token
 * @param service the profile's service now
 */
export function signedInElsewhere(
  profile: string,
  issuer: string,
  service: ServiceAddress,
): AuthError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new AuthError(
    `Cannot use the sign-in of profile "${profile}" with "${service.origin}": its token was ` +
      `issued by "${issuer}" (${service.source} changed since the sign-in)`,
    {
      suggestion: `A token is sent only to the service that issued it: sign in again to use ` +
        `"${service.origin}", or set ${service.source} back to "${issuer}"`,
      command: `hark auth login${flag}`,
    },
  );
}

/**
 * Refuses to send `token` to `url` when the token is bound to another origin. The last line of
 * defence: the providers already refuse a token bound elsewhere with a fuller message.
 *
 * @param token the token about to be sent
 * @param url where it would go
 * @throws {AuthError} naming both origins
 */
export function checkTokenOrigin(token: ResolvedToken, url: URL): void {
  if (token.origin === undefined || token.origin === url.origin) return;
  throw new AuthError(
    `Refusing to send a token issued by "${token.origin}" to "${url.origin}"`,
    {
      suggestion: "A token is sent only to the service that issued it: sign in again for " +
        `"${url.origin}", or point the profile back at "${token.origin}"`,
      command: "hark auth login",
    },
  );
}
