/**
 * The business routes under /open-apis: the route table of every service, bearer token and scope
 * checks, then the service's handler.
 *
 * @module
 */

import { BOT_OWNER } from "../calendar/calendar_store.ts";
import type { TokenRecord } from "../oauth/auth_store.ts";
import {
  findUser,
  type Incoming,
  larkError,
  larkOk,
  logId,
  type SandboxContext,
} from "./context.ts";
import { CALENDAR_ROUTES } from "../calendar/calendar_routes.ts";
import { ROOM_ROUTES } from "../calendar/rooms.ts";
import { CONTACT_ROUTES } from "../contact/contact_routes.ts";
import { IM_ROUTES } from "../im/im_routes.ts";
import type { Caller, Route } from "./route.ts";

/**
 * Lark's answer to a tenant token on a route that takes user tokens only: 99991668, the code of
 * an invalid user_access_token (lark-cli `internal/output/lark_errors.go`: "user_access_token
 * invalid or expired"), under HTTP 401 with the gateway's "Invalid access token for
 * authorization" message. The gateway checks the token the API takes, and a tenant token is no
 * valid user token. (Inferred from those two facts; no Lark page shows this exact exchange.)
 * It replaces the invented 20027: a client must cope with what Lark really says.
 */
export const USER_TOKEN_REQUIRED = 99991668;
/** The app has not enabled any scope the route accepts (lark-cli lark_errors.go). */
export const APP_SCOPE_NOT_ENABLED = 99991672;
/** The user has not granted any scope the route accepts (lark-cli lark_errors.go). */
export const USER_SCOPE_NOT_GRANTED = 99991679;

const ROUTES: Route[] = [
  {
    method: "GET",
    pattern: /^\/open-apis\/authen\/v1\/user_info$/,
    userOnly: true,
    handle: userInfo,
  },
  ...CALENDAR_ROUTES,
  ...ROOM_ROUTES,
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
  if (record.kind === "tenant" && (route.userOnly || (route.scopes && !route.scopes.bot))) {
    return larkError(
      USER_TOKEN_REQUIRED,
      "Invalid access token for authorization. Please make a request with token attached.",
      401,
    );
  }
  if (record.kind === "user" && route.tenantOnly) return tenantOnlyDenial(ctx, route);
  const denied = scopeDenial(ctx, route, record);
  if (denied) return denied;
  const caller = { record, owner: record.kind === "user" ? record.openId! : BOT_OWNER };
  return route.handle(ctx, incoming, caller, params);
}

/**
 * Lark's answer when the token may not call the route, or undefined when it may. A route names
 * choices per identity; any one grants access (a choice may need several scopes together). The
 * app must have enabled every scope of one choice (99991672, fixed in the developer console),
 * and a user token must also carry every scope of one choice the app still has enabled
 * (99991679, fixed by signing in again): lark-cli `internal/output/lark_errors.go`
 * (LarkErrAppScopeNotEnabled, LarkErrUserScopeInsufficient) and `cmd/root.go`
 * (enrichPermissionError reads every `error.permission_violations[].subject`). The violations
 * name what is missing of the nearest choice, or every listed scope when each choice lacks one.
 */
function scopeDenial(ctx: SandboxContext, route: Route, record: TokenRecord): Response | undefined {
  if (!route.scopes) return undefined;
  const choices = ((record.kind === "user" ? route.scopes.user : route.scopes.bot) ?? [])
    .map((choice) => typeof choice === "string" ? [choice] : [...choice]);
  if (choices.length === 0) return undefined;
  const enabled = (scope: string) => ctx.appScopes.has(scope);
  // A granted scope the app has since disabled no longer counts.
  const usable = (scope: string) => enabled(scope) && record.scopes.includes(scope);
  if (!choices.some((choice) => choice.every(enabled))) {
    return permissionDenied(ctx, APP_SCOPE_NOT_ENABLED, choices, enabled);
  }
  if (record.kind === "user" && !choices.some((choice) => choice.every(usable))) {
    return permissionDenied(ctx, USER_SCOPE_NOT_GRANTED, choices, usable);
  }
  return undefined;
}

/** A user token on a route only the tenant token may call: no user grant opens it. */
function tenantOnlyDenial(ctx: SandboxContext, route: Route): Response {
  const choices = (route.scopes?.bot ?? [])
    .map((choice) => typeof choice === "string" ? [choice] : [...choice]);
  return permissionDenied(ctx, USER_SCOPE_NOT_GRANTED, choices, () => false);
}

/**
 * 99991672 or 99991679 as Lark words them, naming what is missing from the choices that lack the
 * fewest scopes: every listed scope when each choice is one scope, only `im:message` when a user
 * holds `im:message.send_as_user` of the pair message create needs.
 */
function permissionDenied(
  ctx: SandboxContext,
  code: typeof APP_SCOPE_NOT_ENABLED | typeof USER_SCOPE_NOT_GRANTED,
  choices: string[][],
  has: (scope: string) => boolean,
): Response {
  const lacking = choices.map((choice) => choice.filter((scope) => !has(scope)));
  const fewest = Math.min(...lacking.map((l) => l.length));
  const named = [...new Set(lacking.filter((l) => l.length === fewest).flat())];
  const list = named.join(", ");
  const error = {
    log_id: logId(ctx),
    permission_violations: named.map((subject) => ({ type: "action_scope_required", subject })),
  };
  if (code === APP_SCOPE_NOT_ENABLED) {
    return larkError(
      APP_SCOPE_NOT_ENABLED,
      `Access denied. One of the following scopes is required: [${list}]. ` +
        `The app "${ctx.appId}" has enabled none of them; enable one in the developer console.`,
      400,
      { error },
    );
  }
  return larkError(
    USER_SCOPE_NOT_GRANTED,
    "Unauthorized. You do not have permission to perform the requested operation on the " +
      "resource. Please request user re-authorization and try again. required one of these " +
      `privileges under the user identity: [${list}]`,
    400,
    { error },
  );
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
