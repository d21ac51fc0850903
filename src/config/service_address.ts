/**
 * Where a profile's service is: `HARK_BASE_URL`, else `apps.<profile>.base_url`, else Lark's
 * public address; and the rule that credentials travel unencrypted only to this machine: an
 * `http://` address is accepted for a loopback host, and for any other host only when
 * `--allow-insecure-http` or `apps.<profile>.allow_insecure_http` says so (the caller then warns
 * every time).
 *
 * @module
 */

import type { Env } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { type AppEntry, type Config, DEFAULT_BASE_URL } from "./config.ts";

/** The variable that sets the service address for every profile (CI without a config file). */
export const BASE_URL_VAR = "HARK_BASE_URL";

/** A profile's service, checked. */
export interface ServiceAddress {
  /** The service address, without a trailing slash. */
  baseUrl: string;
  /** Its origin (scheme, host, port): tokens are bound to it. */
  origin: string;
  /** The device authorization host, without a trailing slash. */
  accountsUrl: string;
  /** What set the address: `HARK_BASE_URL`, `apps.<profile>.base_url`, or `default`. */
  source: string;
  /** Plain HTTP to a host other than this machine, allowed explicitly: warn every time. */
  insecure: boolean;
}

/** Options of {@link resolveServiceAddress}. */
export interface ServiceAddressOptions {
  /** `--allow-insecure-http`: plain HTTP to any host (with a warning). Default false. */
  allowInsecureHttp?: boolean;
}

/**
 * The checked service address of a profile. With `HARK_BASE_URL` set it wins over the config
 * (and the device authorization host derives from it); otherwise `apps.<profile>.base_url` and
 * `accounts_url` apply, with Lark's public address as the default.
 *
 * @param env the environment (`HARK_BASE_URL`)
 * @param config the loaded config
 * @param profile the profile
 * @param options whether plain HTTP to other hosts is allowed on the command line
 * @throws {ValidationError} naming the setting when an address is not an http(s) URL, the base
 *   URL has a path, or an address is `http://` to a host other than this machine without the
 *   allowance
 * @example
 * ```ts
 * resolveServiceAddress(env, { apps: { default: { base_url: "https://open.feishu.cn" } } }, "default");
 * // { baseUrl: "https://open.feishu.cn", accountsUrl: "https://accounts.feishu.cn", … }
 * ```
 */
export function resolveServiceAddress(
  env: Pick<Env, "get">,
  config: Config,
  profile: string,
  options: ServiceAddressOptions = {},
): ServiceAddress {
  const app: AppEntry = config.apps?.[profile] ?? {};
  const allowed = options.allowInsecureHttp === true || app.allow_insecure_http === true;
  const fromEnv = env.get(BASE_URL_VAR)?.trim() || undefined;
  const setting = `apps.${profile}.base_url`;
  const [raw, source] = fromEnv !== undefined
    ? [fromEnv, BASE_URL_VAR]
    : app.base_url !== undefined
    ? [app.base_url, setting]
    : [DEFAULT_BASE_URL, "default"];
  const base = checkAddress(raw, source, profile, allowed, { origin: true });
  const accounts = fromEnv === undefined && app.accounts_url !== undefined
    ? checkAddress(app.accounts_url, `apps.${profile}.accounts_url`, profile, allowed)
    : derivedAccounts(base);
  return {
    baseUrl: trimSlash(base.href),
    origin: base.origin,
    accountsUrl: trimSlash(accounts.href),
    source,
    insecure: [base, accounts].some((url) => url.protocol === "http:" && !isLoopback(url)),
  };
}

/**
 * Whether a URL's host is this machine: `localhost` (and `*.localhost`), `127.0.0.0/8`, `::1`.
 *
 * @param url the URL
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The warning printed every time plain HTTP to another host is used.
 *
 * @param address the service address
 */
