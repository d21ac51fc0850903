/**
 * Starts the sandbox: a local, stateful Lark-compatible service on loopback.
 *
 * @module
 */

import { AuthStore } from "./oauth/auth_store.ts";
import { CalendarStore } from "./calendar/calendar_store.ts";
import { ImStore } from "./im/im_store.ts";
import { defaultFaultCode, FaultRegistry, type FaultSpec } from "./operations/fault_registry.ts";
import { RequestLog } from "./operations/request_log.ts";
import { botOpenIdOf, createSeedData, type SeedChat, type SeedUser } from "./core/seed_data.ts";
import { KNOWN_SCOPES, unknownScopes } from "./oauth/lark_scopes.ts";
import { type HttpReply, serveHttp } from "./core/http_server.ts";
import {
  hasContentType,
  type Incoming,
  json,
  larkError,
  logId,
  type SandboxContext,
} from "./core/context.ts";
import {
  DEVICE_AUTHORIZATION_PATH,
  deviceAuthorization,
  TENANT_TOKEN_PATH,
  tenantToken,
  token,
  TOKEN_PATH,
  tokenError,
} from "./oauth/oauth_routes.ts";
import { serveApi } from "./core/api_routes.ts";
import { serveOps } from "./operations/ops_routes.ts";
import { type ClientConfig, EventHub } from "./events/event_hub.ts";
import { ENDPOINT_PATH, wsEndpoint } from "./events/event_routes.ts";

