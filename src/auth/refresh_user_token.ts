/**
 * Refreshing a user token: single-flight within the process (concurrent callers share one
 * refresh) and guarded across processes by a lock file beside the config, re-reading the stored
 * token after taking the lock, so two hark processes never spend the same refresh token twice.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type Config,
  ensureConfigFolder,
  parseSecretInput,
  updateConfig,
  withFileLock,
} from "../config/mod.ts";
import { ApiError, AuthError, NetworkError } from "../errors/mod.ts";
import { appOf, resolveAppCredentials } from "./app_credentials.ts";
import { notSignedIn } from "./credential_provider.ts";
import { callTokenEndpoint, endpointsOf } from "./oauth_client.ts";
import {
  canRefresh,
  readTokenRecord,
  recordFromGrant,
  rfc3339,
  type TokenRecord,
  userTokenPath,
} from "./token_record.ts";

/**
 * How long a process waits for another one's refresh: longer than one token request may take
 * (30 s), so a waiter sees the refreshed token instead of giving up while the refresh works.
 */
const REFRESH_LOCK_TIMEOUT_MS = 45_000;

/** Whose token to refresh. */
export interface UserTokenTarget {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path; the lock file is `<configPath>.refresh-<profile>.lock`. */
  configPath: string;
}

const inFlight = new WeakMap<Context, Map<string, Promise<TokenRecord>>>();

/**
 * The keychain path of a profile's token record: the `@keychain:` reference in
 * `users.<profile>.access_token`, else `hark/<profile>/user_token`.
 *
 * @param config the loaded config
 * @param profile the profile
 */
export function tokenPathOf(config: Config, profile: string): string {
  const reference = config.users?.[profile]?.access_token;
  if (typeof reference === "string") {
    const input = parseSecretInput(reference);
    if (input.kind === "keychain") return input.path;
  }
  return userTokenPath(profile);
}

/**
 * Refreshes a profile's user token when `stale(record)` says so, and returns the token record
 * to use. Concurrent calls in this process share one refresh; across processes the work runs
 * under a lock file, and the record is re-read under the lock, so a token another process
 * already refreshed is used as it is.
 *
 * @param ctx the context
 * @param target the profile, config and config path
 * @param stale decides, from the stored record, whether it still needs a refresh
 * @returns the fresh (or already fresh) record
 * @throws {AuthError} when not signed in, or the refresh token is expired or rejected (sign in
 * again; the stored record is left in place so `auth status` can report it)
 * @throws {NetworkError} or {ApiError} on a transient failure; the stored token is kept
 */
export function refreshUserToken(
  ctx: Context,
  target: UserTokenTarget,
  stale: (record: TokenRecord) => boolean,
): Promise<TokenRecord> {
  let flights = inFlight.get(ctx);
  if (!flights) inFlight.set(ctx, flights = new Map());
  const key = `${target.configPath}\u0000${target.profile}`;
  const running = flights.get(key);
  if (running) return running;
  const flight = refreshLocked(ctx, target, stale).finally(() => flights.delete(key));
  flights.set(key, flight);
  return flight;
}

async function refreshLocked(
  ctx: Context,
  target: UserTokenTarget,
  stale: (record: TokenRecord) => boolean,
): Promise<TokenRecord> {
  const { config, profile, configPath } = target;
  await ensureConfigFolder(ctx, configPath);
  return await withFileLock(ctx, `${configPath}.refresh-${profile}.lock`, async () => {
    const path = tokenPathOf(config, profile);
    const record = await readTokenRecord(ctx.keychain, path);
    if (!record) throw notSignedIn(profile);
    if (!stale(record)) return record;
    if (!canRefresh(record, ctx.now())) throw sessionExpired(profile);
    const credentials = await resolveAppCredentials(ctx, config, profile);
    const { tokenUrl } = endpointsOf(appOf(config, profile));
    const answer = await callTokenEndpoint(ctx, tokenUrl, credentials, {
      grant_type: "refresh_token",
      refresh_token: record.refresh_token!,
    });
    if (answer.kind === "transient") {
      throw new NetworkError(`Cannot refresh the token of profile "${profile}": ${answer.reason}`, {
        suggestion: "The stored sign-in is kept; retry in a moment",
        cause: answer.cause,
      });
    }
    if (answer.kind === "error") {
      if (answer.error === "invalid_grant") throw sessionExpired(profile);
      if (answer.error === "invalid_client") {
        throw new AuthError(
          `Cannot refresh the token of profile "${profile}": the app credentials were rejected`,
          { suggestion: "Check the app id and secret", command: "hark config init" },
        );
      }
      throw new ApiError(
        `Cannot refresh the token of profile "${profile}": ${answer.error}${
          answer.description ? ` (${answer.description})` : ""
        }`,
        { httpStatus: answer.status, suggestion: "Retry, or sign in again" },
      );
    }
    const fresh = recordFromGrant(answer.grant, ctx.now(), record);
    await ctx.keychain.set(path, JSON.stringify(fresh));
    if (config.users?.[profile]) {
      await updateConfig(ctx, (current) => {
        const user = current.users?.[profile];
        if (!user) return;
        user.expires_at = rfc3339(fresh.expires_at);
        user.refresh_expires_at = rfc3339(fresh.refresh_expires_at);
        user.scopes = fresh.scopes;
      }, configPath);
    }
    return fresh;
  }, { timeoutMs: REFRESH_LOCK_TIMEOUT_MS });
}

/**
 * The error for a session whose refresh token is expired or was rejected.
 *
 * @param profile the profile
 */
export function sessionExpired(profile: string): AuthError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new AuthError(`Session expired for profile "${profile}": sign in again`, {
    suggestion: "The refresh token is expired or was revoked; sign in again",
    command: `hark auth login${flag}`,
  });
}
