/**
 * What `auth login --no-wait` learned from the server (poll interval, expiry, scopes), kept
 * until `auth login --device-code` finishes the sign-in. Without it the second command would
 * poll at the default 5 s; against a server that asked for more, every poll would draw another
 * `slow_down` and the sign-in could never finish. The device code itself is not stored, only its
 * SHA-256, to recognise it.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { numberField, stringField, stringsField } from "../json/fields.ts";
import { keychainPath } from "../keychain/keychain.ts";

/** A device authorization waiting to be finished. */
export interface PendingLogin {
  /** SHA-256 of the device code, hex. */
  device_code_sha256: string;
  /** The server's poll interval, seconds. */
  interval?: number;
  /** When the device code expires, epoch ms. */
  expires_at?: number;
  /** The scopes asked for. */
  scopes: string[];
}

/**
 * The keychain path of a profile's pending sign-in.
 *
 * @param profile the profile
 * @param namespace the config's keychain namespace, when it has one
 */
export function pendingLoginPath(profile: string, namespace?: string): string {
  return keychainPath(profile, "pending_login", namespace);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Remembers a device authorization started with `--no-wait`. Best effort: a keychain failure
 * only means `--device-code` polls at the default interval.
 *
 * @param ctx the context
 * @param path where to keep it ({@link pendingLoginPath})
 * @param authorization the server's answer and the scopes asked for
 */
export async function savePendingLogin(
  ctx: Context,
  path: string,
  authorization: { device_code: string; interval?: number; expires_in?: number; scopes: string[] },
): Promise<void> {
  const pending: PendingLogin = {
    device_code_sha256: await sha256(authorization.device_code),
    interval: authorization.interval,
    expires_at: authorization.expires_in === undefined
      ? undefined
      : ctx.now() + authorization.expires_in * 1000,
    scopes: authorization.scopes,
  };
  try {
    await ctx.keychain.set(path, JSON.stringify(pending));
  } catch {
    // Best effort, as documented.
  }
}

/**
 * The pending sign-in for `deviceCode`, when `--no-wait` saved one for this profile.
 *
 * @param ctx the context
 * @param path where it is kept ({@link pendingLoginPath})
 * @param deviceCode the code given to `--device-code`
 */
export async function takePendingLogin(
  ctx: Context,
  path: string,
  deviceCode: string,
): Promise<PendingLogin | undefined> {
  let text: string | undefined;
  try {
    text = await ctx.keychain.get(path);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const hash = stringField(value, "device_code_sha256");
  if (hash === undefined || hash !== await sha256(deviceCode)) return undefined;
  return {
    device_code_sha256: hash,
    interval: numberField(value, "interval"),
    expires_at: numberField(value, "expires_at"),
    scopes: stringsField(value, "scopes"),
  };
}

/**
 * Forgets the pending sign-in of a profile.
 *
 * @param ctx the context
 * @param path where it is kept ({@link pendingLoginPath})
 */
export async function clearPendingLogin(ctx: Context, path: string): Promise<void> {
  try {
    await ctx.keychain.delete(path);
  } catch {
    // Nothing to forget, or no keychain: either way nothing is left to use.
  }
}
