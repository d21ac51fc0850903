/**
 * What `auth status` and `auth check` report: the sign-in state of a profile, read without
 * refreshing anything, and the scopes it lacks.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Config } from "../config/mod.ts";
import {
  AuthError,
  HarkError,
  loginCommand,
  PermissionError,
  ValidationError,
} from "../errors/mod.ts";
import {
  type Account,
  type Credential,
  type CredentialProvider,
  runChain,
} from "./credential_provider.ts";
import { createTokenSource, defaultProviders } from "./create_token_source.ts";
import { REFRESH_BUFFER_MS, rfc3339 } from "./token_record.ts";
import type { TokenOrigin } from "./token_source.ts";
import type { Identity } from "./identity.ts";
import { scopeGranted } from "./scopes.ts";

/** The states `auth status` reports. */
export type StatusState = "valid" | "needs_refresh" | "expired" | "needs_login" | "signed_out";

/** The report of `auth status`. Never holds a token. */
export interface AuthStatus {
  /** The profile. */
  profile: string;
  /** The state of the token in use. */
  state: StatusState;
  /** Whether a command would get a token: valid, or refreshable. */
  usable: boolean;
  /** The identity. */
  identity: Identity;
  /** Which provider supplies the token, or `null` when signed out. */
  source: TokenOrigin | null;
  /** The user, when known. */
  user: { open_id?: string; name?: string; email?: string } | null;
  /** The granted scopes, or `null` when unknown (an environment token). */
  scopes: string[] | null;
  /** When the access token expires, RFC 3339, when known. */
  expires_at: string | null;
  /** When the refresh token expires, RFC 3339, when known. */
  refresh_expires_at: string | null;
  /** Whether a refresh token is held. */
  refreshable: boolean;
  /** Why the profile is not usable, when it is not. */
  reason?: string;
}

