/**
 * The OAuth and identity endpoints hark signs in with: device authorization (RFC 8628), the
 * token endpoint (device-code and refresh grants), user info and the tenant token: what each
 * sends and what its answers mean. Sending is the one transport's (`src/http/transport.ts`),
 * which follows no redirect for these calls: their bodies and headers carry credentials.
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type AppEntry,
  DEFAULT_DEVICE_AUTHORIZATION_PATH,
  type ServiceAddress,
} from "../config/mod.ts";
import {
  ApiError,
  AuthError,
  classifyApiCode,
  errorFromApiCode,
  type HarkError,
  logIdNote,
  serviceMsg,
  ValidationError,
} from "../errors/mod.ts";
import { judgeFailure } from "../http/failure_error.ts";
import { send, TransportFailure } from "../http/transport.ts";
import type { TokenGrant } from "./token_record.ts";

/** Path of the token endpoint, under `base_url`. */
export const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
/** Path of the user info endpoint, under `base_url`. */
export const USER_INFO_PATH = "/open-apis/authen/v1/user_info";
/** Path of the tenant token endpoint, under `base_url`. */
export const TENANT_TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";
/** The device-code grant type. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** Default timeout of one OAuth call, in ms. */
export const OAUTH_TIMEOUT_MS = 30_000;

/** Application credentials. */
export interface AppCredentials {
  /** The app id (`client_id`). */
  appId: string;
  /** The app secret (`client_secret`). */
  appSecret: string;
}

/** The endpoints of one app. */
export interface OAuthEndpoints {
  /** The device authorization URL. */
  deviceAuthorizationUrl: string;
  /** The token URL. */
  tokenUrl: string;
  /** The service address, without a trailing slash. */
  baseUrl: string;
}

/**
 * The endpoints of an app: device authorization at the accounts host +
 * `device_authorization_path`, the rest under the service address.
 *
 * @param address the profile's checked service address
 * @param app the app entry (may be empty: defaults apply)
 */
export function endpointsOf(address: ServiceAddress, app: AppEntry): OAuthEndpoints {
  return {
    deviceAuthorizationUrl: address.accountsUrl +
      (app.device_authorization_path ?? DEFAULT_DEVICE_AUTHORIZATION_PATH),
    tokenUrl: address.baseUrl + TOKEN_PATH,
    baseUrl: address.baseUrl,
  };
}

/** An HTTP answer with its body read. */
export interface HttpAnswer {
  /** The HTTP status. */
  status: number;
  /** The body parsed as a JSON object, or `undefined` when it is not one. */
  json: Record<string, unknown> | undefined;
  /** The raw body. */
  text: string;
  /** The service's log id, when given. */
  requestId?: string;
}

/**
 * Sends one sign-in request through the transport, following no redirect (these bodies carry
 * credentials), and reads the whole answer (4xx and 5xx included).
 *
 * @param ctx the context
 * @param url the URL
 * @param init method, headers and body
 * @throws {TransportFailure} when there is no usable answer
 * @throws {CancelledError} on Ctrl-C
 */
async function exchange(
  ctx: Context,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  const answer = await send(ctx, {
    ...init,
    url: new URL(url),
    redirects: "none",
    timeoutMs: OAUTH_TIMEOUT_MS,
  });
  let json: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(answer.text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) json = parsed;
  } catch {
    json = undefined;
  }
  return { status: answer.status, json, text: answer.text, requestId: answer.requestId };
}

/**
 * {@link exchange}, with a failure turned into the error the user sees.
 *
 * @throws {NetworkError} when the server cannot be reached or does not answer in time
 * @throws {ApiError} for a redirect, an oversized or a broken answer
 */
async function sendRequest(
  ctx: Context,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  try {
    return await exchange(ctx, url, init);
  } catch (error) {
    if (error instanceof TransportFailure) throw signInFailure(error);
    throw error;
  }
}

function formRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  };
}

/**
 * The `Authorization: Basic` value for client credentials, each part URL-encoded first
 * (RFC 6749 §2.3.1).
 *
 * @param credentials the app credentials
 */
