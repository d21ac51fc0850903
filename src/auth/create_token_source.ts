/**
 * The {@link TokenSource} business calls use: the provider chain (`env`, `command`, then the
 * keychain), with the winning token kept in memory while it stays valid, and, for a user's
 * stored sign-in, only while that sign-in is still stored.
 *
 * The command provider loads only for a profile that names a `credential_command`, and the
 * keychain provider's refresh, tenant token and OAuth calls only when a token must be fetched:
 * a call with an environment token loads none of that. The keychain provider itself is small and
 * imported with this module, so that a stored sign-in's first call does not wait for one more
 * file to load.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type Config, loadConfig } from "../config/mod.ts";
import {
  type Credential,
  credentialCommandOf,
  type CredentialProvider,
  resolveToken,
  type TokenSpec,
} from "./credential_provider.ts";
import { EnvProvider } from "./env_provider.ts";
import { KeychainProvider } from "./keychain_provider.ts";
import { REFRESH_BUFFER_MS } from "./token_record.ts";
import type { ResolvedToken, TokenOrigin, TokenSource } from "./token_source.ts";
import type { Identity } from "./identity.ts";

/**
 * How long after a stored sign-in's token was read its first use needs no second look at the
 * sign-in, in ms: a command's check that it is signed in and its request, with room. A sign-out
 * elsewhere in between is seen one call late, as with a read ahead (`ReadsAhead` in
 * `src/keychain/keychain.ts`). So a caller that keeps a token source across calls (`hark mcp`)
 * looks at the sign-in before each call's request, as a shortcut's `connect()` does: the first
 * use is then always that look.
 */
export const FIRST_USE_MS = 1_000;

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
 * first, the keychain provider last. The command provider's code loads on its first use.
 *
 * @param ctx the context
 */
export function defaultProviders(ctx: Context): CredentialProvider[] {
  return [
    new EnvProvider(ctx),
    loadedOnUse(
      "command",
      async () => new (await import("./command_provider.ts")).CommandProvider(ctx),
      (spec) => credentialCommandOf(spec) !== undefined,
    ),
    new KeychainProvider(ctx),
  ];
}

/**
 * A provider whose module is imported when it is first asked for an account or a token.
 *
 * @param name the provider's name
 * @param load imports the module and makes the provider
 * @param applies whether the provider can have anything for a spec; when not, it answers
 *   `undefined` without loading (default: always load)
 */
export function loadedOnUse(
  name: TokenOrigin,
  load: () => Promise<CredentialProvider>,
  applies: (spec: TokenSpec) => boolean = () => true,
): CredentialProvider {
  let loaded: Promise<CredentialProvider> | undefined;
  const provider = () => loaded ??= load();
  return {
    name,
    resolveAccount: async (spec) =>
      applies(spec) ? await (await provider()).resolveAccount(spec) : undefined,
    resolveToken: async (spec) =>
      applies(spec) ? await (await provider()).resolveToken(spec) : undefined,
  };
}

/**
 * The mark of a profile's stored sign-in: its `users.<profile>` entry in the config file, as
 * text, or `undefined` when there is none. `auth logout` removes it, `auth login` writes it
 * afresh and a refresh rewrites its expiry: any of them changes the mark. Reading it is one
 * small file read, cheap enough for every call.
 *
 * @param ctx the context
 * @param configPath the config file
 * @param profile the profile
 * @throws {ValidationError} when the config file cannot be read or parsed
 */
export async function signInMark(
  ctx: Context,
  configPath: string,
  profile: string,
): Promise<string | undefined> {
  return configMark(await loadConfig(ctx, configPath), profile);
}

/** The {@link signInMark} of a config already loaded. */
function configMark(config: Config, profile: string): string | undefined {
  const user = config.users?.[profile];
  return user === undefined ? undefined : JSON.stringify(user);
}

/**
 * Creates a token source. Cheap: nothing is resolved until the first `getToken()`.
 *
 * A user's token read from the keychain is used from memory only while the stored sign-in it
 * came from is still there: each `getToken()` compares the {@link signInMark} with the one
 * read before the token was; a sign-in that is gone or changed (`hark auth logout` or a new
 * `auth login` in another process, even while a long-running `hark mcp` holds the token) drops
 * it, and the token is resolved afresh: the new one, or the "Not signed in" error. So a sign-out
 * stops every running hark at its next call. One `getToken()` looks no further: the first after
 * the token was resolved, within {@link FIRST_USE_MS} (a command checks its sign-in, then makes
 * its request with the token just read; the mark was read right before it).
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
  /** When `current` was resolved, until its first use. */
  let unusedSince: number | undefined;
  /** The sign-in mark read before `current` was resolved. */
  let currentMark: string | undefined;
  let pending: Promise<Credential> | undefined;
  // A config that cannot be read right now (edited by hand) counts as a changed sign-in: the
  // token is then read from the keychain again, which needs no config.
  const markOf = () => signInMark(ctx, options.configPath, options.profile).catch(() => undefined);
  // The first keychain read's mark is the loaded config's: it was read before any keychain read
  // of this command, the token's read ahead included (`Keychain.prepare`), so a sign-in changed
  // since shows at the next call, as with a mark read just before; and it costs no file read.
  let firstMark: { mark: string | undefined } | undefined = {
    mark: configMark(options.config, options.profile),
  };
  const fromStoredSignIn = (credential: Credential) =>
    credential.source === "keychain" && credential.identity === "user";
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
      // The mark is read before the keychain is asked for the token (a sign-out in between then
      // shows as a change at the next call), and only then: a token from the environment or a
      // credential command is not a stored sign-in, and needs no config read.
      let mark: string | undefined;
      const chain = options.identity !== "user"
        ? providers
        : providers.map((p) =>
          p.name !== "keychain" ? p : {
            name: p.name,
            resolveAccount: (s: TokenSpec) => p.resolveAccount(s),
            resolveToken: async (s: TokenSpec) => {
              mark = firstMark !== undefined ? firstMark.mark : await markOf();
              firstMark = undefined;
              return await p.resolveToken(s);
            },
          }
        );
      const { value } = await resolveToken(chain, spec(refresh));
      current = value;
      currentMark = mark;
      unusedSince = ctx.now();
      return value;
    })().finally(() => (pending = undefined));
    return pending;
  };
  const fresh = (credential: Credential | undefined): credential is Credential =>
    credential !== undefined &&
    (credential.expiresAt === undefined || ctx.now() < credential.expiresAt - REFRESH_BUFFER_MS);
  /** Whether `credential` may still be used: not a stored sign-in, or one still stored. */
  const stillSignedIn = async (credential: Credential): Promise<boolean> => {
    if (!fromStoredSignIn(credential)) return true;
    // Its first use, just after it was read: the mark read before it stands (a clock set back
    // counts as late).
    const age = unusedSince === undefined ? undefined : ctx.now() - unusedSince;
    unusedSince = undefined;
    if (currentMark !== undefined && age !== undefined && age >= 0 && age <= FIRST_USE_MS) {
      return true;
    }
    const mark = await markOf();
    if (mark !== undefined && mark === currentMark) return true;
    if (current === credential) current = undefined;
    return false;
  };
  return {
    async getToken(): Promise<ResolvedToken> {
      const held = current;
      if (fresh(held) && await stillSignedIn(held)) return held;
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
