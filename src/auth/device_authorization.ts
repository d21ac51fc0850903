/**
 * Device authorization (RFC 8628 §3.1): the first call of a sign-in, which gets the codes the
 * person types and hark polls with.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { logIdNote, ValidationError } from "../errors/mod.ts";
import {
  type AppCredentials,
  basicAuthorization,
  firstText,
  formRequest,
  oauthFailure,
  sendRequest,
} from "./oauth_client.ts";

/** The device authorization answer (RFC 8628 §3.2). */
export interface DeviceAuthorization {
  /** The code hark polls with. */
  device_code: string;
  /** The code the person types. */
  user_code: string;
  /** Where the person goes. */
  verification_uri: string;
  /** The same page with the code filled in, when given. */
  verification_uri_complete?: string;
  /** Lifetime of the codes, in seconds. */
  expires_in?: number;
  /** The minimum poll interval, in seconds. */
  interval?: number;
}

/**
 * Starts a device authorization: client credentials in Basic, `offline_access` always added.
 *
 * @param ctx the context
 * @param url the device authorization URL
 * @param credentials the app credentials
 * @param scopes the scopes to ask for
 * @throws {AuthError} when the server refuses the app (wrong credentials)
 * @throws {ApiError} for any other refusal
 * @throws {NetworkError} when the server cannot be reached
 */
export async function requestDeviceAuthorization(
  ctx: Context,
  url: string,
  credentials: AppCredentials,
  scopes: string[],
): Promise<DeviceAuthorization> {
  const scope = [...new Set([...scopes, "offline_access"])].join(" ");
  const answer = await sendRequest(
    ctx,
    url,
    formRequest({ client_id: credentials.appId, scope }, {
      authorization: basicAuthorization(credentials),
    }),
  );
  const body = answer.json;
  if (
    answer.status === 200 && body && typeof body.device_code === "string" &&
    typeof body.user_code === "string" && typeof body.verification_uri === "string"
  ) {
    return {
      device_code: body.device_code,
      user_code: body.user_code,
      verification_uri: body.verification_uri,
      verification_uri_complete: typeof body.verification_uri_complete === "string"
        ? body.verification_uri_complete
        : undefined,
      expires_in: typeof body.expires_in === "number" ? body.expires_in : undefined,
      interval: typeof body.interval === "number" ? body.interval : undefined,
    };
  }
  if (firstText(body, "error") === "invalid_scope") {
    // Lark refuses the whole list without saying which name it does not know.
    const asked = scope.split(" ").filter((s) => s !== "offline_access");
    throw new ValidationError(
      `Cannot start the sign-in: the service knows no scope named one of ` +
        `${asked.map((s) => `"${s}"`).join(", ")}${logIdNote(answer.requestId)}`,
      {
        param: "--scope",
        suggestion: "Check each --scope against the scopes hark schema lists for the shortcuts " +
          "(or the developer console); without --scope, hark asks for what its shortcuts need",
        command: "hark auth login",
        requestId: answer.requestId,
      },
    );
  }
  throw oauthFailure("Cannot start the sign-in", url, answer);
}
