/**
 * The user token record kept in the keychain, and the token states the spec defines around its
 * expiry times.
 *
 * @module
 */

import { keychainPath } from "../keychain/keychain.ts";
import type { Keychain } from "../keychain/keychain.ts";
import { checkOwnEntry, type Config, ownedNamespace, parseSecretInput } from "../config/mod.ts";
import type { Context } from "../context.ts";
import { AuthError, logIdNote } from "../errors/mod.ts";
import { isObject, stringsField } from "../json/fields.ts";
import { readJson } from "../json/read_json.ts";

/** How long before `expires_at` a token counts as needing a refresh: 5 minutes. */
export const REFRESH_BUFFER_MS = 5 * 60 * 1000;

/**
 * A user's tokens, stored as one JSON keychain entry at `hark/<profile>/user_token`. Times are
 * epoch milliseconds.
 */
export interface TokenRecord {
  /** The bearer credential. */
  access_token: string;
  /** The refresh token, when the server issued one. */
  refresh_token?: string;
  /** When the access token expires (`ExpiresAt`), epoch ms. */
  expires_at: number;
  /** When the refresh token expires (`RefreshExpiresAt`), epoch ms, when known. */
  refresh_expires_at?: number;
  /** The granted scopes. */
  scopes: string[];
  /** The token type; `Bearer`. */
  token_type: string;
  /**
   * The origin of the service that issued the token (`https://open.feishu.cn`): the token is
   * sent there only. Absent in records stored before hark recorded it: the profile's service
   * then counts as the issuer, and the next refresh records it.
   */
  origin?: string;
  /**
   * Set when the service refused to refresh the session for good (its refresh token revoked,
   * expired or already used): only a new sign-in helps, whatever the times say, and the local
   * view (`auth status --offline`, `auth token`) says so without asking the service again.
   */
  needs_login?: true;
}

/**
 * The spec's token states, plus `refresh_expired` for an expired access token whose refresh
 * token is gone or expired too, and `needs_login` for a session the service refused to refresh
 * (sign in again, both).
 */
export type TokenState = "valid" | "needs_refresh" | "expired" | "refresh_expired" | "needs_login";

/**
 * The state of a token record at `now`: `valid` before `expires_at` minus 5 minutes,
 * `needs_refresh` within the last 5 minutes, `expired` after `expires_at` while a refresh token
 * is still alive, and `refresh_expired` when it is not; `needs_login` once the service refused
 * a refresh for good.
 *
 * @param record the token record
 * @param now the current time, epoch ms
 */
export function tokenState(record: TokenRecord, now: number): TokenState {
  if (record.needs_login) return "needs_login";
  if (now < record.expires_at - REFRESH_BUFFER_MS) return "valid";
  if (now < record.expires_at) return "needs_refresh";
  return canRefresh(record, now) ? "expired" : "refresh_expired";
}

/**
 * Whether the record's refresh token can still be spent at `now`.
 *
 * @param record the token record
 * @param now the current time, epoch ms
 */
export function canRefresh(record: TokenRecord, now: number): boolean {
  if (!record.refresh_token || record.needs_login) return false;
  return record.refresh_expires_at === undefined || now < record.refresh_expires_at;
}

/** The success answer of the token endpoint (RFC 6749 §5.1). */
export interface TokenGrant {
  /** The access token. */
  access_token: string;
  /** Lifetime of the access token in seconds. */
  expires_in?: number;
  /** The refresh token; a refresh answer may omit it. */
  refresh_token?: string;
  /** Lifetime of the refresh token in seconds. */
  refresh_token_expires_in?: number;
  /** Granted scopes, space separated. */
  scope?: string;
  /** The token type. */
  token_type?: string;
}

/** Access-token lifetime assumed when the server does not give one: 2 hours. */
const DEFAULT_EXPIRES_IN = 7200;

/**
 * Builds a token record from a token grant received at `now`. A refresh answer that omits the
 * refresh token (or its lifetime, or the scopes) keeps the previous record's.
 *
 * @param grant the token endpoint's answer
 * @param now when it was received, epoch ms
 * @param previous the record being refreshed, if any
 * @param requestedScopes the scopes asked for, used when the answer names none
 * @param origin the origin of the service that issued it
 */
export function recordFromGrant(
  grant: TokenGrant,
  now: number,
  previous?: TokenRecord,
  requestedScopes: string[] = [],
  origin?: string,
): TokenRecord {
  const newRefresh = typeof grant.refresh_token === "string" && grant.refresh_token !== "";
  const record: TokenRecord = {
    access_token: grant.access_token,
    expires_at: now + (grant.expires_in ?? DEFAULT_EXPIRES_IN) * 1000,
    scopes: grant.scope !== undefined
      ? grant.scope.split(/[\s,]+/).filter((s) => s !== "")
      : (previous?.scopes ?? requestedScopes),
    token_type: grant.token_type ?? "Bearer",
  };
  const issuer = origin ?? previous?.origin;
  if (issuer !== undefined) record.origin = issuer;
  if (newRefresh) {
    record.refresh_token = grant.refresh_token;
    if (typeof grant.refresh_token_expires_in === "number") {
      record.refresh_expires_at = now + grant.refresh_token_expires_in * 1000;
    } else if (previous && grant.refresh_token === previous.refresh_token) {
      record.refresh_expires_at = previous.refresh_expires_at;
    }
  } else if (previous?.refresh_token) {
    record.refresh_token = previous.refresh_token;
    record.refresh_expires_at = previous.refresh_expires_at;
  }
  return record;
}

