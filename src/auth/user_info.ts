/**
 * User info: who signed in, read with the new user access token.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { objectField, stringField } from "../json/fields.ts";
import { oauthFailure, sendRequest } from "./oauth_client.ts";

/** Path of the user info endpoint, under `base_url`. */
export const USER_INFO_PATH = "/open-apis/authen/v1/user_info";

/** The signed-in person, from user info. */
export interface UserInfo {
  /** The open id. */
  open_id?: string;
  /** The display name. */
  name?: string;
  /** The email. */
  email?: string;
}

/**
 * Fetches the signed-in user's info with a user access token.
 *
 * @param ctx the context
 * @param base the service address
 * @param accessToken the user access token
 * @throws {ApiError} when the service refuses
 * @throws {NetworkError} when it cannot be reached
 */
export async function fetchUserInfo(
  ctx: Context,
  base: string,
  accessToken: string,
): Promise<UserInfo> {
  const url = base + USER_INFO_PATH;
  const answer = await sendRequest(ctx, url, {
    method: "GET",
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
  });
  const body = answer.json;
  const data = objectField(body, "data");
  if (answer.status === 200 && body?.code === 0 && data) {
    const pick = (key: string) => stringField(data, key);
    return { open_id: pick("open_id"), name: pick("name"), email: pick("email") };
  }
  throw oauthFailure("Cannot read the signed-in user", url, answer);
}
