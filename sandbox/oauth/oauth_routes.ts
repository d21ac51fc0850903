/**
 * OAuth routes: device authorization (RFC 8628), the token endpoint (device code and refresh
 * grants) and the tenant token.
 *
 * @module
 */

import { OAuthError } from "./auth_store.ts";
import { unknownScopes } from "./lark_scopes.ts";
import {
  hasContentType,
  type Incoming,
  json,
  larkError,
  oauthError,
  type SandboxContext,
} from "../core/context.ts";

/** Path of the device authorization endpoint. */
export const DEVICE_AUTHORIZATION_PATH = "/oauth/v1/device_authorization";
/** Path of the token endpoint. */
export const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
/** Path of the tenant token endpoint. */
export const TENANT_TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** Reads `Authorization: Basic` credentials (each part URL-decoded, RFC 6749 §2.3.1). */
function basicCredentials(request: Request): { id: string; secret: string } | undefined {
  const header = request.headers.get("authorization") ?? "";
  const m = /^Basic\s+(\S+)$/i.exec(header);
  if (!m) return undefined;
  let decoded: string;
  try {
    decoded = atob(m[1]);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const id = safeDecode(decoded.slice(0, colon));
  const secret = safeDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

function formOf(incoming: Incoming): URLSearchParams | Response {
  if (!hasContentType(incoming.request, "application/x-www-form-urlencoded")) {
    return oauthError(
      "invalid_request",
      "The request body must be application/x-www-form-urlencoded",
    );
  }
  return new URLSearchParams(incoming.bodyText);
}

/** `POST /oauth/v1/device_authorization`. */
export function deviceAuthorization(ctx: SandboxContext, incoming: Incoming): Response {
  const credentials = basicCredentials(incoming.request);
  if (!credentials || credentials.id !== ctx.appId || credentials.secret !== ctx.appSecret) {
    return oauthError(
      "invalid_client",
      "Client authentication failed: send Authorization: Basic base64(app_id:app_secret)",
      401,
    );
  }
  const form = formOf(incoming);
  if (form instanceof Response) return form;
  const clientId = form.get("client_id");
  if (clientId !== ctx.appId) {
    return oauthError("invalid_client", `Unknown client_id "${clientId ?? ""}"`);
  }
  const scopes = (form.get("scope") ?? "").split(/\s+/).filter((s) => s !== "");
  // One unknown scope rejects the whole request (lark-cli issue #416: "The provided scope list
  // contains invalid or malformed scopes. Please ensure all scopes are valid."). lark-cli
  // device_flow.go reports `error_description` of any 4xx answer; the `error` value is RFC 6749's
  // for this case.
  if (unknownScopes(scopes).length > 0) {
    return oauthError(
      "invalid_scope",
      "The provided scope list contains invalid or malformed scopes. Please ensure all scopes " +
        "are valid.",
    );
  }
  const grant = ctx.auth.createDeviceGrant(scopes);
  const verify = `${ctx.baseUrl}/sandbox/verify`;
  return json({
    device_code: grant.deviceCode,
    user_code: grant.userCode,
    verification_uri: verify,
    verification_uri_complete: `${verify}?user_code=${grant.userCode}`,
    expires_in: Math.round(ctx.auth.policy.deviceCodeTtl),
    interval: ctx.auth.policy.interval,
  });
}

/** `POST /open-apis/authen/v2/oauth/token`. */
export function token(ctx: SandboxContext, incoming: Incoming): Response {
  const form = formOf(incoming);
  if (form instanceof Response) return form;
  if (incoming.request.headers.has("authorization")) {
    return oauthError(
      "invalid_request",
      "Client credentials must be sent once: in the form body, not also in an Authorization header",
    );
  }
  const clientId = form.get("client_id");
  const clientSecret = form.get("client_secret");
  if (clientId === null || clientSecret === null) {
    return oauthError("invalid_request", "client_id and client_secret are required");
  }
  if (clientId !== ctx.appId || clientSecret !== ctx.appSecret) {
    return oauthError("invalid_client", "Client authentication failed", 401);
  }
  const grantType = form.get("grant_type");
  try {
    if (grantType === DEVICE_GRANT) {
      const deviceCode = form.get("device_code");
      if (!deviceCode) return oauthError("invalid_request", "device_code is required");
      return json(ctx.auth.pollDeviceCode(deviceCode));
    }
    if (grantType === "refresh_token") {
      const refreshToken = form.get("refresh_token");
      if (!refreshToken) return oauthError("invalid_request", "refresh_token is required");
      return json(ctx.auth.refresh(refreshToken));
    }
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.code === undefined) return oauthError(error.error, error.message, error.status);
    return tokenError(error.code, error.error, error.message, error.status);
  }
  return oauthError(
    "unsupported_grant_type",
    `Unsupported grant_type "${grantType ?? ""}"`,
  );
}

/**
 * A failure of the token endpoint: Lark's numeric `code` beside RFC 6749's `error` and
 * `error_description` (lark-cli `internal/auth/uat_client.go` reads `code`, `error` and
 * `error_description` of the answer, and treats a non-zero code or a non-empty error as failure).
 *
 * @param code Lark's code, e.g. 20073
 * @param error the RFC 6749 error, e.g. "invalid_grant"
 * @param description the `error_description`
 * @param status the HTTP status
 */
export function tokenError(
  code: number,
  error: string,
  description: string,
  status = 400,
): Response {
  return json({ code, error, error_description: description }, status);
}

/** `POST /open-apis/auth/v3/tenant_access_token/internal`. */
export function tenantToken(ctx: SandboxContext, incoming: Incoming): Response {
  let body: { app_id?: unknown; app_secret?: unknown };
  try {
    if (!hasContentType(incoming.request, "application/json")) throw new Error("not JSON");
    body = JSON.parse(incoming.bodyText);
    if (typeof body !== "object" || body === null) throw new Error("not an object");
  } catch {
    return larkError(9499, "Bad Request: the body must be a JSON object {app_id, app_secret}");
  }
  if (typeof body.app_id !== "string" || typeof body.app_secret !== "string") {
    return larkError(10003, "invalid param: app_id and app_secret are required");
  }
  if (body.app_id !== ctx.appId) return larkError(10003, `app_id "${body.app_id}" not found`);
  if (body.app_secret !== ctx.appSecret) return larkError(10014, "app secret invalid");
  const issued = ctx.auth.issueTenantToken();
  return json({ code: 0, msg: "ok", tenant_access_token: issued.token, expire: issued.expire });
}
