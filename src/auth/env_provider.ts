/**
 * The `env` credential provider: `HARK_USER_ACCESS_TOKEN` for the user,
 * `HARK_TENANT_ACCESS_TOKEN` for the bot. (`HARK_APP_ID` / `HARK_APP_SECRET` are read by
 * {@link resolveAppCredentials}.) An environment token goes only to `HARK_BASE_URL` (Lark's
 * public service when it is unset): a config file never redirects it.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { BASE_URL_VAR } from "../config/mod.ts";
import { environmentTokenOrigin, serviceOf } from "./token_origin.ts";
import { isTokenText } from "./token_source.ts";
import {
  type Account,
  type Credential,
  type CredentialProvider,
  CredentialProviderError,
  type TokenSpec,
} from "./credential_provider.ts";

/** The variable holding a user access token. */
export const USER_TOKEN_VAR = "HARK_USER_ACCESS_TOKEN";
/** The variable holding a tenant access token. */
export const TENANT_TOKEN_VAR = "HARK_TENANT_ACCESS_TOKEN";

/** Provides tokens injected through the environment, for CI. */
export class EnvProvider implements CredentialProvider {
  /** The provider's name. */
  readonly name = "env" as const;
  readonly #ctx: Context;

  /** @param ctx the context whose environment is read */
  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  /** {@inheritDoc CredentialProvider.resolveAccount} */
  resolveAccount(spec: TokenSpec): Promise<Account | undefined> {
    if (!this.#token(spec)) return Promise.resolve(undefined);
    return Promise.resolve({ profile: spec.profile, identity: spec.identity, source: "env" });
  }

  /**
   * {@inheritDoc CredentialProvider.resolveToken}
   *
   * @throws {CredentialProviderError} (blocking) when asked to replace the variable's token
   * after the service rejected it: it cannot be refreshed, and falling back to another identity
   * would be a surprise
   */
  resolveToken(spec: TokenSpec): Promise<Credential | undefined> {
    const token = this.#token(spec);
    if (!token) return Promise.resolve(undefined);
    const variable = spec.identity === "user" ? USER_TOKEN_VAR : TENANT_TOKEN_VAR;
    const refresh = spec.refresh;
    if (typeof refresh === "object" && refresh.rejected === token) {
      return Promise.reject(
        new CredentialProviderError(
          "env",
          `The token in ${variable} was rejected as invalid or expired`,
          {
            blocking: true,
            suggestion: `Put a fresh token in ${variable}, or unset it and sign in`,
            command: "hark auth login",
          },
        ),
      );
    }
    if (!isTokenText(token)) {
      return Promise.reject(
        new CredentialProviderError(
          "env",
          `The token in ${variable} holds spaces, line breaks, control or non-ASCII characters, ` +
            "which no token has",
          {
            blocking: true,
            suggestion: `Put the token alone in ${variable}, without quotes or line breaks`,
            command: "",
          },
        ),
      );
    }
    const origin = environmentTokenOrigin(this.#ctx);
    let service;
    try {
      service = serviceOf(this.#ctx, spec);
    } catch (error) {
      return Promise.reject(error);
    }
    if (service.origin !== origin) {
      return Promise.reject(
        new CredentialProviderError(
          "env",
          `Cannot send the token in ${variable} to "${service.origin}" (${service.source}): an ` +
            `environment token goes only to ${BASE_URL_VAR}, which is ${
              this.#ctx.env.get(BASE_URL_VAR)?.trim() ? `"${origin}"` : `not set ("${origin}")`
            }`,
          {
            blocking: true,
            suggestion: `Set ${BASE_URL_VAR} to the service the token is for, such as ` +
              `${BASE_URL_VAR}=${service.baseUrl}`,
            command: "",
          },
        ),
      );
    }
    return Promise.resolve({ token, identity: spec.identity, source: "env", origin });
  }

  #token(spec: TokenSpec): string | undefined {
    const value = this.#ctx.env.get(spec.identity === "user" ? USER_TOKEN_VAR : TENANT_TOKEN_VAR);
    return value ? value.trim() || undefined : undefined;
  }
}