/**
 * The keychain path of a profile's user token record, in the config's keychain namespace.
 *
 * @param profile the profile
 * @param namespace the config's keychain namespace, when it has one
 */
export function userTokenPath(profile: string, namespace?: string): string {
  return keychainPath(profile, "user_token", namespace);
}

/**
 * Reads a profile's token record from the keychain.
 *
 * @param keychain the keychain
 * @param path the entry's path, such as `hark/default/user_token`
 * @returns the record, or `undefined` when there is none
 * @throws {AuthError} when the entry is not a token record
 */
export async function readTokenRecord(
  keychain: Keychain,
  path: string,
): Promise<TokenRecord | undefined> {
  const text = await keychain.get(path);
  if (text === undefined) return undefined;
  return parseTokenRecord(text, path);
}

/**
 * Parses a stored token record.
 *
 * @param text the stored JSON
 * @param path where it came from, for messages
 * @throws {AuthError} when it is not a token record
 */
export function parseTokenRecord(text: string, path: string): TokenRecord {
  let value: unknown;
  try {
    // readJson never quotes what it read (V8's SyntaxError would: tokens, shown with --debug).
    value = readJson(text, { source: `the keychain entry "${path}"` });
  } catch (error) {
    throw corrupt(path, error);
  }
  if (
    !isObject(value) || typeof value.access_token !== "string" ||
    typeof value.expires_at !== "number"
  ) {
    throw corrupt(path);
  }
  return {
    access_token: value.access_token,
    refresh_token: typeof value.refresh_token === "string" ? value.refresh_token : undefined,
    expires_at: value.expires_at,
    refresh_expires_at: typeof value.refresh_expires_at === "number"
      ? value.refresh_expires_at
      : undefined,
    scopes: stringsField(value, "scopes"),
    token_type: typeof value.token_type === "string" ? value.token_type : "Bearer",
    ...(typeof value.origin === "string" ? { origin: value.origin } : {}),
    ...(value.needs_login === true ? { needs_login: true } : {}),
  };
}

function corrupt(path: string, cause?: unknown): AuthError {
  return new AuthError(`Cannot read the stored token "${path}": it is not a token record`, {
    suggestion: "Sign in again to replace it",
    cause,
  });
}

/**
 * An epoch-ms time as RFC 3339 (UTC); `undefined` for `undefined`, so a time that is always
 * there gives a string.
 *
 * @param ms epoch milliseconds
 */
export function rfc3339(ms: number): string;
export function rfc3339(ms: number | undefined): string | undefined;
export function rfc3339(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/**
 * The keychain path of a profile's token record: the `@keychain:` reference in
 * `users.<profile>.access_token`, which must be the config's own entry, else
 * `hark/[<namespace>/]<profile>/user_token`; `undefined` for a config at another path than the
 * default one that has no keychain namespace yet (it owns no entry: `hark/<profile>/…` is the
 * default config's).
 *
 * @param ctx the context
 * @param target the config, its path and the profile
 * @throws {ValidationError} naming the file when the reference is not the config's own entry
 */
export function tokenPathOf(
  ctx: Context,
  target: { config: Config; configPath: string; profile: string },
): string | undefined {
  const { config, profile } = target;
  const reference = config.users?.[profile]?.access_token;
  if (typeof reference === "string") {
    const input = parseSecretInput(reference);
    if (input.kind === "keychain") {
      return checkOwnEntry(ctx, target, `users.${profile}.access_token`, input.path, "user_token");
    }
  }
  const owned = ownedNamespace(ctx, config, target.configPath);
  return owned === undefined ? undefined : userTokenPath(profile, owned.namespace);
}

/**
 * The error for a session whose refresh token is expired or was rejected.
 *
 * @param profile the profile
 * @param answer the token endpoint's refusal, when there was one (its code, text and log id
 *   are shown)
 */
export function sessionExpired(
  profile: string,
  answer?: { code?: number; error: string; description?: string; requestId?: string },
): AuthError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  const why = answer === undefined
    ? ""
    : ` (${answer.code !== undefined ? `code ${answer.code}` : answer.error}${
      answer.description ? `: ${answer.description}` : ""
    })${logIdNote(answer.requestId)}`;
  return new AuthError(`Session expired for profile "${profile}": sign in again${why}`, {
    suggestion: "The refresh token is expired, was revoked or was already used; sign in again",
    command: `hark auth login${flag}`,
    requestId: answer?.requestId,
  });
}
