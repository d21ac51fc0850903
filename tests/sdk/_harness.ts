/**
 * The shared harness of the SDK conformance suite: a sandbox on 127.0.0.1, an official Lark Node
 * SDK client pointed at it (the SDK builds every request and fetches its own tenant token), user
 * tokens from the sandbox's real device flow, and a checker that an answer has exactly the fields
 * and JS types of the SDK's response type (`types/index.d.ts` of `@larksuiteoapi/node-sdk`).
 *
 * @example
 * ```ts
 * await withSdkSandbox({ startDay: "2026-03-02" }, async (world) => {
 *   const token = await world.signIn(["calendar:calendar.event:read"]);
 *   const answer = await world.client.calendar.v4.calendarEvent.instanceView(
 *     { path: { calendar_id: "primary" }, params: { start_time: "1772409600", end_time: "1772496000" } },
 *     world.asUser(token),
 *   );
 *   assertShape(answer, envelope(t.object({ items: t.optional(t.array(INSTANCE)) })));
 * });
 * ```
 *
 * @module
 */

import * as lark from "@larksuiteoapi/node-sdk";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../sandbox/mod.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";

/** A running sandbox with an SDK client bound to it. */
export interface SdkSandbox {
  /** The sandbox (base URL, app credentials, seeded users and chats). */
  sandbox: Sandbox;
  /** An SDK client: `AppType.SelfBuild`, `domain` = the sandbox, its own token cache. */
  client: lark.Client;
  /**
   * Signs a user in through the sandbox's device flow (device authorization with Basic auth,
   * approval, token poll) and returns the user access token.
   *
   * @param scopes the scopes to ask for (`offline_access` is added)
   * @param openId the user; default the first seeded user
   */
  signIn(scopes: string[], openId?: string): Promise<string>;
  /** The SDK request options that make a call act as the user of `token`. */
  asUser(token: string): ReturnType<typeof lark.withUserAccessToken>;
}

/** What {@link sdkError} read from a call the SDK rejected. */
export interface SdkFailure {
  /** The HTTP status. */
  status: number;
  /** The Lark body: `code`, `msg` and, for some errors, `error`. */
  body: {
    code: number;
    msg: string;
    error?: { permission_violations?: { type: string; subject: string }[]; log_id?: string };
  };
}

/** A token cache per client, so a tenant token of one sandbox is never offered to another. */
function privateCache(): lark.Cache {
  const store = new Map<unknown, { value: unknown; expire?: number }>();
  return {
    set(key, value, expire) {
      store.set(key, { value, expire });
      return Promise.resolve(true);
    },
    get(key) {
      const hit = store.get(key);
      if (!hit || (hit.expire !== undefined && hit.expire < Date.now())) return Promise.resolve();
      return Promise.resolve(hit.value);
    },
  } as lark.Cache;
}

const silent = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/**
 * Starts a sandbox (port 0, quiet) and an SDK client for it.
 *
 * @param options sandbox options
 */
export async function startSdkSandbox(options: SandboxOptions = {}): Promise<
  SdkSandbox & { close(): Promise<void> }
> {
  const sandbox = await startSandbox({ port: 0, quiet: true, ...options });
  const client = new lark.Client({
    appId: sandbox.appId,
    appSecret: sandbox.appSecret,
    appType: lark.AppType.SelfBuild,
    domain: sandbox.baseUrl,
    cache: privateCache(),
    logger: silent,
  });
  return {
    sandbox,
    client,
    async signIn(scopes, openId) {
      const tokens = await sandboxUserToken(sandbox, { scopes, openId });
      return tokens.accessToken;
    },
    asUser: (token) => lark.withUserAccessToken(token),
    close: () => sandbox.close(),
  };
}

/**
 * Runs `fn` with a fresh {@link SdkSandbox} and always closes it.
 *
 * @param options sandbox options
 * @param fn the test body
 */
