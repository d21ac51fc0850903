/**
 * Test helpers: a sandbox per test and small HTTP helpers that always consume the body.
 *
 * @module
 */

import { type Sandbox, type SandboxOptions, startSandbox } from "./start_sandbox.ts";

/** A finished HTTP exchange. */
export interface Answer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
  text: string;
}

/** Starts a sandbox, runs `fn`, and always closes it. */
export async function withSandbox(
  options: SandboxOptions,
  fn: (sandbox: Sandbox, client: TestClient) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ port: 0, ...options });
  try {
    await fn(sandbox, new TestClient(sandbox));
  } finally {
    await sandbox.close();
  }
}

/** HTTP helpers bound to one sandbox. */
export class TestClient {
  constructor(readonly sandbox: Sandbox) {}

  /** Sends a request and reads the whole answer. */
  async send(
    method: string,
    path: string,
    options: {
      headers?: Record<string, string>;
      body?: string;
      token?: string;
      client?: Deno.HttpClient;
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${this.sandbox.baseUrl}${path}`, {
      method,
      headers,
      body: options.body,
      client: options.client,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  /** Sends a JSON body. */
  json(
    method: string,
    path: string,
    body: unknown,
    token?: string,
    client?: Deno.HttpClient,
  ): Promise<Answer> {
    return this.send(method, path, {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify(body),
      token,
      client,
    });
  }

  /** Sends a form body. */
  form(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    return this.send("POST", path, {
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The Basic header for the sandbox's app credentials. */
  basic(id = this.sandbox.appId, secret = this.sandbox.appSecret): Record<string, string> {
    return {
      authorization: `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`,
    };
  }

  /** Starts a device authorization for `scope`. */
  async deviceCode(scope: string): Promise<Answer> {
    return await this.form(
      "/oauth/v1/device_authorization",
      { client_id: this.sandbox.appId, scope },
      this.basic(),
    );
  }

  /** Polls the token endpoint once with a device code. */
  poll(deviceCode: string): Promise<Answer> {
    return this.form("/open-apis/authen/v2/oauth/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: deviceCode,
      client_id: this.sandbox.appId,
      client_secret: this.sandbox.appSecret,
    });
  }

  /** Refreshes a token once. */
  refresh(refreshToken: string): Promise<Answer> {
    return this.form("/open-apis/authen/v2/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: this.sandbox.appId,
      client_secret: this.sandbox.appSecret,
    });
  }

  /** Mints a user token through `/sandbox/token` (skips the device flow). */
  async userToken(scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.json("POST", "/sandbox/token", { scopes, ...extra });
    if (answer.status !== 200) throw new Error(`Cannot mint token: ${answer.text}`);
    return answer.body.access_token;
  }

  /** Gets a tenant token. */
  async tenantToken(): Promise<string> {
    const answer = await this.json("POST", "/open-apis/auth/v3/tenant_access_token/internal", {
      app_id: this.sandbox.appId,
      app_secret: this.sandbox.appSecret,
    });
    return answer.body.tenant_access_token;
  }
}
