/**
 * Where a secret may go. A config file names its own service (`base_url`, `accounts_url`), so a
 * config file alone never decides where a secret from outside it is sent: a secret read from the
 * environment goes only to Lark's own services or to an origin the user trusts outside any config
 * file (`HARK_TRUSTED_ORIGINS`, `HARK_BASE_URL`). A loopback address is no exception: any user
 * of the machine can listen there.
 *
 * @module
 */

import type { Env } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { BASE_URL_VAR } from "./service_address.ts";

/** The variable listing the origins the user trusts with secrets, beside Lark's own. */
export const TRUSTED_ORIGINS_VAR = "HARK_TRUSTED_ORIGINS";

/** Lark's and Feishu's own services: their API hosts and their sign-in hosts. */
export const LARK_ORIGINS: readonly string[] = [
  "https://open.feishu.cn",
  "https://open.larksuite.com",
  "https://accounts.feishu.cn",
  "https://accounts.larksuite.com",
];

/**
 * The sign-in host hark derives from a service origin (`open.` becomes `accounts.`), or the
 * origin itself when its host does not start with `open.`.
 *
 * @param origin a service origin, such as `https://open.feishu.cn`
 * @example
 * ```ts
 * accountsOriginOf("https://open.feishu.cn"); // "https://accounts.feishu.cn"
 * ```
 */
export function accountsOriginOf(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.hostname.startsWith("open.")) url.hostname = `accounts.${url.hostname.slice(5)}`;
    return url.origin;
  } catch {
    return origin;
  }
}

/**
 * Reads one trusted origin as the user wrote it: an http(s) URL, of which the origin counts.
 *
 * @param raw the value, such as `https://open.example.com`
 * @param source where it was given, for the message
 * @throws {ValidationError} naming `source` when it is not an http(s) URL
 */
export function parseTrustedOrigin(raw: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
    const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    throw new ValidationError(
      `Invalid ${source} entry ${JSON.stringify(shown)}: expected an http(s) origin such as ` +
        "https://open.example.com",
      {
        param: source,
        suggestion: `Set ${source} to the origins you trust, separated by commas or spaces`,
      },
    );
  }
  return url.origin;
}

/**
 * The origins the user trusts with secrets outside any config file: each entry of
 * `HARK_TRUSTED_ORIGINS` (separated by commas or spaces) and `HARK_BASE_URL`, each with the
 * sign-in host hark derives from it ({@link accountsOriginOf}). Lark's own services are not in
 * it: see {@link isLarkOrigin}.
 *
 * @param env the environment
 * @throws {ValidationError} naming the variable when an entry is not an http(s) URL
 */
export function trustedOrigins(env: Pick<Env, "get">): Set<string> {
  const trusted = new Set<string>();
  const add = (origin: string) => {
    trusted.add(origin);
    trusted.add(accountsOriginOf(origin));
  };
  for (const entry of (env.get(TRUSTED_ORIGINS_VAR) ?? "").split(/[\s,]+/)) {
    if (entry !== "") add(parseTrustedOrigin(entry, TRUSTED_ORIGINS_VAR));
  }
  const base = env.get(BASE_URL_VAR)?.trim();
  if (base) {
    try {
      add(new URL(base).origin);
    } catch {
      // resolveServiceAddress reports a malformed HARK_BASE_URL; it trusts nothing meanwhile.
    }
  }
  return trusted;
}

/**
 * Whether `origin` is one of Lark's or Feishu's own services ({@link LARK_ORIGINS}).
 *
 * @param origin an origin
 */
export function isLarkOrigin(origin: string): boolean {
  return LARK_ORIGINS.includes(origin);
}
