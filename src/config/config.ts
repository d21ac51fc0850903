/**
 * The configuration model: the spec's map layout plus `active_profile`. Unknown keys are kept
 * as they are, so a read-modify-write never loses what another version of hark wrote.
 *
 * @module
 */

/** Output formats. */
export const OUTPUT_FORMATS = ["table", "json", "ndjson", "csv"] as const;
/** One of {@link OUTPUT_FORMATS}. */
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/** The default service address. */
export const DEFAULT_BASE_URL = "https://open.larksuite.com";
/** The default device authorization path. */
export const DEFAULT_DEVICE_AUTHORIZATION_PATH = "/oauth/v1/device_authorization";

/** One application profile, `apps.<name>`. */
export interface AppEntry {
  /** The application identifier. */
  app_id?: string;
  /** A SecretInput reference to the app secret, such as `@keychain:hark/default/app_secret`. */
  app_secret?: string;
  /** The service address; default {@link DEFAULT_BASE_URL}. */
  base_url?: string;
  /** The device authorization host; derived from `base_url` when absent. */
  accounts_url?: string;
  /** The device authorization path; default {@link DEFAULT_DEVICE_AUTHORIZATION_PATH}. */
  device_authorization_path?: string;
  /** A program that prints a token as JSON (the `command` credential provider). */
  credential_command?: string[];
  /**
   * Plain `http://` to a host other than this machine is accepted (with a warning every time);
   * default false: only loopback addresses may be `http://`.
   */
  allow_insecure_http?: boolean;
  [key: string]: unknown;
}

/** A signed-in user, `users.<profile>`. */
export interface UserEntry {
  /** A SecretInput reference to the stored token record. */
  access_token?: string;
  /** The identity kind; `user`. */
  user_type?: string;
  /** The user's open id. */
  open_id?: string;
  /** The user's name. */
  name?: string;
  /** The user's email. */
  email?: string;
  /** Granted scopes. */
  scopes?: string[];
  /** When the access token expires, RFC 3339. */
  expires_at?: string;
  /** When the refresh token expires, RFC 3339. */
  refresh_expires_at?: string;
  [key: string]: unknown;
}

/** `preferences`. */
export interface Preferences {
  /** The default output format. */
  output_format?: OutputFormat;
  /** Colours on or off. */
  color?: boolean;
  /**
   * The keychain backend to keep secrets in (`auto`, `macos`, `linux`, `windows`, `file`), as
   * `config init` chose it where the OS keychain cannot be used; `HARK_KEYCHAIN` overrides it.
   */
  keychain?: string;
  [key: string]: unknown;
}

/** The whole configuration file. */
export interface Config {
  /** Application profiles by name. */
  apps?: Record<string, AppEntry>;
  /** Signed-in users by profile name. */
  users?: Record<string, UserEntry>;
  /** Preferences. */
  preferences?: Preferences;
  /** The profile `profile use` made active. */
  active_profile?: string;
  /**
   * The namespace of this config's keychain entries (`hark/<namespace>/<profile>/<name>`),
   * chosen at `config init` for a config at another path than the default one, so that two
   * config files never share secrets. Absent: the entries are `hark/<profile>/<name>`.
   */
  keychain_namespace?: string;
  [key: string]: unknown;
}

/**
 * The configured service address of an app, without a trailing slash, for display. Requests use
 * {@link resolveServiceAddress}, which also applies `HARK_BASE_URL` and checks the address.
 *
 * @param app the app entry
 */
export function baseUrl(app: AppEntry): string {
  return trimSlash(app.base_url ?? DEFAULT_BASE_URL);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
