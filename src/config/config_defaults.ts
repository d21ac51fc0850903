/**
 * What a settable config key means when it is not set: `hark config get` prints it, marked as
 * the default.
 *
 * @module
 */

import { type Config, DEFAULT_BASE_URL, DEFAULT_DEVICE_AUTHORIZATION_PATH } from "./config.ts";
import { resolveServiceAddress } from "./service_address.ts";

/** Defaults of the keys outside `apps.<profile>`. */
const TOP_LEVEL: Readonly<Record<string, string | boolean>> = {
  "preferences.output_format": "auto",
  "preferences.color": true,
  "preferences.keychain": "auto",
  "active_profile": "default",
};

/** Defaults of the keys under `apps.<profile>`, from the profile's own settings. */
const PER_APP: Readonly<Record<string, (config: Config, profile: string) => string | boolean>> = {
  base_url: () => DEFAULT_BASE_URL,
  device_authorization_path: () => DEFAULT_DEVICE_AUTHORIZATION_PATH,
  allow_insecure_http: () => false,
  accounts_url: (config, profile) => accountsUrlOf(config, profile),
};

/**
 * The value an unset key stands for, or `undefined` when the key has none (an app id, a secret,
 * a key of a profile that does not exist, a key hark does not know).
 *
 * @param config the loaded config
 * @param key a dot path such as `apps.default.base_url`
 * @example
 * ```ts
 * defaultOf({ apps: { default: {} } }, "apps.default.base_url"); // "https://open.larksuite.com"
 * ```
 */
export function defaultOf(config: Config, key: string): string | boolean | undefined {
  if (Object.hasOwn(TOP_LEVEL, key)) return TOP_LEVEL[key];
  const parts = key.split(".");
  if (parts.length !== 3 || parts[0] !== "apps") return undefined;
  const [, profile, field] = parts;
  if (!Object.hasOwn(config.apps ?? {}, profile) || !Object.hasOwn(PER_APP, field)) {
    return undefined;
  }
  return PER_APP[field](config, profile);
}

/** The sign-in host derived from the profile's base URL (what hark uses when none is set). */
function accountsUrlOf(config: Config, profile: string): string {
  try {
    return resolveServiceAddress({ get: () => undefined }, config, profile).accountsUrl;
  } catch {
    // A bad base URL: `config get` of it reports that; the derived host is the default one's.
    return resolveServiceAddress({ get: () => undefined }, {}, profile).accountsUrl;
  }
}
