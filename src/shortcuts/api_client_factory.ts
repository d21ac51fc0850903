/**
 * The real {@link ClientFactory}: the credential chain's token source and the shared
 * {@link ApiClient}.
 *
 * @module
 */

import { createTokenSource } from "../auth/create_token_source.ts";
import type { Identity } from "../cli/globals.ts";
import { serviceBaseUrl, type Session } from "../cli/session.ts";
import { ApiClient } from "../http/mod.ts";
import type { ApiCaller } from "./definition.ts";

/**
 * Resolves the token of `identity` (step 7 of the lifecycle, so a missing sign-in fails before
 * any request is built) and returns the shared client calling with it.
 *
 * @param session the session
 * @param identity the identity to act as
 * @throws {AuthError} when no usable token can be found
 */
export async function apiClientFactory(session: Session, identity: Identity): Promise<ApiCaller> {
  const { ctx, config, profile, configPath } = session;
  const tokens = createTokenSource(ctx, { config, profile, configPath, identity });
  await tokens.getToken();
  return new ApiClient(ctx, {
    baseUrl: serviceBaseUrl(session),
    tokens,
    debug: session.globals.debug,
  });
}
