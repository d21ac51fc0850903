/**
 * What a business route of the sandbox is: its method and path, the scopes a caller needs, and
 * its handler; plus the JSON-body reader the handlers share.
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
 * The scopes a route needs, per identity: any one of the listed scopes grants access. Without a
 * `bot` list a tenant token cannot call the route at all (code 20027, as `userOnly`); without a
 * `user` list user tokens are not checked.
 */
export interface RouteScopes {
  /** Scopes a user token may carry; any one suffices. */
  user?: readonly string[];
  /** Scopes the app must have enabled for a tenant token; any one suffices. */
  bot?: readonly string[];
}

/** One business route. */
export interface Route {
  method: string;
  pattern: RegExp;
  /** The scopes the route needs. */
  scopes?: RouteScopes;
  /** Only a user token may call it (a tenant token gets code 20027). */
  userOnly?: boolean;
  handle(ctx: SandboxContext, incoming: Incoming, caller: Caller, params: string[]): Response;
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
