/**
 * The unauthenticated /sandbox/ routes for people and tests: the verification page, approval,
 * token minting and revocation, the app's enabled scopes, faults, the request log, statistics and
 * the stored messages and events.
 *
 * @module
 */

import { serveEventOps } from "../events/event_routes.ts";
import { OAuthError } from "../oauth/auth_store.ts";
import { type FaultSpec, validateFault } from "./fault_registry.ts";
import { publicMessage } from "../im/im_routes.ts";
import { hasContentType, type Incoming, json, type SandboxContext } from "../core/context.ts";
import { KNOWN_SCOPES, unknownScopes } from "../oauth/lark_scopes.ts";

function jsonInput(incoming: Incoming): unknown | Response {
  try {
    return JSON.parse(incoming.bodyText || "null");
  } catch {
    return json({ error: "invalid_request", error_description: "The body is not valid JSON" }, 400);
  }
}

function optionalTtl(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !(value > 0)) {
    throw new OAuthError("invalid_request", `"${field}" must be a positive number of seconds`);
  }
  return value;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
input,select,button{font-size:1.1rem;padding:.4rem;margin:.3rem 0}
button{margin-right:.5rem}.code{font-family:monospace;letter-spacing:.1em}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

function verifyForm(ctx: SandboxContext, userCode: string, note = ""): string {
  const options = ctx.users.map((u, i) =>
    `<option value="${u.open_id}"${i === 0 ? " selected" : ""}>${escapeHtml(u.name)} (${
      escapeHtml(u.email)
    })</option>`
  ).join("");
  return `${note}<form method="post" action="/sandbox/verify">
<p>Enter the code shown in your terminal to let <b>${escapeHtml(ctx.appId)}</b> act for you.</p>
<label>Code <input name="user_code" class="code" value="${escapeHtml(userCode)}"
 placeholder="ABCD-EFGH" autocomplete="off" required></label><br>
<label>Sign in as <select name="open_id">${options}</select></label><br>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
}

function verifyPage(ctx: SandboxContext, incoming: Incoming): Response {
  if (incoming.method === "GET") {
    const userCode = incoming.url.searchParams.get("user_code") ?? "";
    return page("Sign in to hark (sandbox)", verifyForm(ctx, userCode));
  }
  const form = new URLSearchParams(incoming.bodyText);
  const userCode = form.get("user_code") ?? "";
  const decision = form.get("decision");
  if (decision !== "approve" && decision !== "deny") {
    return page(
      "Sign in to hark (sandbox)",
      verifyForm(ctx, userCode, "<p><b>Choose Approve or Deny.</b></p>"),
      400,
    );
  }
  const openId = form.get("open_id") || undefined;
  if (openId && !ctx.users.some((u) => u.open_id === openId)) {
    return page("Sign-in failed", `<p>Unknown user "${escapeHtml(openId)}".</p>`, 400);
  }
  try {
    const grant = ctx.auth.decide(userCode, decision, { openId });
    return decision === "approve"
      ? page(
        "Approved",
        `<p>Code <span class="code">${grant.userCode}</span> approved. ` +
          "You can return to the terminal.</p>",
      )
      : page("Denied", `<p>Code <span class="code">${grant.userCode}</span> denied.</p>`);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return page(
      "Sign-in failed",
      `<p>${escapeHtml(error.message)}.</p>` + verifyForm(ctx, ""),
      error.status,
    );
  }
}

function approve(ctx: SandboxContext, incoming: Incoming): Response {
  const input = jsonInput(incoming);
  if (input instanceof Response) return input;
  const body = (input ?? {}) as Record<string, unknown>;
  try {
    if (typeof body.user_code !== "string") {
      throw new OAuthError("invalid_request", "user_code is required");
    }
    if (body.decision !== "approve" && body.decision !== "deny") {
      throw new OAuthError("invalid_request", 'decision must be "approve" or "deny"');
    }
    const openId = body.open_id;
    if (openId !== undefined && !ctx.users.some((u) => u.open_id === openId)) {
      throw new OAuthError("invalid_request", `Unknown open_id "${String(openId)}"`);
    }
    const grant = ctx.auth.decide(body.user_code, body.decision, {
      openId: openId as string | undefined,
      accessTokenTtl: optionalTtl(body.access_token_ttl, "access_token_ttl"),
      refreshTokenTtl: optionalTtl(body.refresh_token_ttl, "refresh_token_ttl"),
    });
    return json({
      ok: true,
      user_code: grant.userCode,
      decision: body.decision,
      open_id: grant.openId,
      scope: grant.scopes.join(" "),
    });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return json({ error: error.error, error_description: error.message }, error.status);
  }
}

function mintToken(ctx: SandboxContext, incoming: Incoming): Response {
  const input = jsonInput(incoming);
  if (input instanceof Response) return input;
  const body = (input ?? {}) as Record<string, unknown>;
  try {
    const openId = (body.open_id as string | undefined) ?? ctx.users[0].open_id;
    if (!ctx.users.some((u) => u.open_id === openId)) {
      throw new OAuthError("invalid_request", `Unknown open_id "${openId}"`);
    }
    const scopes = body.scopes ?? ["offline_access"];
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string")) {
      throw new OAuthError("invalid_request", "scopes must be a list of strings");
    }
    const unknown = unknownScopes(scopes);
    if (unknown.length > 0) {
      throw new OAuthError("invalid_scope", `Unknown scopes "${unknown.join('", "')}"`);
    }
    return json(ctx.auth.issueUserTokens(openId, scopes, {
      accessTokenTtl: optionalTtl(body.access_token_ttl, "access_token_ttl"),
      refreshTokenTtl: optionalTtl(body.refresh_token_ttl, "refresh_token_ttl"),
    }));
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return json({ error: error.error, error_description: error.message }, error.status);
  }
}

/**
 * `GET /sandbox/app_scopes` lists the scopes the app has enabled; `POST` with
 * `{"scopes": [...]}` replaces them (every name must be a scope Lark knows); `DELETE` enables
 * every known scope again.
 */
function appScopes(ctx: SandboxContext, incoming: Incoming): Response {
  if (incoming.method === "DELETE") {
    ctx.appScopes = new Set(KNOWN_SCOPES);
  } else if (incoming.method === "POST") {
    const input = jsonInput(incoming);
    if (input instanceof Response) return input;
    const scopes = (input as { scopes?: unknown } | null)?.scopes;
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string")) {
      return json({ error: "invalid_request", error_description: 'Send {"scopes": [...]}' }, 400);
    }
    const unknown = unknownScopes(scopes);
    if (unknown.length > 0) {
      return json({
        error: "invalid_scope",
        error_description: `Unknown scopes "${unknown.join('", "')}"`,
      }, 400);
    }
    ctx.appScopes = new Set(scopes);
  }
  return json({ scopes: [...ctx.appScopes].sort() });
}

/**
 * `POST /sandbox/revoke` with `{"refresh_token": "..."}` or `{"open_id": "..."}` revokes refresh
 * tokens (and, for a user, their access tokens), as a user withdrawing the app's authorization
 * does: the next refresh answers 20064.
 */
function revoke(ctx: SandboxContext, incoming: Incoming): Response {
  const input = jsonInput(incoming);
  if (input instanceof Response) return input;
  const body = (input ?? {}) as Record<string, unknown>;
  const refreshToken = typeof body.refresh_token === "string" ? body.refresh_token : undefined;
  const openId = typeof body.open_id === "string" ? body.open_id : undefined;
  if (refreshToken === undefined && openId === undefined) {
    return json({
      error: "invalid_request",
      error_description: 'Send {"refresh_token": ...} or {"open_id": ...}',
    }, 400);
  }
  return json({ revoked: ctx.auth.revoke({ refreshToken, openId }) });
}

function faults(ctx: SandboxContext, incoming: Incoming): Response {
  if (incoming.method === "GET") return json(ctx.faults.list());
  if (incoming.method === "DELETE") {
    ctx.faults.clear();
    return json({ ok: true });
  }
  if (!hasContentType(incoming.request, "application/json")) {
    return json({ error: "invalid_request", error_description: "Send a JSON FaultSpec" }, 400);
  }
  const input = jsonInput(incoming);
  if (input instanceof Response) return input;
  let specs: FaultSpec[];
  try {
    specs = (Array.isArray(input) ? input : [input]).map(validateFault);
  } catch (error) {
    return json({ error: "invalid_request", error_description: (error as Error).message }, 400);
  }
  const ids = ctx.faults.add(specs);
  return json({ ids, id: ids[0] });
}

type OpsRoute = (ctx: SandboxContext, incoming: Incoming) => Response;

const OPS: Record<string, Record<string, OpsRoute>> = {
  "/sandbox/verify": { GET: verifyPage, POST: verifyPage },
  "/sandbox/approve": { POST: approve },
  "/sandbox/token": { POST: mintToken },
  "/sandbox/revoke": { POST: revoke },
  "/sandbox/app_scopes": { GET: appScopes, POST: appScopes, DELETE: appScopes },
  "/sandbox/faults": { GET: faults, POST: faults, DELETE: faults },
  "/sandbox/requests": {
    GET: (ctx) => json(ctx.log.list()),
    DELETE: (ctx) => {
      ctx.log.clear();
      return json({ ok: true });
    },
  },
  "/sandbox/stats": { GET: (ctx) => json(ctx.log.stats()) },
  "/sandbox/messages": {
    GET: (ctx) => json(ctx.messages.map((m) => ({ ...publicMessage(m), uuid: m.uuid ?? null }))),
  },
  "/sandbox/events": {
    GET: (ctx, incoming) =>
      json(ctx.calendars.created(incoming.url.searchParams.get("open_id") ?? undefined)),
  },
  "/sandbox/users": { GET: (ctx) => json(ctx.users) },
  "/sandbox/chats": { GET: (ctx) => json(ctx.chats) },
  "/sandbox/info": {
    GET: (ctx) =>
      json({
        base_url: ctx.baseUrl,
        app_id: ctx.appId,
        app_secret: ctx.appSecret,
        users: ctx.users.length,
        chats: ctx.chats.length,
      }),
  },
};

/** Serves one /sandbox/ request. */
export function serveOps(ctx: SandboxContext, incoming: Incoming): Response {
  const injects = incoming.path.replace(/\/$/, "") === "/sandbox/events" &&
    incoming.method === "POST";
  if (injects || incoming.path.startsWith("/sandbox/event_stream")) {
    return serveEventOps(ctx, incoming);
  }
  const route = OPS[incoming.path.replace(/\/$/, "")];
  const handler = route?.[incoming.method];
  if (!handler) {
    return json(
      {
        error: "not_found",
        error_description: `No sandbox route ${incoming.method} ${incoming.path}`,
      },
      route ? 405 : 404,
    );
  }
  return handler(ctx, incoming);
}
