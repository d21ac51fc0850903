/**
 * What a business route of the sandbox is: its method and path, the scopes a caller needs, and
 * its handler; plus the start every handler shares once the token and scopes have passed
 * (`serveApi` checks those): reading the JSON body and the `user_id_type` query parameter. Each
 * area passes its own answer for a bad value, since calendar and IM word it differently.
 *
 * @module
 */

import type { TokenRecord } from "../oauth/auth_store.ts";
import { hasContentType, type Incoming, larkError, type SandboxContext } from "./context.ts";

/** Who is calling a route. */
export interface Caller {
  /** The token the call carried. */
  record: TokenRecord;
  /** The open_id of a user token, or `BOT_OWNER`. */
  owner: string;
}

/**
 * One way to be allowed a route: a scope, or several that are needed together (Lark's message
 * create as a user takes `im:message` and `im:message.send_as_user`, both).
 */
export type ScopeChoice = string | readonly string[];

/**
 * The scopes a route needs, per identity: any one of the listed choices grants access. Without a
 * `bot` list a tenant token cannot call the route at all (code 20027, as `userOnly`); without a
 * `user` list user tokens are not checked (unless the route is `tenantOnly`).
 */
export interface RouteScopes {
  /** What a user token may carry; any one choice suffices. */
  user?: readonly ScopeChoice[];
  /** What the app must have enabled for a tenant token; any one choice suffices. */
  bot?: readonly ScopeChoice[];
}

/** One business route. */
export interface Route {
  method: string;
  pattern: RegExp;
  /** The scopes the route needs. */
  scopes?: RouteScopes;
  /** Only a user token may call it (a tenant token gets code 20027). */
  userOnly?: boolean;
  /**
   * Only a tenant token may call it (Lark's image and file create list `tenant_access_token`
   * alone): a user token is refused with the user-permission answer, 99991679, naming the bot
   * scopes, since no user grant opens it.
   */
  tenantOnly?: boolean;
  handle(ctx: SandboxContext, incoming: Incoming, caller: Caller, params: string[]): Response;
}

/** The user id types of `user_id_type` (types/index.d.ts: `"user_id" | "union_id" | "open_id"`). */
export const USER_ID_TYPES = ["open_id", "union_id", "user_id"] as const;

/** One of `USER_ID_TYPES`. */
export type UserIdType = (typeof USER_ID_TYPES)[number];

/**
 * Reads `user_id_type` from the query: open_id when absent.
 *
 * @param url the request URL
 * @param invalid the area's answer for a value outside `USER_ID_TYPES`
 */
export function userIdTypeParam(
  url: URL,
  invalid: (value: string) => Response,
): UserIdType | Response {
  const value = url.searchParams.get("user_id_type") ?? "open_id";
  return (USER_ID_TYPES as readonly string[]).includes(value)
    ? value as UserIdType
    : invalid(value);
}

/**
 * Reads the body as a JSON object, or answers Lark's 9499 "Bad Request".
 *
 * @param incoming the request
 */
export function jsonBody(incoming: Incoming): Record<string, unknown> | Response {
  const bad = (why: string) =>
    larkError(9499, `Bad Request: ${why}`, 400, { error: { message: why } });
  if (!hasContentType(incoming.request, "application/json")) {
    return bad("Content-Type must be application/json");
  }
  try {
    const body = JSON.parse(incoming.bodyText);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return bad("the body must be a JSON object");
    }
    return body;
  } catch {
    return bad("the body is not valid JSON");
  }
}