export function basicAuthorization(credentials: AppCredentials): string {
  const raw = `${formEncode(credentials.appId)}:${formEncode(credentials.appSecret)}`;
  const bytes = new TextEncoder().encode(raw);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

function formEncode(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

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

/** How one call of the token endpoint ended. */
export type TokenAnswer =
  | { kind: "tokens"; grant: TokenGrant }
  | {
    kind: "error";
    /** RFC 6749's `error`, else `code_<code>` for an answer with only Lark's numeric code. */
    error: string;
    /** Lark's numeric `code`, when the answer has one (20026, 20037, 20064, 20073, …). */
    code?: number;
    description?: string;
    status: number;
    requestId?: string;
  }
  | {
    kind: "transient";
    /** Why, for a progress line. */
    reason: string;
    /** The error to show when no retry is left: classified as a business call's would be. */
    error: HarkError;
    /** Lark's numeric `code`, when the answer has one (20050: busy). */
    code?: number;
  };

/** Lark's code of a busy token endpoint: worth one retry. */
export const TOKEN_ENDPOINT_BUSY = 20050;
/** Lark's rate-limit code. */
const RATE_LIMITED = 99991400;

/**
 * Calls the token endpoint once, with client credentials in the form body. A network failure,
 * a rate limit (429), a busy or failing server (5xx, code 20050) or an unreadable answer is
 * `transient`, carrying the error a business call would end with (rate limit exit 1, network
 * exit 4, broken or unreadable answer exit 1); an RFC 6749 error or a Lark code is `error`.
 *
 * @param ctx the context
 * @param url the token URL
 * @param credentials the app credentials
 * @param fields the grant's fields (`grant_type` and its parameters)
 * @throws {CancelledError} on Ctrl-C
 * @throws {ApiError} for a redirect or an oversized answer (never followed, never retried)
 */
export async function callTokenEndpoint(
  ctx: Context,
  url: string,
  credentials: AppCredentials,
  fields: Record<string, string>,
): Promise<TokenAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await exchange(
      ctx,
      url,
      formRequest({
        ...fields,
        client_id: credentials.appId,
        client_secret: credentials.appSecret,
      }),
    );
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    const judged = signInFailure(error);
    if (error.reason === "redirect" || error.reason === "too_large") throw judged;
    return { kind: "transient", reason: judged.message, error: judged };
  }
  const { status, requestId } = answer;
  const body = answer.json;
  const code = typeof body?.code === "number" ? body.code : undefined;
  const msg = firstText(body, "msg", "error_description");
  const detail = `${msg ? `: ${msg}` : ""}${logIdNote(requestId)}`;
  const where = `the token endpoint "${url}"`;
  if (status === 429 || code === RATE_LIMITED) {
    return {
      kind: "transient",
      reason: `rate limited (HTTP ${status})`,
      code,
      error: new ApiError(`Rate limited by ${where} (HTTP ${status})${detail}`, {
        httpStatus: status,
        apiCode: code,
        requestId,
        type: "rate_limit",
        suggestion: "Wait a moment and retry",
      }),
    };
  }
  if (status >= 500 || code === TOKEN_ENDPOINT_BUSY) {
    return {
      kind: "transient",
      reason: `HTTP ${status}${code !== undefined ? `, code ${code}` : ""}`,
      code,
      // As for a business call: the spec's 500000 is its own (exit 4), any other failure of
      // the server an ApiError of type server_error.
      error: code !== undefined && classifyApiCode(code) === "server"
        ? errorFromApiCode({ code, msg }, { httpStatus: status, requestId })
        : new ApiError(
          `The token endpoint is unavailable (HTTP ${status}${
            code !== undefined ? `, code ${code}` : ""
          })${detail}`,
          {
            httpStatus: status,
            apiCode: code,
            requestId,
            type: "server_error",
            suggestion: "Retry later",
          },
        ),
    };
  }
  if (body === undefined) {
    return {
      kind: "transient",
      reason: `unreadable answer (HTTP ${status})`,
      error: new ApiError(
        `The answer of ${where} is not JSON (HTTP ${status})${logIdNote(requestId)}`,
        {
          httpStatus: status,
          requestId,
          type: "invalid_response",
          suggestion: "Check the base URL, then retry",
        },
      ),
    };
  }
  if (status === 200 && typeof body.access_token === "string" && body.access_token) {
    return {
      kind: "tokens",
      grant: {
        access_token: body.access_token,
        expires_in: numberOf(body.expires_in),
        refresh_token: typeof body.refresh_token === "string" ? body.refresh_token : undefined,
        refresh_token_expires_in: numberOf(body.refresh_token_expires_in),
        scope: typeof body.scope === "string" ? body.scope : undefined,
        token_type: typeof body.token_type === "string" ? body.token_type : undefined,
      },
    };
  }
  const error = typeof body.error === "string" && body.error !== ""
    ? body.error
    : code !== undefined && code !== 0
    ? `code_${code}`
    : "invalid_response";
  return {
    kind: "error",
    error,
    code: code !== 0 ? code : undefined,
    description: msg ?? `HTTP ${status}`,
    status,
    requestId,
  };
}

