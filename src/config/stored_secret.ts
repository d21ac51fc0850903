/**
 * How `config init` keeps an app secret in the keychain: with the origin of the service it was
 * stored for, `{"app_secret": "…", "origin": "https://open.feishu.cn"}`, so that it is sent
 * there only (as a token record keeps the origin that issued it). An entry written by an older
 * hark holds the bare secret and no origin.
 *
 * @module
 */

import { stringField } from "../json/fields.ts";

/** An app secret read from the keychain. */
export interface StoredAppSecret {
  /** The secret. */
  secret: string;
  /** The origin it was stored for; absent in entries written before hark recorded it. */
  origin?: string;
}

/**
 * The keychain text of an app secret stored for `origin`.
 *
 * @param secret the app secret
 * @param origin the origin of the service it is for
 * @example
 * ```ts
 * storedAppSecretText("s3cret", "https://open.feishu.cn");
 * // '{"app_secret":"s3cret","origin":"https://open.feishu.cn"}'
 * ```
 */
export function storedAppSecretText(secret: string, origin: string): string {
  return JSON.stringify({ app_secret: secret, origin });
}

/**
 * Reads an app secret's keychain entry: the record {@link storedAppSecretText} writes, or an
 * older entry's bare secret (no origin).
 *
 * @param text the entry's text
 */
export function readStoredAppSecret(text: string): StoredAppSecret {
  if (!text.startsWith("{")) return { secret: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { secret: text };
  }
  const secret = stringField(value, "app_secret");
  const origin = stringField(value, "origin");
  if (secret === undefined || origin === undefined) return { secret: text };
  return { secret, origin };
}
