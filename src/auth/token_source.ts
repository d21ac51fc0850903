/**
 * What the credential chain hands out: a token with where it came from, and a source that the
 * HTTP layer's `BearerTokenSource` port is satisfied by (business calls get their bearer token
 * from it, and ask it for a fresh one after the service rejected one).
 *
 * @module
 */

import type { Identity } from "./identity.ts";

/** Where a token came from; `auth status` reports it. */
export type TokenOrigin = "keychain" | "env" | "command" | "app_credentials";

/** A bearer token ready to send. */
export interface ResolvedToken {
  /** The bearer credential. */
  token: string;
  /** The identity it acts as. */
  identity: Identity;
  /** Which provider supplied it. */
  source: TokenOrigin;
  /** When it expires, epoch ms, when known. */
  expiresAt?: number;
  /** The scopes it carries, when known. */
  scopes?: string[];
  /**
   * The origin the token may be sent to: the service that issued it (a stored sign-in), or the
   * one its source names (`HARK_BASE_URL` for an environment token). Business calls to any other
   * origin are refused before anything is sent.
   */
  origin?: string;
}

/** Supplies tokens to business calls. */
export interface TokenSource {
  /**
   * A usable token: refreshed first when it is within 5 minutes of expiry.
   *
   * @throws {AuthError} when there is none or it cannot be refreshed (sign in again)
   */
  getToken(): Promise<ResolvedToken>;
  /**
   * Called after the service rejected `rejected` (HTTP 401 or a token-invalid code): refreshes
   * once (single-flight; a caller whose token was already replaced gets the new one) and returns
   * the new token.
   *
   * @throws {AuthError} when the token cannot be refreshed (an environment token, say)
   */
  refreshAfterRejection(rejected: string): Promise<ResolvedToken>;
}

/**
 * Whether `token` can travel in an `Authorization` header as it is: printable ASCII without
 * spaces (a token never has others; a `\r\n` inside would otherwise fail as a lost connection).
 *
 * @param token the token, trimmed
 */
export function isTokenText(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}