/**
 * The error of a sign-in request that got no usable answer: judged as a business call's failure
 * would be, but never "may have been applied" (a token request changes nothing the user made).
 */
function signInFailure(failure: TransportFailure): HarkError {
  const error = judgeFailure(failure, true).error;
  error.mayHaveApplied = false;
  return error;
}

/** The first of `keys` whose value in `body` is a string. */
function firstText(
  body: Record<string, unknown> | undefined,
  ...keys: string[]
): string | undefined {
  const key = keys.find((k) => typeof body?.[k] === "string");
  return key === undefined ? undefined : serviceMsg(body![key]);
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

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
  if (answer.status === 200 && body?.code === 0 && typeof body.data === "object" && body.data) {
    const data = body.data as Record<string, unknown>;
    const pick = (key: string) => (typeof data[key] === "string" ? data[key] as string : undefined);
    return { open_id: pick("open_id"), name: pick("name"), email: pick("email") };
  }
  throw oauthFailure("Cannot read the signed-in user", url, answer);
}

/** A tenant (bot) token with its expiry. */
export interface TenantToken {
  /** The bearer credential. */
  token: string;
  /** When it expires, epoch ms. */
  expiresAt: number;
}

/**
 * Gets a tenant token from the app credentials.
 *
 * @param ctx the context
 * @param base the service address
 * @param credentials the app credentials
 * @throws {AuthError} when the service refuses the credentials
 * @throws {NetworkError} when it cannot be reached
 */
export async function fetchTenantToken(
  ctx: Context,
  base: string,
  credentials: AppCredentials,
): Promise<TenantToken> {
  const url = base + TENANT_TOKEN_PATH;
  const answer = await sendRequest(ctx, url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ app_id: credentials.appId, app_secret: credentials.appSecret }),
  });
  const body = answer.json;
  if (body?.code === 0 && typeof body.tenant_access_token === "string") {
    const expire = numberOf(body.expire) ?? 7200;
    return { token: body.tenant_access_token, expiresAt: ctx.now() + expire * 1000 };
  }
  const code = typeof body?.code === "number" ? body.code : undefined;
  const msg = serviceMsg(body?.msg);
  const detail = `${msg ? `: ${msg}` : ""}${logIdNote(answer.requestId)}`;
  const facts = { httpStatus: answer.status, apiCode: code, requestId: answer.requestId };
  if (answer.status === 429 || code === RATE_LIMITED) {
    throw new ApiError(`Cannot get a tenant token: rate limited (HTTP ${answer.status})${detail}`, {
      ...facts,
      type: "rate_limit",
      suggestion: "Wait a moment and retry",
    });
  }
  if (answer.status >= 500) {
    throw new ApiError(`Cannot get a tenant token: HTTP ${answer.status} from "${url}"${detail}`, {
      ...facts,
      type: "server_error",
      suggestion: "Retry later",
    });
  }
  if (body === undefined) {
    throw new ApiError(
      `Cannot get a tenant token: the answer of "${url}" is not JSON (HTTP ${answer.status})`,
      { ...facts, type: "invalid_response", suggestion: "Check the base URL, then retry" },
    );
  }
  throw new AuthError(`Cannot get a tenant token (code ${String(body.code)})${detail}`, {
    requestId: answer.requestId,
    suggestion: "Check the app id and secret of this profile",
    command: "hark config init --force",
  });
}

function oauthFailure(what: string, url: string, answer: HttpAnswer): ApiError | AuthError {
  const body = answer.json;
  const error = firstText(body, "error");
  const description = firstText(body, "error_description", "msg");
  const detail = [error, description].filter((s) => s).join(": ");
  const message = `${what}: ${detail || `HTTP ${answer.status}`} (from "${url}")${
    logIdNote(answer.requestId)
  }`;
  if (error === "invalid_client") {
    return new AuthError(message, {
      suggestion: "Check the app id and secret of this profile",
      command: "hark config init --force",
    });
  }
  const code = typeof body?.code === "number" ? body.code : undefined;
  const rateLimited = answer.status === 429 || code === RATE_LIMITED;
  return new ApiError(message, {
    httpStatus: answer.status,
    apiCode: code,
    requestId: answer.requestId,
    ...(rateLimited ? { type: "rate_limit", suggestion: "Wait a moment and retry" } : {}),
  });
}