export function insecureWarning(address: ServiceAddress): string {
  return `${address.baseUrl} is plain HTTP to another machine: tokens and the app secret ` +
    "travel unencrypted (allowed by --allow-insecure-http or allow_insecure_http)";
}

/**
 * Checks that a service address is an origin: scheme, host and port, trailing `/`s allowed.
 * hark puts the API's paths (`/open-apis/…`) after it, so a path would be doubled.
 *
 * @param url the address, parsed
 * @param raw the address as written (an empty `?` or `#` leaves no trace in `url`)
 * @param setting what holds it, for the message: `HARK_BASE_URL`, a config key or a flag
 * @param command the command that puts the origin in place, if there is one
 * @throws {ValidationError} naming `setting` and suggesting the origin
 * @example
 * ```ts
 * checkOrigin(new URL("http://host/open-apis"), "http://host/open-apis", "HARK_BASE_URL");
 * // throws: Invalid HARK_BASE_URL "http://host/open-apis": expected the service's origin…
 * ```
 */
export function checkOrigin(
  url: URL,
  raw: string,
  setting: string,
  command?: (origin: string) => string,
): void {
  if (/^\/*$/.test(url.pathname) && !/[?#]/.test(raw)) return;
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  throw new ValidationError(
    `Invalid ${setting} ${JSON.stringify(shown)}: expected the service's origin (scheme, host ` +
      "and port) without a path, query or fragment",
    {
      param: setting,
      suggestion: `Use ${url.origin}; hark adds the API's paths (/open-apis/…) itself`,
      command: command?.(url.origin),
    },
  );
}

/** Checks an address; with `origin`, one that must be an origin ({@link checkOrigin}). */
function checkAddress(
  raw: unknown,
  source: string,
  profile: string,
  allowed: boolean,
  options: { origin?: boolean } = {},
): URL {
  const fix = source === BASE_URL_VAR
    ? `Set ${BASE_URL_VAR} to an https:// URL such as https://open.feishu.cn`
    : `Set it to an https:// URL such as https://open.feishu.cn`;
  const command = source === BASE_URL_VAR
    ? ""
    : `hark config set ${source} https://open.larksuite.com`;
  const text = typeof raw === "string" ? raw : undefined;
  let url: URL | undefined;
  try {
    url = text === undefined ? undefined : new URL(text);
  } catch {
    url = undefined;
  }
  const origin = options.origin === true;
  if (
    text === undefined || !url || !["http:", "https:"].includes(url.protocol) ||
    (!origin && (url.search || url.hash))
  ) {
    const shown = text !== undefined
      ? JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)
      : JSON.stringify(raw) ?? String(raw);
    throw new ValidationError(`Invalid ${source} ${shown}: expected an http(s) URL`, {
      param: source,
      suggestion: fix,
      command,
    });
  }
  if (url.username || url.password) {
    throw new ValidationError(`Invalid ${source}: a URL with a user name or password`, {
      param: source,
      suggestion: "Remove the credentials from the URL; hark signs in by itself",
      command,
    });
  }
  if (origin) {
    const setOrigin = source === BASE_URL_VAR
      ? undefined
      : (value: string) => `hark config set ${source} ${value}`;
    checkOrigin(url, text, source, setOrigin);
  }
  if (url.protocol === "http:" && !isLoopback(url) && !allowed) {
    throw new ValidationError(
      `Refusing plain HTTP to "${url.host}" (${source}): tokens and the app secret would travel ` +
        "unencrypted",
      {
        param: source,
        suggestion: `${fix}; plain HTTP is accepted only to this machine (localhost), or with ` +
          `--allow-insecure-http (or apps.${profile}.allow_insecure_http set to true)`,
        command,
      },
    );
  }
  return url;
}

function derivedAccounts(base: URL): URL {
  const url = new URL(base.href);
  if (url.hostname.startsWith("open.")) url.hostname = `accounts.${url.hostname.slice(5)}`;
  return url;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