export async function withSdkSandbox(
  options: SandboxOptions,
  fn: (world: SdkSandbox) => Promise<void>,
): Promise<void> {
  const world = await startSdkSandbox(options);
  try {
    await fn(world);
  } finally {
    await world.close();
  }
}

/**
 * Awaits an SDK call that must fail and returns the HTTP status and Lark body the SDK's axios
 * error carries (the SDK rejects every non-2xx answer).
 *
 * @param call the SDK call
 * @throws {Error} when the call succeeds or fails without an HTTP answer
 */
export async function sdkError(call: Promise<unknown>): Promise<SdkFailure> {
  let answer: unknown;
  try {
    answer = await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: SdkFailure["body"] } })
      .response;
    if (!response) throw error;
    return { status: response.status, body: response.data };
  }
  throw new Error(`Expected the SDK call to fail, it answered ${JSON.stringify(answer)}`);
}

/** A JS type a field of an SDK response type may have. */
export type Shape =
  | { kind: "string" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "array"; of: Shape }
  | { kind: "object"; fields: Record<string, Shape> }
  | { kind: "optional"; of: Shape };

/** Builders of {@link Shape}s, named after the TypeScript they stand for. */
export const t = {
  string: { kind: "string" } as Shape,
  number: { kind: "number" } as Shape,
  boolean: { kind: "boolean" } as Shape,
  /** A string union such as `"accept" | "decline"`. */
  enum: (...values: string[]): Shape => ({ kind: "enum", values }),
  /** `T[]`. */
  array: (of: Shape): Shape => ({ kind: "array", of }),
  /** An object type; fields not listed are not allowed. */
  object: (fields: Record<string, Shape>): Shape => ({ kind: "object", fields }),
  /** `T | undefined` (the field may be absent). */
  optional: (of: Shape): Shape => ({ kind: "optional", of }),
};

/** The SDK's answer envelope around `data`: `{ code?: number; msg?: string; data?: T }`. */
export function envelope(data: Shape): Shape {
  return t.object({ code: t.number, msg: t.string, data: t.optional(data) });
}

function problems(value: unknown, shape: Shape, path: string, out: string[]): void {
  if (shape.kind === "optional") {
    if (value !== undefined) problems(value, shape.of, path, out);
    return;
  }
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  switch (shape.kind) {
    case "string":
    case "number":
    case "boolean":
      if (kind !== shape.kind) out.push(`${path}: expected ${shape.kind}, got ${kind}`);
      return;
    case "enum":
      if (typeof value !== "string" || !shape.values.includes(value)) {
        out.push(
          `${path}: expected one of ${shape.values.join("|")}, got ${JSON.stringify(value)}`,
        );
      }
      return;
    case "array":
      if (!Array.isArray(value)) out.push(`${path}: expected array, got ${kind}`);
      else value.forEach((item, i) => problems(item, shape.of, `${path}[${i}]`, out));
      return;
    case "object": {
      if (kind !== "object") {
        out.push(`${path}: expected object, got ${kind}`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (!(key in shape.fields)) out.push(`${path}.${key}: not in the SDK's type`);
      }
      for (const [key, field] of Object.entries(shape.fields)) {
        problems(record[key], field, `${path}.${key}`, out);
      }
    }
  }
}

/**
 * Checks that `value` has the fields and JS types of `shape`: required fields present, every
 * field of the right type, no field the SDK's type does not declare.
 *
 * @param value an SDK answer (or part of one)
 * @param shape the SDK's response type as a {@link Shape}
 * @param what names the value in the error
 * @throws {Error} listing every mismatch with its path
 */
export function assertShape(value: unknown, shape: Shape, what = "answer"): void {
  const out: string[] = [];
  problems(value, shape, what, out);
  if (out.length > 0) {
    throw new Error(`Shape of ${what} differs from the SDK's type:\n  ${out.join("\n  ")}`);
  }
}
