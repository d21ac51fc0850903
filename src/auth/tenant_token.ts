/**
 * The bot identity's tenant token: fetched from the app credentials and kept for its lifetime,
 * in memory and in the keychain at `hark/<profile>/tenant_token` with its expiry.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Config } from "../config/mod.ts";
import { keychainPath } from "../keychain/keychain.ts";
import { appOf, resolveAppCredentials } from "./app_credentials.ts";
import { endpointsOf, fetchTenantToken, type TenantToken } from "./oauth_client.ts";
import { REFRESH_BUFFER_MS } from "./token_record.ts";

const memory = new WeakMap<Context, Map<string, TenantToken & { appId: string }>>();

/** Options of {@link getTenantToken}. */
export interface TenantTokenOptions {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** A token the service rejected: never returned again, a new one is fetched. */
  rejected?: string;
}

/**
 * The keychain path of a profile's cached tenant token.
 *
 * @param profile the profile
 */
export function tenantTokenPath(profile: string): string {
  return keychainPath(profile, "tenant_token");
}

/**
 * A tenant token for the profile's app: the cached one while it has more than 5 minutes left,
 * else a new one (then cached). The keychain cache is best effort: a keychain that cannot be
 * used does not stop the bot.
 *
 * @param ctx the context
 * @param options profile, config and a rejected token
 * @throws {ValidationError} when no app is configured
 * @throws {AuthError} when the service refuses the app credentials
 */
export async function getTenantToken(
  ctx: Context,
  options: TenantTokenOptions,
): Promise<TenantToken> {
  const { config, profile, rejected } = options;
  const credentials = await resolveAppCredentials(ctx, config, profile);
  let cache = memory.get(ctx);
  if (!cache) memory.set(ctx, cache = new Map());
  const usable = (t: (TenantToken & { appId: string }) | undefined) =>
    t !== undefined && t.appId === credentials.appId && t.token !== rejected &&
    ctx.now() < t.expiresAt - REFRESH_BUFFER_MS;
  const inMemory = cache.get(profile);
  if (usable(inMemory)) return inMemory!;
  const path = tenantTokenPath(profile);
  const stored = await readCached(ctx, path);
  if (usable(stored)) {
    cache.set(profile, stored!);
    return stored!;
  }
  const fresh = await fetchTenantToken(
    ctx,
    endpointsOf(appOf(config, profile)).baseUrl,
    credentials,
  );
  const entry = { ...fresh, appId: credentials.appId };
  cache.set(profile, entry);
  try {
    await ctx.keychain.set(
      path,
      JSON.stringify({
        token: fresh.token,
        expires_at: fresh.expiresAt,
        app_id: credentials.appId,
      }),
    );
  } catch {
    // Best effort: the token still works for this process.
  }
  return entry;
}

async function readCached(
  ctx: Context,
  path: string,
): Promise<(TenantToken & { appId: string }) | undefined> {
  try {
    const text = await ctx.keychain.get(path);
    if (text === undefined) return undefined;
    const value = JSON.parse(text);
    if (typeof value?.token !== "string" || typeof value?.expires_at !== "number") return undefined;
    return { token: value.token, expiresAt: value.expires_at, appId: String(value.app_id ?? "") };
  } catch {
    return undefined;
  }
}