/** Options of {@link authStatus}. */
export interface AuthStatusOptions {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path. */
  configPath: string;
  /** The providers; default the built-in chain. */
  providers?: readonly CredentialProvider[];
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/**
 * Reports the sign-in state of the user identity without refreshing or asking the service:
 * `valid`, `needs_refresh` (within 5 minutes of expiry), `expired` (`usable` when the refresh
 * token is alive), `needs_login` (the service refused a refresh for good, remembered) or
 * `signed_out`.
 *
 * @param ctx the context
 * @param options the profile and config
 * @throws {HarkError} only for failures that are not about credentials (a broken keychain)
 */
export async function authStatus(ctx: Context, options: AuthStatusOptions): Promise<AuthStatus> {
  const providers = options.providers ?? defaultProviders(ctx);
  const spec = {
    identity: "user" as const,
    profile: options.profile,
    config: options.config,
    configPath: options.configPath,
    refresh: "never" as const,
    allowInsecureHttp: options.allowInsecureHttp,
  };
  const signedOut = (reason: string): AuthStatus => ({
    profile: options.profile,
    state: "signed_out",
    usable: false,
    identity: "user",
    source: null,
    user: null,
    scopes: null,
    expires_at: null,
    refresh_expires_at: null,
    refreshable: false,
    reason,
  });
  let found: { value: Credential; provider: CredentialProvider };
  try {
    found = await runChain(providers, (p) => p.resolveToken(spec), () => new Error("none"));
  } catch (error) {
    if (error instanceof HarkError && error.type !== "keychain") return signedOut(error.message);
    if (error instanceof HarkError) throw error;
    return signedOut(`Not signed in to profile "${options.profile}"`);
  }
  const credential = found.value;
  let account: Account | undefined;
  try {
    account = await found.provider.resolveAccount(spec);
  } catch {
    account = undefined;
  }
  const now = ctx.now();
  const state = stateOf(credential, now);
  const refreshable = credential.refreshable ?? false;
  const usable = state === "valid" || state === "needs_refresh" ||
    (state === "expired" && refreshable);
  const reason = state === "needs_login"
    ? "The service refused to refresh the session (revoked, expired or already used)"
    : "The access token and the refresh token have expired";
  const user = account && (account.openId || account.name || account.email)
    ? { open_id: account.openId, name: account.name, email: account.email }
    : null;
  return {
    profile: options.profile,
    state,
    usable,
    identity: "user",
    source: credential.source,
    user,
    scopes: credential.scopes ?? null,
    expires_at: rfc3339(credential.expiresAt) ?? null,
    refresh_expires_at: rfc3339(credential.refreshExpiresAt) ?? null,
    refreshable,
    ...(usable ? {} : { reason }),
  };
}

function stateOf(credential: Credential, now: number): StatusState {
  if (credential.state) {
    return credential.state === "refresh_expired" ? "expired" : credential.state;
  }
  if (credential.expiresAt === undefined || now < credential.expiresAt - REFRESH_BUFFER_MS) {
    return "valid";
  }
  return now < credential.expiresAt ? "needs_refresh" : "expired";
}

/**
 * The bot identity's state: whether a tenant token can be had, from `HARK_TENANT_ACCESS_TOKEN`
 * or the app credentials (which asks the service for one). A bad configuration is not a state:
 * it is thrown.
 *
 * @param ctx the context
 * @param options the profile and its config
 * @throws {ValidationError} when the configuration is wrong
 */
export async function botStatus(ctx: Context, options: AuthStatusOptions): Promise<AuthStatus> {
  const base: AuthStatus = {
    profile: options.profile,
    state: "signed_out",
    usable: false,
    identity: "bot",
    source: null,
    user: null,
    scopes: null,
    expires_at: null,
    refresh_expires_at: null,
    refreshable: false,
  };
  try {
    const token = await createTokenSource(ctx, { ...options, identity: "bot" }).getToken();
    return {
      ...base,
      state: "valid",
      usable: true,
      source: token.source,
      expires_at: rfc3339(token.expiresAt) ?? null,
    };
  } catch (error) {
    if (error instanceof ValidationError || !(error instanceof HarkError)) throw error;
    return { ...base, reason: error.message };
  }
}

/**
 * The error `auth status` ends with when the profile is not usable (exit 3).
 *
 * @param status the report
 */
export function unusableError(status: AuthStatus): AuthError {
  const flag = status.profile === "default" ? "" : ` --profile ${status.profile}`;
  if (status.identity === "bot") {
    return new AuthError(
      `No bot token for profile "${status.profile}"${status.reason ? ` (${status.reason})` : ""}`,
      {
        suggestion: "Check the app credentials, or set HARK_TENANT_ACCESS_TOKEN in CI",
        command: `hark config get apps.${status.profile}`,
      },
    );
  }
  const signedOut = status.state === "signed_out";
  const base = signedOut
    ? `Not signed in to profile "${status.profile}"`
    : `Session expired for profile "${status.profile}": sign in again`;
  // The reason says what actually failed (a locked keychain, a failing credential command).
  const message = status.reason && !status.reason.startsWith(base.split(":")[0])
    ? `${base} (${status.reason})`
    : base;
  return new AuthError(message, {
    suggestion: signedOut ? "Sign in, or set HARK_USER_ACCESS_TOKEN in CI" : "Sign in again",
    command: `hark auth login${flag}`,
  });
}

/** The result of {@link checkScopes}. */
export interface ScopeCheck {
  /** The profile. */
  profile: string;
  /** The scopes asked for. */
  requested: string[];
  /** The scopes the token carries. */
  granted: string[];
  /** The asked-for scopes it lacks; empty on success. */
  missing: string[];
}

/**
 * Compares the granted scopes with the ones asked for.
 *
 * @param status the profile's status
 * @param requested the scopes asked for
 * @param alternatives scopes accepted instead of a requested one, by the requested one
 * @returns the comparison, when every scope is granted
 * @throws {AuthError} when the profile is not usable
 * @throws {ValidationError} when the token's scopes are unknown (an environment token)
 * @throws {PermissionError} listing the missing scopes, with `hark auth login --scope …`
 */
export function checkScopes(
  status: AuthStatus,
  requested: string[],
  alternatives: Readonly<Record<string, readonly string[]>> = {},
): ScopeCheck {
  if (!status.usable) throw unusableError(status);
  const granted = status.scopes;
  if (granted === null) {
    throw new ValidationError(
      `Cannot check scopes: the token from the "${status.source}" source does not say which scopes it carries`,
      { param: "--scope", suggestion: "Sign in with hark auth login to check scopes" },
    );
  }
  const missing = requested.filter((s) => !scopeGranted(granted, s, alternatives));
  if (missing.length > 0) {
    throw new PermissionError(
      `Profile "${status.profile}" lacks ${missing.length === 1 ? "the scope" : "the scopes"} ${
        missing.map((s) => `"${s}"`).join(", ")
      }`,
      {
        scopes: missing,
        command: loginCommand(missing, status.profile),
      },
    );
  }
  return { profile: status.profile, requested, granted, missing: [] };
}
