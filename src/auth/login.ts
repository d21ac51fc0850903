/**
 * Signing in with the device flow (RFC 8628) and signing out: device authorization, polling,
 * user info, the token record in the keychain and `users.<profile>` in the config.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  adoptKeychainNamespace,
  claimKeychainNamespace,
  type Config,
  ensureConfigFolder,
  namespaceFor,
  ownedNamespace,
  refersTo,
  updateConfig,
  withFileLock,
} from "../config/mod.ts";
import { CancelledError, HarkError, ValidationError } from "../errors/mod.ts";
import { appOf, resolveAppCredentials } from "./app_credentials.ts";
import { pollDeviceToken, type PollProgress } from "./device_flow.ts";
import { type DeviceAuthorization, requestDeviceAuthorization } from "./device_authorization.ts";
import { endpointsOf } from "./oauth_client.ts";
import { callTokenEndpoint, DEVICE_CODE_GRANT } from "./token_endpoint.ts";
import { fetchUserInfo, type UserInfo } from "./user_info.ts";
import {
  clearPendingLogin,
  pendingLoginPath,
  savePendingLogin,
  takePendingLogin,
} from "./pending_login.ts";
import { SCOPE_OFFLINE } from "./scopes.ts";
import { REFRESH_LOCK_TIMEOUT_MS, sessionLockPath } from "./refresh_user_token.ts";
import { tenantTokenPath } from "./tenant_token.ts";
import { serviceOf } from "./token_origin.ts";
import { recordFromGrant, rfc3339, tokenPathOf, userTokenPath } from "./token_record.ts";

/** The profile a sign-in is for. */
export interface LoginTarget {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path. */
  configPath: string;
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/**
 * Where a sign-in stores the token record: `hark/[<namespace>/]<profile>/user_token`, in this
 * config's keychain namespace (a new one for a config at another path that has none yet).
 *
 * @param ctx the context
 * @param target the profile
 */
export function loginTokenPath(
  ctx: Context,
  target: LoginTarget,
): { path: string; namespace?: string } {
  const { namespace } = namespaceFor(ctx, target.config, target.configPath);
  return { path: userTokenPath(target.profile, namespace), namespace };
}

/**
 * Checks, before a sign-in starts, that storing its token replaces nothing another config file
 * uses: an entry at the token's keychain path that this config does not refer to may be another
 * config's (the default config and one written before namespaces share paths).
 *
 * @param ctx the context
 * @param target the profile
 * @param force `--force`: replace it anyway
 * @throws {ValidationError} naming the entry and `--force`
 * @throws {KeychainError} when the keychain cannot be read
 */
export async function checkLoginTarget(
  ctx: Context,
  target: LoginTarget,
  force: boolean,
): Promise<void> {
  serviceOf(ctx, target);
  const { path } = loginTokenPath(ctx, target);
  if (force || refersTo(target.config, path)) return;
  if (await ctx.keychain.get(path) === undefined) return;
  const flag = target.profile === "default" ? "" : ` --profile ${target.profile}`;
  throw new ValidationError(
    `Cannot store the sign-in at "${path}": that keychain entry exists and this config file ` +
      "does not refer to it (another config file may use it)",
    {
      param: "--force",
      suggestion: "Sign in with --force to replace it, or use a config file of your own " +
        "(HARK_CONFIG), whose entries are kept apart",
      command: `hark auth login${flag} --force`,
    },
  );
}

/**
 * Requests a device authorization for the profile's app (step 1 of the spec's sequence).
 *
 * @param ctx the context
 * @param target the profile
 * @param scopes the scopes to ask for; `offline_access` is added
 * @throws {ValidationError} when no app is configured
 * @throws {AuthError} when the app credentials are refused
 * @throws {NetworkError} when the server cannot be reached
 */
export async function startDeviceAuthorization(
  ctx: Context,
  target: LoginTarget,
  scopes: string[],
): Promise<DeviceAuthorization> {
  const service = serviceOf(ctx, target);
  const { deviceAuthorizationUrl } = endpointsOf(service, appOf(target.config, target.profile));
  const credentials = await resolveAppCredentials(ctx, target, service, deviceAuthorizationUrl);
  return await requestDeviceAuthorization(ctx, deviceAuthorizationUrl, credentials, scopes);
}

/**
 * The scopes a sign-in asks for: what the profile already holds plus `requested`, or plus every
 * scope hark's shortcuts need when nothing is requested. Adding to the granted scopes means that
 * following a permission error's recovery command never takes away what the user had.
 *
 * @param target the profile
 * @param requested the scopes asked for with `--scope` (checked)
 * @param defaults the scopes asked for when none are requested
 */
export function scopesToRequest(
  target: LoginTarget,
  requested: readonly string[],
  defaults: readonly string[],
): string[] {
  const granted = (target.config.users?.[target.profile]?.scopes ?? []).filter((s) =>
    s !== SCOPE_OFFLINE
  );
  return requested.length > 0
    ? [...new Set([...granted, ...requested])]
    : [...new Set([...defaults, ...granted])];
}

/**
 * Starts a sign-in that another command finishes (`auth login --no-wait`): requests the device
 * authorization and remembers what the server said (interval, expiry, scopes) so that
 * {@link finishLogin} polls as the server asked.
 *
 * @param ctx the context
 * @param target the profile
 * @param scopes the scopes to ask for
 * @returns the server's answer, and where the pending sign-in is kept (to forget it later)
 * @throws the errors of {@link startDeviceAuthorization}
 */
export async function beginLogin(
  ctx: Context,
  target: LoginTarget,
  scopes: string[],
): Promise<DeviceAuthorization & { pendingPath: string }> {
  const authorization = await startDeviceAuthorization(ctx, target, scopes);
  // The command that finishes the sign-in must find the pending one in the same namespace.
  const namespace = await claimKeychainNamespace(ctx, target.config, target.configPath);
  const pendingPath = pendingLoginPath(target.profile, namespace);
  await savePendingLogin(ctx, pendingPath, { ...authorization, scopes });
  return { ...authorization, pendingPath };
}

/**
 * Finishes a sign-in started by {@link beginLogin} (`auth login --device-code`): polls with the
 * interval and the time left that were remembered (the defaults when nothing was), then forgets
 * the pending sign-in whatever the outcome.
 *
 * @param ctx the context
 * @param target the profile
 * @param deviceCode the device code
 * @param onTick called while waiting
 * @throws the errors of {@link completeLogin}
 */
export async function finishLogin(
  ctx: Context,
  target: LoginTarget,
  deviceCode: string,
  onTick?: (progress: PollProgress) => void,
): Promise<LoginResult> {
  const pendingPath = pendingLoginPath(target.profile, target.config.keychain_namespace);
  const pending = await takePendingLogin(ctx, pendingPath, deviceCode);
  const remaining = pending?.expires_at === undefined
    ? undefined
    : Math.max(0, Math.floor((pending.expires_at - ctx.now()) / 1000));
  try {
    return await completeLogin(ctx, target, {
      deviceCode,
      interval: pending?.interval,
      expiresIn: remaining,
      scopes: pending?.scopes,
      onTick,
    });
  } finally {
    if (pending) await clearPendingLogin(ctx, pendingPath);
  }
}

/** Options of {@link completeLogin}. */
export interface CompleteLoginOptions {
  /** The device code to poll with. */
  deviceCode: string;
  /** The server's interval, in seconds, when known. */
  interval?: number;
  /** The server's `expires_in`, in seconds, when known. */
  expiresIn?: number;
  /** The scopes asked for, used when the token answer names none. */
  scopes?: string[];
  /** Called while waiting (spinner). */
  onTick?: (progress: PollProgress) => void;
}

/** The outcome of a sign-in. */
export interface LoginResult {
  /** The profile. */
  profile: string;
  /** The signed-in user. */
  user: UserInfo;
  /** The granted scopes. */
  scopes: string[];
  /** The scopes asked for, when known (the pending sign-in's, for `--device-code`). */
  requested: string[];
  /** When the access token expires, RFC 3339. */
  expires_at: string;
  /** When the refresh token expires, RFC 3339, when known. */
  refresh_expires_at?: string;
  /** Things that went wrong without failing the sign-in. */
  warnings: string[];
}

/**
 * Polls for the device code's tokens, fetches the user's info, stores the token record in the
 * keychain and updates `users.<profile>` (steps 3 to 6). Ctrl-C before the token is stored
 * leaves nothing behind; the device code is never polled again after it produced tokens.
 *
 * @param ctx the context
 * @param target the profile
 * @param options the device code and the server's timing
 * @throws {AuthError} on denial, expiry, a rejected code or a timeout
 * @throws {CancelledError} on Ctrl-C
 */
export async function completeLogin(
  ctx: Context,
  target: LoginTarget,
  options: CompleteLoginOptions,
): Promise<LoginResult> {
  const { config, profile, configPath } = target;
  const service = serviceOf(ctx, target);
  const endpoints = endpointsOf(service, appOf(config, profile));
  const credentials = await resolveAppCredentials(ctx, target, service, endpoints.tokenUrl);
  const grant = await pollDeviceToken(ctx, {
    poll: () =>
      callTokenEndpoint(ctx, endpoints.tokenUrl, credentials, {
        grant_type: DEVICE_CODE_GRANT,
        device_code: options.deviceCode,
      }),
    interval: options.interval,
    expiresIn: options.expiresIn,
    onTick: options.onTick,
  });
  const record = recordFromGrant(grant, ctx.now(), undefined, options.scopes ?? [], service.origin);
  const warnings: string[] = [];
  let user: UserInfo = {};
  try {
    user = await fetchUserInfo(ctx, endpoints.baseUrl, record.access_token);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    if (!(error instanceof HarkError)) throw error;
    warnings.push(`Signed in, but cannot read the user's details: ${error.message}`);
  }
  if (ctx.signal.aborted) throw new CancelledError("Sign-in cancelled");
  // The config's namespace is settled first: a concurrent first sign-in may have chosen it.
  const namespace = await claimKeychainNamespace(ctx, config, configPath);
  const path = userTokenPath(profile, namespace);
  await ctx.keychain.set(path, JSON.stringify(record));
  await updateConfig(ctx, (current) => {
    adoptKeychainNamespace(current, namespace);
    current.users ??= {};
    const entry: Record<string, unknown> = {
      access_token: `@keychain:${path}`,
      user_type: "user",
      open_id: user.open_id,
      name: user.name,
      email: user.email,
      scopes: record.scopes,
      expires_at: rfc3339(record.expires_at),
      refresh_expires_at: rfc3339(record.refresh_expires_at),
    };
    for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
    current.users[profile] = entry;
  }, configPath);
  return {
    profile,
    user,
    scopes: record.scopes,
    requested: options.scopes ?? [],
    expires_at: rfc3339(record.expires_at),
    refresh_expires_at: rfc3339(record.refresh_expires_at),
    warnings,
  };
}

/** What {@link logout} removed. */
export interface LogoutResult {
  /** The profile. */
  profile: string;
  /** The keychain entries deleted. */
  keychain_entries: string[];
  /** Whether `users.<profile>` was removed from the config. */
  user_entry_removed: boolean;
}

/**
 * The keychain entries a sign-out deletes: the token record the config refers to, and the
 * profile's own entries (token record, cached tenant token, pending sign-in) in this config's
 * namespace. A config at another path without a namespace owns no path of its own, so nothing
 * of the default config's is touched; nor is an entry of another config the file refers to.
 *
 * @param ctx the context
 * @param target the profile
 */
export function signOutPaths(ctx: Context, target: LoginTarget): string[] {
  const { config, profile } = target;
  const paths = new Set<string>();
  if (config.users?.[profile] !== undefined) {
    try {
      const referred = tokenPathOf(ctx, target);
      if (referred !== undefined) paths.add(referred);
    } catch (error) {
      // A reference to another config's entry is not this config's to delete.
      if (!(error instanceof ValidationError)) throw error;
    }
  }
  const owned = ownedNamespace(ctx, config, target.configPath);
  if (owned) {
    paths.add(userTokenPath(profile, owned.namespace));
    paths.add(tenantTokenPath(profile, owned.namespace));
    paths.add(pendingLoginPath(profile, owned.namespace));
  }
  return [...paths];
}

/**
 * Signs out: deletes the profile's token record, cached tenant token and pending sign-in from
 * the keychain and `users.<profile>` from the config. Idempotent. Runs under the same lock as a
 * refresh, so a refresh under way in another process finishes first and never brings the
 * session back after it.
 *
 * @param ctx the context
 * @param target the profile
 * @throws {KeychainError} when the keychain cannot be used
 * @throws {HarkError} of type `lock` when a refresh holds the lock for too long
 */
export async function logout(ctx: Context, target: LoginTarget): Promise<LogoutResult> {
  const { profile, configPath } = target;
  // The lock lives beside the config; a sign-out with no config folder has nothing to lock.
  await ensureConfigFolder(ctx, configPath);
  return await withFileLock(ctx, sessionLockPath(configPath, profile), async () => {
    const deleted: string[] = [];
    for (const path of signOutPaths(ctx, target)) {
      if (await ctx.keychain.delete(path)) deleted.push(path);
    }
    let removed = false;
    if (target.config.users?.[profile] !== undefined) {
      await updateConfig(ctx, (current) => {
        if (current.users?.[profile] === undefined) return;
        delete current.users[profile];
        removed = true;
      }, configPath);
    }
    return { profile, keychain_entries: deleted.sort(), user_entry_removed: removed };
  }, { timeoutMs: REFRESH_LOCK_TIMEOUT_MS });
}
