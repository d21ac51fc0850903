/**
 * Refreshing a user token: single-flight within the process (concurrent callers share one
 * refresh) and guarded across processes by a lock file beside the config, re-reading the stored
 * token after taking the lock, so two hark processes never spend the same refresh token twice.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type Config, ensureConfigFolder, updateConfig, withFileLock } from "../config/mod.ts";
import { ApiError, AuthError, type HarkError, logIdNote } from "../errors/mod.ts";
import { appOf, resolveAppCredentials } from "./app_credentials.ts";
import { notSignedIn } from "./credential_provider.ts";
import { endpointsOf } from "./oauth_client.ts";
import { callTokenEndpoint, TOKEN_ENDPOINT_BUSY, type TokenAnswer } from "./token_endpoint.ts";
import { serviceOf, signedInElsewhere } from "./token_origin.ts";
import {
  canRefresh,
  readTokenRecord,
  recordFromGrant,
  rfc3339,
  sessionExpired,
  tokenPathOf,
  type TokenRecord,
} from "./token_record.ts";

/**
 * How long a process waits for another one's refresh: longer than one token request may take
 * (30 s), so a waiter sees the refreshed token instead of giving up while the refresh works.
 */
export const REFRESH_LOCK_TIMEOUT_MS = 45_000;

/**
 * Lark's refresh failures that need a new sign-in: the refresh token is invalid (20026),
 * expired (20037), revoked (20064) or already used (20073; they are single-use). lark-cli
 * `internal/output/lark_errors.go`.
 */
export const REFRESH_TOKEN_DEAD = new Set([20026, 20037, 20064, 20073]);

/** Whose token to refresh. */
export interface UserTokenTarget {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path; the lock file is `<configPath>.refresh-<profile>.lock`. */
  configPath: string;
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/**
 * The lock file that serialises a profile's refresh and sign-out across processes.
 *
 * @param configPath the config file's path
 * @param profile the profile
 */
export function sessionLockPath(configPath: string, profile: string): string {
  return `${configPath}.refresh-${profile}.lock`;
}

const inFlight = new WeakMap<Context, Map<string, Promise<TokenRecord>>>();

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
  return await withFileLock(ctx, sessionLockPath(configPath, profile), async () => {
    const path = tokenPathOf(ctx, target);
    const record = path === undefined ? undefined : await readTokenRecord(ctx.keychain, path);
    if (!record || path === undefined) throw notSignedIn(profile);
    if (!stale(record)) return record;
    const refreshToken = record.refresh_token;
    if (refreshToken === undefined || !canRefresh(record, ctx.now())) throw sessionExpired(profile);
    // The refresh token goes only to the service that issued it.
    const service = serviceOf(ctx, target);
    if (record.origin !== undefined && record.origin !== service.origin) {
      throw signedInElsewhere(profile, record.origin, service);
    }
    const { tokenUrl } = endpointsOf(service, appOf(config, profile));
    const credentials = await resolveAppCredentials(ctx, target, service, tokenUrl);
    const call = () =>
      callTokenEndpoint(ctx, tokenUrl, credentials, {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
      });
    let answer = await call();
    // Lark's "busy" (20050) is worth one more try (lark-cli RefreshTokenRetryable).
    if (answer.kind !== "tokens" && answer.code === TOKEN_ENDPOINT_BUSY) answer = await call();
    if (answer.kind !== "tokens") {
      const failure = refreshFailure(profile, answer);
      // Refused for good: remembered, so the local view says "sign in again" too.
      if (isDead(answer) && (await readTokenRecord(ctx.keychain, path))) {
        await ctx.keychain.set(path, JSON.stringify({ ...record, needs_login: true }));
      }
      throw failure;
    }
    const fresh = recordFromGrant(answer.grant, ctx.now(), record, [], service.origin);
    // A sign-out that ran while the token endpoint answered wins: the session stays closed.
    if (!(await readTokenRecord(ctx.keychain, path))) throw notSignedIn(profile);
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
 * The error of a refresh that did not produce tokens: a new sign-in for a dead refresh token
 * (RFC 6749 `invalid_grant`, or Lark's 20026, 20037, 20064, 20073), the app credentials for
 * `invalid_client`, and otherwise the error a business call would end with; the stored sign-in
 * is kept.
 */
function refreshFailure(
  profile: string,
  answer: Exclude<TokenAnswer, { kind: "tokens" }>,
): HarkError {
  const kept = "The stored sign-in is kept; retry in a moment";
  if (answer.kind === "transient") {
    return answer.error.withRecovery({ suggestion: kept, command: answer.error.recovery.command });
  }
  if (isDead(answer)) return sessionExpired(profile, answer);
  if (answer.error === "invalid_client") {
    const flag = profile === "default" ? "" : ` --profile ${profile}`;
    return new AuthError(
      `Cannot refresh the token of profile "${profile}": the app credentials were rejected` +
        logIdNote(answer.requestId),
      {
        suggestion: "Check the app id and secret",
        command: `hark config init --force${flag}`,
        requestId: answer.requestId,
      },
    );
  }
  return new ApiError(
    `Cannot refresh the token of profile "${profile}": ${answer.error}${
      answer.description ? ` (${answer.description})` : ""
    }${logIdNote(answer.requestId)}`,
    {
      httpStatus: answer.status,
      apiCode: answer.code,
      requestId: answer.requestId,
      suggestion: "Retry, or sign in again",
    },
  );
}

/**
 * Whether a refusal of the token endpoint means the refresh token is dead (RFC 6749
 * `invalid_grant`, or Lark's 20026, 20037, 20064, 20073): only a new sign-in helps.
 */
function isDead(answer: Exclude<TokenAnswer, { kind: "tokens" }>): boolean {
  if (answer.kind === "transient") return false;
  return (answer.code !== undefined && REFRESH_TOKEN_DEAD.has(answer.code)) ||
    answer.error === "invalid_grant";
}