/** How to start a sandbox. Every field is optional. */
export interface SandboxOptions {
  /** TCP port on 127.0.0.1; default 0 (a free port). */
  port?: number;
  /** Seed of the generated data; default 1. */
  seed?: number;
  /** App id the sandbox accepts; default "cli_sandbox". */
  appId?: string;
  /** App secret the sandbox accepts; default "sandbox-secret". */
  appSecret?: string;
  /**
   * Approve a device code automatically once it has been polled this many times (as the first
   * seeded user): with N, polls 1..N answer `authorization_pending` and poll N+1 gets tokens.
   * Default: never.
   */
  autoApproveAfter?: number;
  /** Access-token lifetime in seconds (fractions allowed); default 7200. */
  accessTokenTtl?: number;
  /** Refresh-token lifetime in seconds; default 2592000 (30 days). */
  refreshTokenTtl?: number;
  /** Tenant-token lifetime in seconds; default 7200. */
  tenantTokenTtl?: number;
  /** Device-code lifetime in seconds; default 600. */
  deviceCodeTtl?: number;
  /** Device poll interval in seconds the server announces and enforces; default 5. */
  interval?: number;
  /** Extra seeded one-off events per day in every user's calendar (load tests); default 0. */
  eventsPerDay?: number;
  /** Messages in each seeded chat's history, generated lazily; default 60. */
  messagesPerChat?: number;
  /**
   * Messages in the first seeded chat's history instead, for memory benchmarks (50,000 cost no
   * memory until read); default 0 (the chat gets `messagesPerChat`).
   */
  largeChatMessages?: number;
  /** Faults active from the start. */
  faults?: FaultSpec[];
  /**
   * The scopes the app has enabled in its developer console; default every scope Lark knows
   * (`KNOWN_SCOPES`). A tenant token is refused (99991672) on a route none of whose bot scopes
   * is enabled, and a sign-in grants only enabled scopes. `POST /sandbox/app_scopes` changes it.
   */
  appScopes?: string[];
  /** UTC day ("YYYY-MM-DD") the seeded events are anchored to; default today (UTC). */
  startDay?: string;
  /**
   * The long connection's client config (seconds); default Lark's (`LARK_CLIENT_CONFIG`): tests
   * shorten the ping and reconnect intervals.
   */
  eventClientConfig?: ClientConfig;
  /** How long the event hub waits for an event's answer before delivering it again; 5000 ms. */
  eventAckTimeoutMs?: number;
  /** Do not log requests to stderr; default true (the CLI turns logging on). */
  quiet?: boolean;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL without a trailing slash, e.g. "http://127.0.0.1:43127". */
  baseUrl: string;
  /** The bound port. */
  port: number;
  appId: string;
  appSecret: string;
  /** The seeded users (the first one is who approvals sign in by default). */
  users: SeedUser[];
  chats: SeedChat[];
  /** Stops the server and closes every connection. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function anchorOf(startDay: string | undefined): number {
  if (startDay === undefined) return Math.floor(Date.now() / DAY_MS) * 86_400;
  const ms = Date.parse(`${startDay}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDay) || Number.isNaN(ms)) {
    throw new Error(`Cannot start sandbox: startDay "${startDay}" is not a YYYY-MM-DD date`);
  }
  return ms / 1000;
}

function route(ctx: SandboxContext, incoming: Incoming): Response {
  const { method, path } = incoming;
  if (path === DEVICE_AUTHORIZATION_PATH && method === "POST") {
    return deviceAuthorization(ctx, incoming);
  }
  if (path === TOKEN_PATH && method === "POST") return token(ctx, incoming);
  if (path === TENANT_TOKEN_PATH && method === "POST") return tenantToken(ctx, incoming);
  if (path === ENDPOINT_PATH && method === "POST") return wsEndpoint(ctx, incoming);
  if (path.startsWith("/open-apis/")) return serveApi(ctx, incoming);
  return larkError(404, "404 page not found", 404);
}

function faultResponse(fault: FaultSpec, path: string): Response {
  const status = fault.status ?? 500;
  const headers = faultHeaders(fault, status);
  const msg = fault.msg ?? `Injected fault: HTTP ${status}`;
  if (path === TOKEN_PATH) {
    // The token endpoint's own shape; a 5xx is Lark's 20050, the refresh error worth one retry
    // (lark-cli internal/auth/errors.go, RefreshTokenRetryable).
    const server = status >= 500;
    const reply = tokenError(
      fault.code ?? (server ? 20050 : status),
      server ? "server_error" : "invalid_request",
      msg,
      status,
    );
    for (const [name, value] of Object.entries(headers)) reply.headers.set(name, value);
    return reply;
  }
  return json({ code: fault.code ?? defaultFaultCode(status), msg }, status, headers);
}

/** Lark's code for a rate-limited call (HTTP 429, or 400 on older APIs). */
const RATE_LIMITED = 99991400;

/**
 * The headers of an injected fault. A rate limit (HTTP 429, or code 99991400) carries what
 * Lark's gateway sends: `x-ogw-ratelimit-limit` and `x-ogw-ratelimit-reset`, the seconds until
 * the window opens again (`retry_after`, default 1), and no `Retry-After` (Lark's "Rate limits"
 * guide, server-docs/api-call-guide/frequency-control). Any other status sends `retry_after`
 * as a standard `Retry-After`.
 */
function faultHeaders(fault: FaultSpec, status: number): Record<string, string> {
  if (status === 429 || fault.code === RATE_LIMITED) {
    return {
      "x-ogw-ratelimit-limit": "100",
      "x-ogw-ratelimit-reset": String(fault.retry_after ?? 1),
    };
  }
  return fault.retry_after === undefined ? {} : { "retry-after": String(fault.retry_after) };
}

/**
 * Starts a sandbox on 127.0.0.1.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({ autoApproveAfter: 0, interval: 0 });
 * console.log(sandbox.baseUrl);
 * await sandbox.close();
 * ```
 * @throws {Error} "Cannot listen on ..." when the port is in use (the cause is Deno's error)
 */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  try {
    return Promise.resolve(start(options));
  } catch (error) {
    return Promise.reject(error);
  }
}

