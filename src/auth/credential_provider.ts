/**
 * The credential provider chain (SPEC "Authentication" 7): providers are tried in registration
 * order, extension providers first and the keychain provider last. A provider that returns
 * nothing is skipped; an ordinary error lets the next one try; a blocking error stops the chain;
 * the first valid credential wins.
 *
 * @module
 */

import type { Config } from "../config/mod.ts";
import { AuthError, HarkError } from "../errors/mod.ts";
import { ExitCode } from "../errors/exit_code.ts";
import type { ResolvedToken, TokenOrigin } from "./token_source.ts";
import type { TokenState } from "./token_record.ts";
import type { Identity } from "./identity.ts";

/** How a provider may refresh: as needed, never (report only), or after a rejection. */
export type RefreshMode = "auto" | "never" | { rejected: string };

/** What a token is asked for. */
export interface TokenSpec {
  /** The identity to act as. */
  identity: Identity;
  /** The profile. */
  profile: string;
  /** The loaded config. */
  config: Config;
  /** The config file's path (lock files live beside it). */
  configPath: string;
  /** Whether and why to refresh; default `auto`. */
  refresh?: RefreshMode;
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/** The account record a provider resolves: who the credential acts as. */
export interface Account {
  /** The profile. */
  profile: string;
  /** The identity. */
  identity: Identity;
  /** The provider that knows the account. */
  source: TokenOrigin;
  /** The user's open id, when known. */
  openId?: string;
  /** The user's name, when known. */
  name?: string;
  /** The user's email, when known. */
  email?: string;
}

/** A token with what `auth status` reports about it. */
export interface Credential extends ResolvedToken {
  /** When the refresh token expires, epoch ms, when known. */
  refreshExpiresAt?: number;
  /** Whether a refresh token is held. */
  refreshable?: boolean;
  /** The state of a stored token (keychain provider only). */
  state?: TokenState;
}

/**
 * The profile's `credential_command` setting as it stands (checked by the command provider), or
 * `undefined` when the user's token does not come from a program (no setting, or the bot).
 */
export function credentialCommandOf(spec: TokenSpec): unknown {
  if (spec.identity !== "user") return undefined;
  return spec.config.apps?.[spec.profile]?.credential_command;
}

/** A source of credentials. */
export interface CredentialProvider {
  /** The provider's name: `env`, `command`, `keychain`. */
  readonly name: TokenOrigin;
  /**
   * The account this provider would act as, or `undefined` when it has none.
   *
   * @throws {HarkError} an ordinary or blocking {@link CredentialProviderError}
   */
  resolveAccount(spec: TokenSpec): Promise<Account | undefined>;
  /**
   * A token for `spec`, or `undefined` when this provider has none (the chain goes on).
   *
   * @throws {HarkError} an ordinary error (the chain goes on) or a blocking
   * {@link CredentialProviderError} (the chain stops)
   */
  resolveToken(spec: TokenSpec): Promise<Credential | undefined>;
}

/** An error of a credential provider; `blocking` stops the chain. */
export class CredentialProviderError extends HarkError {
  /** Whether the chain stops at this error. */
  readonly blocking: boolean;
  /** The provider that failed. */
  readonly provider: string;

  /**
   * @param provider the provider's name
   * @param message what failed
   * @param options `blocking` stops the chain; recovery overrides and the cause
   */
  constructor(
    provider: string,
    message: string,
    options: { blocking: boolean; suggestion?: string; command?: string; cause?: unknown },
  ) {
    super(
      ExitCode.Auth,
      "auth",
      message,
      {
        suggestion: options.suggestion ?? "Fix the credential source, or sign in again",
        command: options.command ?? "hark auth login",
      },
      options.cause,
    );
    this.name = "CredentialProviderError";
    this.blocking = options.blocking;
    this.provider = provider;
  }
}

/**
 * Whether an error stops the chain.
 *
 * @param error what a provider threw
 */
export function isBlocking(error: unknown): boolean {
  return error instanceof CredentialProviderError && error.blocking;
}

/** The winner of a chain run. */
export interface ChainResult<T> {
  /** The value. */
  value: T;
  /** The provider that gave it. */
  provider: CredentialProvider;
}

/**
 * Runs `step` on each provider in order and returns the first value. When no provider has one,
 * throws the first ordinary error, or else the result of `none()`.
 *
 * @param providers the providers, in registration order
 * @param step what to ask each provider
 * @param none the error when every provider was skipped
 * @throws the blocking error that stopped the chain, the first ordinary error, or `none()`
 */
export async function runChain<T>(
  providers: readonly CredentialProvider[],
  step: (provider: CredentialProvider) => Promise<T | undefined>,
  none: () => Error,
): Promise<ChainResult<T>> {
  let firstError: unknown;
  for (const provider of providers) {
    try {
      const value = await step(provider);
      if (value !== undefined) return { value, provider };
    } catch (error) {
      if (isBlocking(error) || !(error instanceof HarkError)) throw error;
      firstError ??= error;
    }
  }
  throw firstError ?? none();
}

/**
 * Resolves a token through the chain.
 *
 * @param providers the providers, in registration order
 * @param spec what is asked for
 * @throws {AuthError} "Not signed in" when every provider was skipped; else the chain's error
 */
export async function resolveToken(
  providers: readonly CredentialProvider[],
  spec: TokenSpec,
): Promise<ChainResult<Credential>> {
  return await runChain(providers, (p) => p.resolveToken(spec), () => notSignedIn(spec.profile));
}

/**
 * The error for a profile with no credential anywhere.
 *
 * @param profile the profile
 */
export function notSignedIn(profile: string): AuthError {
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  return new AuthError(`Not signed in to profile "${profile}"`, {
    suggestion: "Sign in, or set HARK_USER_ACCESS_TOKEN in CI",
    command: `hark auth login${flag}`,
  });
}
