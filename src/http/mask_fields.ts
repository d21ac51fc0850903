/**
 * Masking of secret fields in request and response bodies, for `--debug` lines and `--dry-run`
 * previews.
 *
 * @module
 */

import { maskSecret } from "../config/mod.ts";
import { isObject, type JsonObject } from "../json/fields.ts";

const SECRET_KEY = /^(authorization|password|secret|token|device_code|code_verifier)$/i;
const SECRET_SUFFIX = /(_secret|_token|_password)$/i;
const NOT_SECRET = /(^|_)page_token$/i;

/**
 * Whether a field of that name holds a secret: `app_secret`, `client_secret`, `access_token`,
 * `refresh_token`, `tenant_access_token`, `device_code`, `password` and the like (but not
 * `page_token`, a cursor).
 *
 * @param key the field name
 */
export function isSecretField(key: string): boolean {
  if (NOT_SECRET.test(key)) return false;
  return SECRET_KEY.test(key) || SECRET_SUFFIX.test(key);
}

/**
 * A deep copy of a JSON value with the value of every secret field masked (see
 * {@link isSecretField}); other values are kept.
 *
 * @param value a JSON value
 * @returns the masked copy
 * @example
 * ```ts
 * maskFields({ app_id: "cli_1", app_secret: "s3cr3t-value-long-enough" });
 * // { app_id: "cli_1", app_secret: "s3cr…" }
 * ```
 */
export function maskFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskFields);
  return isObject(value) ? maskObjectFields(value) : value;
}

/**
 * {@link maskFields} of an object: a deep copy with the value of every secret field masked.
 *
 * @param value a JSON object
 * @returns the masked copy
 */
export function maskObjectFields(value: JsonObject): JsonObject {
  const masked: JsonObject = {};
  for (const [key, field] of Object.entries(value)) {
    masked[key] = isSecretField(key) && (typeof field === "string" || typeof field === "number")
      ? maskSecret(String(field))
      : maskFields(field);
  }
  return masked;
}

/**
 * Masks the secret parameters of a URL's query (see {@link isSecretField}).
 *
 * @param url the URL
 * @returns the URL as text, secrets masked
 */
export function maskUrl(url: URL): string {
  const copy = new URL(url);
  for (const key of [...new Set(copy.searchParams.keys())]) {
    // `get` answers the first of the key's values (the key is listed, so it has one).
    if (isSecretField(key)) {
      copy.searchParams.set(key, maskSecret(copy.searchParams.get(key) ?? ""));
    }
  }
  return copy.toString();
}

/**
 * Request headers with the credentials masked: `Authorization` keeps its scheme (`Bearer u-ab…`).
 *
 * @param headers the headers
 * @returns a masked copy
 */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === "authorization") {
      const space = value.indexOf(" ");
      masked[name] = space > 0
        ? `${value.slice(0, space)} ${maskSecret(value.slice(space + 1))}`
        : maskSecret(value);
    } else masked[name] = isSecretField(name.replaceAll("-", "_")) ? maskSecret(value) : value;
  }
  return masked;
}
