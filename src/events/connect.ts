/**
 * Opening the long connection: `POST {base}/callback/ws/endpoint` with `{AppID, AppSecret}`
 * (the SDKs' request; the secret goes only where the app's credentials may go), answered `{code,
 * msg, data: {URL, ClientConfig}}`; the URL from the answer is untrusted, so it is opened only
 * when it is `wss:` on the service's own domain (Lark's `msg-frontier.feishu.cn` for
 * `open.feishu.cn`), or `ws:`/`wss:` on this machine when the service itself is here (the
 * sandbox).
 *
 * @module
 */

import type { Context } from "../context.ts";
import { exchange } from "../auth/oauth_client.ts";
import { isLoopback } from "../config/mod.ts";
import { ApiError, AuthError, logIdNote, serviceMsg } from "../errors/mod.ts";
import { TransportFailure } from "../http/transport.ts";
import { numberField, objectField, stringField } from "../json/fields.ts";
import { type ClientConfig, DEFAULT_CLIENT_CONFIG, readClientConfig } from "./client_config.ts";
import { type Connection, RetryableError } from "./subscriber.ts";

/** The endpoint's path under the base URL. */
export const ENDPOINT_PATH = "/callback/ws/endpoint";

/** The endpoint's codes worth another attempt: system busy, internal error (the SDKs'). */
const RETRYABLE_CODES = [1, 1000040343];

/** How long a WebSocket handshake may take, ms. */
const HANDSHAKE_MS = 15_000;

/** Where to connect, with what. */
export interface EndpointTarget {
  /** The service's base URL. */
  baseUrl: string;
  appId: string;
  appSecret: string;
}

/**
 * Asks the endpoint for a connection URL and opens it.
 *
 * @param ctx the context (its `openWebSocket`)
 * @param target the service and the app's credentials
 * @throws {RetryableError} for a network failure, a busy service or a failed handshake
 * @throws {AuthError} when the service refuses the app's credentials (exit 3)
 * @throws {ApiError} for any other refusal, or a connection URL hark will not open
 */
export async function connectEvents(ctx: Context, target: EndpointTarget): Promise<Connection> {
  const { url, config } = await requestEndpoint(ctx, target);
  if (!ctx.openWebSocket) throw new RetryableError("no WebSocket here");
  const signal = AbortSignal.any([ctx.timeout(HANDSHAKE_MS), ctx.signal]);
  try {
    const socket = await ctx.openWebSocket(url.href, signal);
    return { socket, config, serviceId: serviceIdOf(url) };
  } catch (error) {
    throw new RetryableError(error instanceof Error ? error.message : String(error));
  }
}

function serviceIdOf(url: URL): number {
  const id = Number(url.searchParams.get("service_id"));
  return Number.isInteger(id) && id >= 0 && id < 2 ** 31 ? id : 0;
}

async function requestEndpoint(
  ctx: Context,
  target: EndpointTarget,
): Promise<{ url: URL; config: ClientConfig }> {
  const endpoint = target.baseUrl + ENDPOINT_PATH;
  let answer;
  try {
    answer = await exchange(ctx, endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ AppID: target.appId, AppSecret: target.appSecret }),
    });
  } catch (error) {
    if (error instanceof TransportFailure) throw new RetryableError(error.message);
    throw error;
  }
  const body = answer.json;
  const code = numberField(body, "code");
  const msg = serviceMsg(body?.msg) ?? "";
  const detail = `${msg ? `: ${msg}` : ""}${logIdNote(answer.requestId)}`;
  if (answer.status >= 500 || (code !== undefined && RETRYABLE_CODES.includes(code))) {
    throw new RetryableError(`the endpoint is busy (HTTP ${answer.status}, code ${code})`);
  }
  if (answer.status !== 200 || code !== 0) {
    const facts = { httpStatus: answer.status, apiCode: code, requestId: answer.requestId };
    if (code === 514 || code === 403 || answer.status === 401 || answer.status === 403) {
      throw new AuthError(`The event endpoint refused the app's credentials${detail}`, {
        ...facts,
        suggestion: "Check the app id and secret (hark config init), and that the app " +
          "receives events through the long connection (developer console: Events and Callbacks)",
        command: "hark config init",
      });
    }
    throw new ApiError(`Cannot open the event stream: code ${code ?? "none"}${detail}`, {
      ...facts,
      type: "api",
      suggestion: code === 1000040350
        ? "The app has too many connections open; stop another subscriber"
        : "Check the app's event settings in the developer console",
    });
  }
  const data = objectField(body, "data");
  const raw = stringField(data, "URL") ?? "";
  return {
    url: checkConnectionUrl(raw, new URL(target.baseUrl)),
    config: readClientConfig(objectField(data, "ClientConfig"), DEFAULT_CLIENT_CONFIG),
  };
}

/**
 * Checks the connection URL the endpoint gave: `wss:` on the service's own domain (its last two
 * labels: `feishu.cn`, `larksuite.com`), or on this machine when the service is on this machine
 * (where `ws:` is allowed too).
 *
 * @param raw the URL as answered
 * @param base the service's base URL
 * @throws {ApiError} naming the refused URL's scheme and host (never its ticket)
 */
export function checkConnectionUrl(raw: string, base: URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("it is not a URL");
  }
  const where = `${url.protocol}//${url.host}`;
  if (url.protocol !== "wss:" && url.protocol !== "ws:") {
    throw refused(`"${where}" is not a WebSocket URL`);
  }
  if (isLoopback(base)) {
    if (isLoopback(url)) return url;
    throw refused(`"${where}" is not on this machine, where the service is`);
  }
  if (url.protocol === "ws:") throw refused(`"${where}" is not encrypted (ws:)`);
  if (domainOf(url.hostname) !== domainOf(base.hostname)) {
    throw refused(`"${where}" is not on the service's domain (${domainOf(base.hostname)})`);
  }
  return url;
}

function domainOf(host: string): string {
  return host.toLowerCase().split(".").slice(-2).join(".");
}

function refused(why: string): ApiError {
  return new ApiError(
    `Cannot open the event stream: the endpoint's connection URL is refused: ${why}`,
    {
      type: "api",
      suggestion: "Check the base URL (HARK_BASE_URL or the profile's base_url)",
    },
  );
}
