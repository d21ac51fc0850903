/**
 * The bot identity's tenant token: fetched from the app credentials and kept for its lifetime,
 * in memory and in the keychain at `hark/[<namespace>/]<profile>/tenant_token` with its expiry,
 * its app and the service that issued it (a cached token is used only with the same app and
 * service).
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type Config, ownedNamespace } from "../config/mod.ts";
import { numberField, stringField } from "../json/fields.ts";
import { keychainPath } from "../keychain/keychain.ts";
import { appOf, resolveAppCredentials } from "./app_credentials.ts";
import { ApiError, AuthError, logIdNote, serviceMsg } from "../errors/mod.ts";
import {
  type AppCredentials,
  endpointsOf,
  numberOf,
  RATE_LIMITED,
  sendRequest,
} from "./oauth_client.ts";
import { REFRESH_BUFFER_MS } from "./token_record.ts";
import { serviceOf } from "./token_origin.ts";

/** Path of the tenant token endpoint, under `base_url`. */
export const TENANT_TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

/** A tenant token with the app and the service it belongs to. */
type CachedTenantToken = TenantToken & { appId: string; origin: string };

const memory = new WeakMap<Context, Map<string, CachedTenantToken>>();

/** Options of {@link getTenantToken}. */
export interface TenantTokenOptions {
  /** The loaded config. */
  config: Config;
  /** The profile. */
  profile: string;
  /** The config file's path: whether it owns keychain entries of its own. */
  configPath: string;
  /** A token the service rejected: never returned again, a new one is fetched. */
  rejected?: string;
  /** `--allow-insecure-http`: plain HTTP to hosts other than this machine. */
  allowInsecureHttp?: boolean;
}

/**
 * The keychain path of a profile's cached tenant token.
 *
 * @param profile the profile
 * @param namespace the config's keychain namespace, when it has one
 */
export function tenantTokenPath(profile: string, namespace?: string): string {
  return keychainPath(profile, "tenant_token", namespace);
}

/**
 * A tenant token for the profile's app: the cached one while it has more than 5 minutes left,
 * else a new one (then cached). The keychain cache is best effort: a keychain that cannot be
 * used does not stop the bot. A config at another path that has no keychain namespace yet owns
 * no keychain entry (the default config's are at `hark/<profile>/…`): it caches in memory only.
 *
 * @param ctx the context
 * @param options profile, config, a rejected token and `--allow-insecure-http`
 * @throws {ValidationError} when no app is configured
 * @throws {AuthError} when the service refuses the app credentials
 */
export async function getTenantToken(
  ctx: Context,
  options: TenantTokenOptions,
): Promise<CachedTenantToken> {
  const { config, profile, rejected } = options;
  const service = serviceOf(ctx, options);
  const base = endpointsOf(service, appOf(config, profile)).baseUrl;
  const credentials = await resolveAppCredentials(ctx, options, service, base + TENANT_TOKEN_PATH);
  let cache = memory.get(ctx);
  if (!cache) memory.set(ctx, cache = new Map());
  const usable = (t: CachedTenantToken | undefined): t is CachedTenantToken =>
    t !== undefined && t.appId === credentials.appId && t.origin === service.origin &&
    t.token !== rejected && ctx.now() < t.expiresAt - REFRESH_BUFFER_MS;
  const owned = ownedNamespace(ctx, config, options.configPath);
  const path = owned ? tenantTokenPath(profile, owned.namespace) : undefined;
  const key = path ?? `${options.configPath}\u0000${profile}`;
  const inMemory = cache.get(key);
  if (usable(inMemory)) return inMemory;
  const stored = path === undefined ? undefined : await readCached(ctx, path);
  if (usable(stored)) {
    cache.set(key, stored);
    return stored;
  }
  const fresh = await fetchTenantToken(ctx, base, credentials);
  const entry = { ...fresh, appId: credentials.appId, origin: service.origin };
  cache.set(key, entry);
  if (path === undefined) return entry;
  try {
    await ctx.keychain.set(
      path,
      JSON.stringify({
        token: fresh.token,
        expires_at: fresh.expiresAt,
        app_id: credentials.appId,
        origin: service.origin,
      }),
    );
  } catch {
    // Best effort: the token still works for this process.
  }
  return entry;
}

async function readCached(ctx: Context, path: string): Promise<CachedTenantToken | undefined> {
  try {
    const text = await ctx.keychain.get(path);
    if (text === undefined) return undefined;
    const value: unknown = JSON.parse(text);
    const token = stringField(value, "token");
    const expiresAt = numberField(value, "expires_at");
    if (token === undefined || expiresAt === undefined) return undefined;
    return {
      token,
      expiresAt,
      appId: stringField(value, "app_id") ?? "",
      // A token cached before hark recorded its service is not used: it is fetched again.
      origin: stringField(value, "origin") ?? "",
    };
  } catch {
    return undefined;
  }
}

/** A tenant (bot) token with its expiry. */
export interface TenantToken {
  /** The bearer credential. */
  token: string;
  /** When it expires, epoch ms. */
  expiresAt: number;
}

/**
 * Gets a tenant token from the app credentials.
 *
 * @param ctx the context
 * @param base the service address
 * @param credentials the app credentials
 * @throws {AuthError} when the service refuses the credentials
 * @throws {NetworkError} when it cannot be reached
 */
export async function fetchTenantToken(
  ctx: Context,
  base: string,
  credentials: AppCredentials,
): Promise<TenantToken> {
  const url = base + TENANT_TOKEN_PATH;
  const answer = await sendRequest(ctx, url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ app_id: credentials.appId, app_secret: credentials.appSecret }),
  });
  const body = answer.json;
  if (body?.code === 0 && typeof body.tenant_access_token === "string") {
    const expire = numberOf(body.expire) ?? 7200;
    return { token: body.tenant_access_token, expiresAt: ctx.now() + expire * 1000 };
  }
  const code = typeof body?.code === "number" ? body.code : undefined;
  const msg = serviceMsg(body?.msg);
  const detail = `${msg ? `: ${msg}` : ""}${logIdNote(answer.requestId)}`;
  const facts = { httpStatus: answer.status, apiCode: code, requestId: answer.requestId };
  if (answer.status === 429 || code === RATE_LIMITED) {
    throw new ApiError(`Cannot get a tenant token: rate limited (HTTP ${answer.status})${detail}`, {
      ...facts,
      type: "rate_limit",
      suggestion: "Wait a moment and retry",
    });
  }
  if (answer.status >= 500) {
    throw new ApiError(`Cannot get a tenant token: HTTP ${answer.status} from "${url}"${detail}`, {
      ...facts,
      type: "server_error",
      suggestion: "Retry later",
    });
  }
  if (body === undefined) {
    throw new ApiError(
      `Cannot get a tenant token: the answer of "${url}" is not JSON (HTTP ${answer.status})`,
      { ...facts, type: "invalid_response", suggestion: "Check the base URL, then retry" },
    );
  }
  throw new AuthError(`Cannot get a tenant token (code ${String(body.code)})${detail}`, {
    requestId: answer.requestId,
    suggestion: "Check the app id and secret of this profile",
    command: "hark config init --force",
  });
}
