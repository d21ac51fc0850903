/**
 * The {@link TokenSource} business calls use: the provider chain (`env`, `command`, then the
 * keychain), with the winning token kept in memory while it stays valid.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Config } from "../config/mod.ts";
import { CommandProvider } from "./command_provider.ts";
import {
  type Credential,
  type CredentialProvider,
  resolveToken,
  type TokenSpec,
} from "./credential_provider.ts";
import { EnvProvider } from "./env_provider.ts";
import { KeychainProvider } from "./keychain_provider.ts";
import { REFRESH_BUFFER_MS } from "./token_record.ts";
import type { ResolvedToken, TokenSource } from "./token_source.ts";
import type { Identity } from "./identity.ts";

/** Options of {@link createTokenSource}. */
export interface TokenSourceOptions {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path. */
  configPath: string;
  /** The identity to act as. */
  identity: Identity;
  /** The providers, in order; default {@link defaultProviders}. */
  providers?: readonly CredentialProvider[];
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/**
 * The built-in providers in registration order: extension providers (`env`, then `command`)
 * first, the keychain provider last.
 *
 * @param ctx the context
 */
export function defaultProviders(ctx: Context): CredentialProvider[] {
  return [new EnvProvider(ctx), new CommandProvider(ctx), new KeychainProvider(ctx)];
}

/**
 * Creates a token source. Cheap: nothing is resolved until the first `getToken()`.
 *
 * @param ctx the context
 * @param options profile, config and identity
 * @example
 * ```ts
 * const source = createTokenSource(ctx, { config, profile, configPath, identity: "user" });
 * const { token } = await source.getToken();
 * ```
 */
export function createTokenSource(ctx: Context, options: TokenSourceOptions): TokenSource {
  let providers = options.providers;
  let current: Credential | undefined;
  let pending: Promise<Credential> | undefined;
  const spec = (refresh: TokenSpec["refresh"]): TokenSpec => ({
    identity: options.identity,
    profile: options.profile,
    config: options.config,
    configPath: options.configPath,
    refresh,
    allowInsecureHttp: options.allowInsecureHttp,
  });
  const resolve = (refresh: TokenSpec["refresh"]): Promise<Credential> => {
    pending ??= (async () => {
      providers ??= defaultProviders(ctx);
      const { value } = await resolveToken(providers, spec(refresh));
      current = value;
      return value;
    })().finally(() => (pending = undefined));
    return pending;
  };
  const fresh = (credential: Credential | undefined): credential is Credential =>
    credential !== undefined &&
    (credential.expiresAt === undefined || ctx.now() < credential.expiresAt - REFRESH_BUFFER_MS);
  return {
    async getToken(): Promise<ResolvedToken> {
      if (fresh(current)) return current;
      return await resolve("auto");
    },
    async refreshAfterRejection(rejected: string): Promise<ResolvedToken> {
      if (pending) await pending.catch(() => undefined);
      if (current && current.token !== rejected && fresh(current)) return current;
      current = undefined;
      return await resolve({ rejected });
    },
  };
}