function start(options: SandboxOptions): Sandbox {
  const seed = options.seed ?? 1;
  const appId = options.appId ?? "cli_sandbox";
  const appSecret = options.appSecret ?? "sandbox-secret";
  const quiet = options.quiet ?? true;
  const { users, chats } = createSeedData(seed);
  const faults = new FaultRegistry(seed);
  faults.add(options.faults ?? []);
  const anchorDay = anchorOf(options.startDay);
  const tenantKey = `sandbox_tenant_${seed}`;
  const unknown = unknownScopes(options.appScopes ?? []);
  if (unknown.length > 0) {
    throw new Error(`Cannot start sandbox: unknown app scopes "${unknown.join('", "')}"`);
  }
  const appScopes = new Set(options.appScopes ?? KNOWN_SCOPES);

  const ctx: SandboxContext = {
    baseUrl: "",
    appId,
    appSecret,
    tenantKey,
    botOpenId: botOpenIdOf(appId),
    appScopes,
    users,
    chats,
    auth: new AuthStore({
      accessTokenTtl: options.accessTokenTtl ?? 7200,
      refreshTokenTtl: options.refreshTokenTtl ?? 2_592_000,
      tenantTokenTtl: options.tenantTokenTtl ?? 7200,
      deviceCodeTtl: options.deviceCodeTtl ?? 600,
      interval: options.interval ?? 5,
      autoApproveAfter: options.autoApproveAfter,
      defaultOpenId: users[0].open_id,
      grantable: (scope) => ctx.appScopes.has(scope),
    }),
    calendars: new CalendarStore({
      seed,
      anchorDay,
      users,
      eventsPerDay: options.eventsPerDay ?? 0,
      appId,
    }),
    im: new ImStore({
      seed,
      appId,
      tenantKey,
      users,
      chats,
      anchorMs: anchorDay * 1000,
      messagesPerChat: options.messagesPerChat ?? 60,
      largeChatMessages: options.largeChatMessages ?? 0,
    }),
    faults,
    log: new RequestLog(),
    messages: [],
    messageByUuid: new Map(),
    events: new EventHub({
      clientConfig: options.eventClientConfig,
      ackTimeoutMs: options.eventAckTimeoutMs,
    }),
    now: Date.now,
  };

  const hostname = "127.0.0.1";
  const port = options.port ?? 0;
  let server: ReturnType<typeof serveHttp>;

  /**
   * Every answer carries a log id in `X-Tt-Logid`, as Lark's do (lark-cli logs it as
   * `x-tt-logid`): what a user quotes to support, and what hark shows beside every error.
   */
  function withLogId(reply: HttpReply): HttpReply {
    if (!(reply instanceof Response) || reply.headers.has("x-tt-logid")) return reply;
    try {
      reply.headers.set("x-tt-logid", logId(ctx));
    } catch {
      // An immutable redirect: no log id.
    }
    return reply;
  }

  async function handle(request: Request, remotePort: number): Promise<HttpReply> {
    const started = Date.now();
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    // Uploads stay bytes: decoding 25 MB of binary as text would only waste memory.
    const multipart = hasContentType(request, "multipart/form-data");
    const incoming: Incoming = {
      request,
      url,
      method: request.method,
      path: url.pathname,
      bodyText: multipart ? "" : new TextDecoder().decode(body),
      body,
    };
    if (incoming.path === "/sandbox" || incoming.path.startsWith("/sandbox/")) {
      return serveOps(ctx, incoming);
    }
    if (incoming.path === "/") {
      return Response.redirect(`${ctx.baseUrl}/sandbox/verify`, 302);
    }
    ctx.log.record(
      request,
      multipart ? `<multipart/form-data, ${body.length} bytes>` : incoming.bodyText,
      remotePort,
    );
    const end = incoming.path.startsWith("/open-apis/") ? ctx.log.begin() : () => {};
    let status = 0;
    try {
      const fired = ctx.faults.match(incoming.method, incoming.path);
      for (const fault of fired.filter((f) => f.kind === "latency")) {
        await sleep(ctx.faults.delayOf(fault), server.signal);
      }
      const fault = fired.find((f) => f.kind !== "latency");
      if (fault?.kind === "status") return faultResponse(fault, incoming.path);
      if (fault?.kind === "drop" && fault.stage !== "after") return { drop: true };
      if (fault?.kind === "malformed") {
        return new Response("<html><body><h1>502 Bad Gateway</h1></body></html>", {
          headers: { "content-type": "application/json; charset=utf-8" },
        });
      }
      let response: Response;
      try {
        response = route(ctx, incoming);
      } catch (error) {
        response = larkError(500000, `Internal sandbox error: ${(error as Error).message}`, 500);
      }
      status = response.status;
      if (fault?.kind === "drop") return { drop: true };
      if (fault?.kind === "truncated") return { truncate: response };
      return response;
    } finally {
      end();
      if (!quiet) {
        console.error(
          `${incoming.method} ${incoming.path} -> ${status || "fault"} (${
            Date.now() - started
          } ms)`,
        );
      }
    }
  }

  try {
    server = serveHttp(
      { hostname, port },
      async (request, info) => withLogId(await handle(request, info.remotePort)),
    );
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new Error(`Cannot listen on "${hostname}:${port}": address already in use`, {
        cause: error,
      });
    }
    throw new Error(`Cannot listen on "${hostname}:${port}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  ctx.baseUrl = `http://${hostname}:${server.port}`;
  return {
    baseUrl: ctx.baseUrl,
    port: server.port,
    appId,
    appSecret,
    users,
    chats,
    close: async () => {
      await ctx.events.close();
      await server.close();
    },
  };
}
