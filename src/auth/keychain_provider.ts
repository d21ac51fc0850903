/**
 * The default credential provider, last in the chain: the user's token record from the
 * keychain (refreshed per the token states), or for the bot a tenant token from the app
 * credentials. The refresh and the tenant token's code (the token endpoint, the app's
 * credentials) load when first needed: a valid stored token, the usual case, needs neither.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type Account,
  type Credential,
  type CredentialProvider,
  type TokenSpec,
} from "./credential_provider.ts";
import {
  canRefresh,
  readTokenRecord,
  sessionExpired,
  tokenPathOf,
  type TokenRecord,
  tokenState,
} from "./token_record.ts";
import { serviceOf, signedInElsewhere } from "./token_origin.ts";

/** Provides the signed-in user's stored token, and the bot's tenant token. */
export class KeychainProvider implements CredentialProvider {
  /** The provider's name. */
  readonly name = "keychain" as const;
  readonly #ctx: Context;

  /** @param ctx the context */
  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  /** {@inheritDoc CredentialProvider.resolveAccount} */
  resolveAccount(spec: TokenSpec): Promise<Account | undefined> {
    if (spec.identity === "bot") {
      return Promise.resolve({ profile: spec.profile, identity: "bot", source: "app_credentials" });
    }
    const user = spec.config.users?.[spec.profile];
    if (!user) return Promise.resolve(undefined);
    return Promise.resolve({
      profile: spec.profile,
      identity: "user",
      source: "keychain",
      openId: user.open_id,
      name: user.name,
      email: user.email,
    });
  }

  /**
   * {@inheritDoc CredentialProvider.resolveToken}
   *
   * With refresh `auto`: `valid` is used, `needs_refresh` and `expired` refresh first, a dead
   * refresh token is an {@link AuthError}. With `never` the stored token is returned as it is,
   * with its state. After a rejection, the rejected token is refreshed unless another caller
   * already replaced it.
   */
  async resolveToken(spec: TokenSpec): Promise<Credential | undefined> {
    const ctx = this.#ctx;
    if (spec.identity === "bot") {
      const rejected = typeof spec.refresh === "object" ? spec.refresh.rejected : undefined;
      const { getTenantToken } = await import("./tenant_token.ts");
      const tenant = await getTenantToken(ctx, { ...spec, rejected });
      return {
        token: tenant.token,
        identity: "bot",
        source: "app_credentials",
        expiresAt: tenant.expiresAt,
        origin: tenant.origin,
      };
    }
    const path = tokenPathOf(ctx, spec);
    const record = path === undefined ? undefined : await readTokenRecord(ctx.keychain, path);
    if (!record) return undefined;
    // A token issued by another service than the profile's current one is never sent.
    const service = serviceOf(ctx, spec);
    if (record.origin !== undefined && record.origin !== service.origin) {
      throw signedInElsewhere(spec.profile, record.origin, service);
    }
    const origin = record.origin ?? service.origin;
    const refresh = spec.refresh ?? "auto";
    if (refresh === "never") return credentialOf(record, ctx.now(), origin);
    const state = tokenState(record, ctx.now());
    if (refresh === "auto" && state === "valid") return credentialOf(record, ctx.now(), origin);
    if (state === "refresh_expired" || state === "needs_login") throw sessionExpired(spec.profile);
    const rejected = typeof refresh === "object" ? refresh.rejected : undefined;
    // Under the lock, a token another caller or process replaced meanwhile is used as it is,
    // unless it is already dead: the same refresh token is never spent twice.
    const { refreshUserToken } = await import("./refresh_user_token.ts");
    const fresh = await refreshUserToken(
      ctx,
      spec,
      (stored) =>
        stored.access_token === record.access_token ||
        stored.access_token === rejected ||
        ctx.now() >= stored.expires_at,
    );
    return credentialOf(fresh, ctx.now(), fresh.origin ?? origin);
  }
}

function credentialOf(record: TokenRecord, now: number, origin: string): Credential {
  return {
    origin,
    token: record.access_token,
    identity: "user",
    source: "keychain",
    expiresAt: record.expires_at,
    refreshExpiresAt: record.refresh_expires_at,
    scopes: record.scopes,
    refreshable: canRefresh(record, now),
    state: tokenState(record, now),
  };
}
