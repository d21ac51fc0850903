/**
 * The business routes under /open-apis: the route table of every service, bearer token and scope
 * checks, then the service's handler.
 *
 * @module
 */

import { BOT_OWNER } from "./calendar_store.ts";
import { findUser, type Incoming, larkError, larkOk, type SandboxContext } from "./_context.ts";
import { CALENDAR_ROUTES } from "./_calendar_routes.ts";
import { CONTACT_ROUTES } from "./_contact_routes.ts";
import { IM_ROUTES } from "./_im_routes.ts";
import type { Caller, Route } from "./_route.ts";

/**
 * Code for a bot token on a route that needs a user token. Not 99991668: DESIGN.md maps that
 * one to "token invalid", which would make clients refresh and retry for nothing.
 */
export const USER_TOKEN_REQUIRED = 20027;

const ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/authen\/v1\/user_info$/,
    userOnly: true,
    handle: userInfo,
  },
  ...CALENDAR_ROUTES,
  ...CONTACT_ROUTES,
  ...IM_ROUTES,
];

/**
 * Serves one /open-apis business request: route match (404 otherwise), bearer token, scope, then
 * the handler.
 */
export function serveApi(ctx: SandboxContext, incoming: Incoming): Response {
  let match: { route: Route; params: string[] } | undefined;
  for (const route of ROUTES) {
    const m = route.pattern.exec(incoming.path);
    if (m && route.method === incoming.method) {
      match = { route, params: m.slice(1).map(decodeURIComponent) };
      break;
    }
  }
  if (!match) return larkError(404, "404 page not found", 404);
  const header = incoming.request.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (!bearer) {
    return larkError(
      99991661,
      "Missing access token for authorization. Please make a request with token attached.",
      401,
    );
  }
  const lookup = ctx.auth.lookup(bearer[1]);
  if (!lookup.ok) {
    return lookup.reason === "expired"
      ? larkError(
        99991677,
        "Authentication token expired. Please refresh the token or sign in again.",
        401,
      )
      : larkError(
        99991663,
        "Invalid access token for authorization. Please make a request with token attached.",
        401,
      );
  }
  const record = lookup.record;
  const { route, params } = match;
  if (record.kind === "tenant" && route.userOnly) {
    return larkError(
      USER_TOKEN_REQUIRED,
      "Invalid access token for authorization: this API needs a user access token, " +
        "a tenant access token is not supported",
    );
  }
  const needed = record.kind === "user" ? route.scopes?.user : undefined;
  if (needed && !needed.some((scope) => record.scopes.includes(scope))) {
    return larkError(
      99991672,
      `Access denied. One of the following scopes is required: [${needed[0]}]. ` +
        "Sign in again requesting it.",
      400,
      {
        error: {
          permission_violations: [{ type: "action_scope_required", subject: needed[0] }],
        },
      },
    );
  }
  const caller = { record, owner: record.kind === "user" ? record.openId! : BOT_OWNER };
  return route.handle(ctx, incoming, caller, params);
}

function userInfo(ctx: SandboxContext, _incoming: Incoming, caller: Caller): Response {
  const user = findUser(ctx, caller.owner, "open_id")!;
  return larkOk({
    open_id: user.open_id,
    union_id: user.union_id,
    user_id: user.user_id,
    name: user.name,
    en_name: user.en_name,
    email: user.email,
    avatar_url: user.avatar_url,
    tenant_key: ctx.tenantKey,
  });
}
