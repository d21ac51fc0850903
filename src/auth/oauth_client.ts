/**
 * What every sign-in call shares: the app's endpoints and credentials, sending a request through
 * the one transport (`src/http/transport.ts`) without following redirects (these bodies and
 * headers carry credentials), and reading a refusal. Each endpoint has its own file: device
 * authorization (`device_authorization.ts`), the token endpoint (`token_endpoint.ts`), user info
 * (`user_info.ts`) and the tenant token (`tenant_token.ts`).
 *
 * @module
 */

import type { Context } from "../context.ts";
import {
  type AppEntry,
  DEFAULT_DEVICE_AUTHORIZATION_PATH,
  type ServiceAddress,
} from "../config/mod.ts";
import { ApiError, AuthError, type HarkError, logIdNote, serviceMsg } from "../errors/mod.ts";
import { judgeFailure } from "../http/failure_error.ts";
import { send, TransportFailure } from "../http/transport.ts";
import { isObject } from "../json/fields.ts";
import { parseNetworkJson } from "../json/read_json.ts";

/** Path of the token endpoint, under `base_url`. */
export const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
/** Default timeout of one OAuth call, in ms. */
export const OAUTH_TIMEOUT_MS = 30_000;
/** Lark's rate-limit code. */
export const RATE_LIMITED = 99991400;

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

/** A sign-in request: method, headers and body. */
export interface SignInRequest {
  /** The HTTP method. */
  method: string;
  /** The headers. */
  headers: Record<string, string>;
  /** The body, when there is one. */
  body?: string;
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
export async function exchange(
  ctx: Context,
  url: string,
  init: SignInRequest,
): Promise<HttpAnswer> {
  const answer = await send(ctx, {
    ...init,
    url: new URL(url),
    redirects: "none",
    timeoutMs: OAUTH_TIMEOUT_MS,
  });
  const parsed = parseNetworkJson(answer.text);
  const json = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  return { status: answer.status, json, text: answer.text, requestId: answer.requestId };
}

/**
 * {@link exchange}, with a failure turned into the error the user sees.
 *
 * @param ctx the context
 * @param url the URL
 * @param init method, headers and body
 * @throws {NetworkError} when the server cannot be reached or does not answer in time
 * @throws {ApiError} for a redirect, an oversized or a broken answer
 */
export async function sendRequest(
  ctx: Context,
  url: string,
  init: SignInRequest,
): Promise<HttpAnswer> {
  try {
    return await exchange(ctx, url, init);
  } catch (error) {
    if (error instanceof TransportFailure) throw signInFailure(error);
    throw error;
  }
}

/**
 * A form POST asking for JSON.
 *
 * @param form the form fields, URL-encoded into the body
 * @param headers extra headers (an `authorization`)
 */
export function formRequest(
  form: Record<string, string>,
  headers: Record<string, string> = {},
): SignInRequest {
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

/**
 * The error of a sign-in request that got no usable answer: judged as a business call's failure
 * would be, but never "may have been applied" (a token request changes nothing the user made).
 */
export function signInFailure(failure: TransportFailure): HarkError {
  const error = judgeFailure(failure, true).error;
  error.mayHaveApplied = false;
  return error;
}

/** The first of `keys` whose value in `body` is a string, cleaned as service text. */
export function firstText(
  body: Record<string, unknown> | undefined,
  ...keys: string[]
): string | undefined {
  for (const key of keys) {
    const value = body?.[key];
    if (typeof value === "string") return serviceMsg(value);
  }
  return undefined;
}

/** A finite number, or a string of digits read as one; else `undefined`. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The error of a refused sign-in call: an {@link AuthError} for `invalid_client` (the app
 * credentials), else an {@link ApiError} carrying the status, the code and the log id (of type
 * `rate_limit` for HTTP 429 or Lark's rate-limit code).
 *
 * @param what what could not be done, for the message
 * @param url the URL called
 * @param answer the answer
 */
export function oauthFailure(what: string, url: string, answer: HttpAnswer): ApiError | AuthError {
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
