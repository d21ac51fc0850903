/**
 * A user token from a running sandbox, obtained through the real device flow (device
 * authorization with Basic auth, approval, one poll of the token endpoint), for tests that need
 * a signed-in user without running `hark auth login`.
 *
 * @module
 */

/** The parts of a sandbox this helper needs. */
export interface SandboxLike {
  baseUrl: string;
  appId: string;
  appSecret: string;
}

/** Options of {@link sandboxUserToken}. */
export interface SandboxTokenOptions {
  /** Scopes to grant; default every scope hark's shortcuts use. `offline_access` is added. */
  scopes?: string[];
  /** Access-token lifetime in seconds; default the sandbox's. */
  accessTokenTtl?: number;
  /** Refresh-token lifetime in seconds; default the sandbox's. */
  refreshTokenTtl?: number;
  /** The user to sign in as; default the sandbox's first user. */
  openId?: string;
}

/** Tokens issued by the sandbox. */
export interface SandboxTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
  /** The granted scopes. */
  scopes: string[];
}

/** The scopes granted when none are asked for. */
export const ALL_TEST_SCOPES = [
  "calendar:calendar:read",
  "calendar:calendar.event:read",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
  "calendar:calendar.event:delete",
  "calendar:calendar.event:reply",
  "calendar:calendar.free_busy:read",
  "contact:user:search",
  "contact:user.basic_profile:readonly",
  "contact:contact.base:readonly",
  "contact:user.base:readonly",
  "contact:user.email:readonly",
  "contact:user.department:readonly",
  "contact:user.employee_id:readonly",
  "im:message",
  "im:message.send_as_user",
  "im:message.group_msg:get_as_user",
  "im:message.p2p_msg:get_as_user",
  "im:message:readonly",
  "im:chat:read",
  "im:chat:create_by_user",
  "im:chat:update",
  "im:chat.members:read",
  "im:chat.members:write_only",
  "search:message",
];

/**
 * Signs a user in on the sandbox: approves the device code before the first poll, so one poll
 * gets the tokens (no wait for the poll interval, no `slow_down`).
 *
 * @param sb the sandbox
 * @param options scopes, lifetimes, user
 * @throws {Error} when a step answers something unexpected
 * @example
 * ```ts
 * const sb = await startSandbox({ quiet: true });
 * const { accessToken } = await sandboxUserToken(sb, { scopes: ["im:message.send_as_user"] });
 * ```
 */
export async function sandboxUserToken(
  sb: SandboxLike,
  options: SandboxTokenOptions = {},
): Promise<SandboxTokens> {
  const scopes = [...(options.scopes ?? ALL_TEST_SCOPES), "offline_access"];
  const device = await call(`${sb.baseUrl}/oauth/v1/device_authorization`, {
    method: "POST",
    headers: {
      "Authorization": `Basic ${
        btoa(`${encodeURIComponent(sb.appId)}:${encodeURIComponent(sb.appSecret)}`)
      }`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ client_id: sb.appId, scope: scopes.join(" ") }).toString(),
  });
  const approval: Record<string, unknown> = {
    user_code: device.user_code,
    decision: "approve",
  };
  if (options.openId !== undefined) approval.open_id = options.openId;
  if (options.accessTokenTtl !== undefined) approval.access_token_ttl = options.accessTokenTtl;
  if (options.refreshTokenTtl !== undefined) approval.refresh_token_ttl = options.refreshTokenTtl;
  await call(`${sb.baseUrl}/sandbox/approve`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(approval),
  });
  const token = await call(`${sb.baseUrl}/open-apis/authen/v2/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: String(device.device_code),
      client_id: sb.appId,
      client_secret: sb.appSecret,
    }).toString(),
  });
  return {
    accessToken: String(token.access_token),
    refreshToken: String(token.refresh_token),
    expiresIn: Number(token.expires_in),
    scopes: String(token.scope ?? "").split(" ").filter((s) => s !== ""),
  };
}

async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `Cannot get a sandbox token: ${init.method} ${url} answered ${response.status}: ${text}`,
    );
  }
  return JSON.parse(text) as Record<string, unknown>;
}
