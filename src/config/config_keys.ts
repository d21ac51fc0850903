/**
 * The settable config keys and how their values are checked.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";
import { isOneOf } from "../json/is_one_of.ts";
import { readJson } from "../json/read_json.ts";
import {
  type Config,
  DEFAULT_BASE_URL,
  DEFAULT_DEVICE_AUTHORIZATION_PATH,
  OUTPUT_FORMATS,
} from "./config.ts";
import { checkProfileName } from "./profile.ts";
import { parseSecretInput } from "./secret_input.ts";
import { PREFERENCE_CHOICES } from "../keychain/backend_name.ts";
import { checkOrigin } from "./service_address.ts";

/** A settable key. */
interface KeySpec {
  /** The key, with `<profile>` standing for a profile name. */
  key: string;
  /** What the value must be, for help and errors. */
  describe: string;
  /** Checks and converts the text given on the command line. */
  parse(value: string, key: string): unknown;
  /** Whether the value is a secret reference. */
  secret?: boolean;
  /**
   * The command that puts a good value in place of a bad one at `key` (`value`, as the file
   * holds it), for a hand-edited file.
   */
  fix?: (key: string, value: unknown) => string;
}

const PROFILE = "<profile>";

/** The keys `config set` accepts. */
export const CONFIG_KEYS: readonly KeySpec[] = [
  {
    key: "preferences.output_format",
    describe: `one of auto, ${OUTPUT_FORMATS.join(", ")} (auto: a table on a terminal, JSON ` +
      "when piped)",
    // `auto` is the absence of a preference: setting it removes the key.
    parse: (value, key) => value === "auto" ? undefined : oneOf(value, key, OUTPUT_FORMATS),
    fix: (key) => `hark config set ${key} auto`,
  },
  {
    key: "preferences.color",
    describe: "true or false",
    fix: (key) => `hark config set ${key} true`,
    parse: (value, key) => bool(value, key),
  },
  {
    key: "preferences.keychain",
    describe: `one of ${PREFERENCE_CHOICES.join(", ")}: where secrets are kept ` +
      "(HARK_KEYCHAIN overrides it)",
    fix: (key) => `hark config set ${key} auto`,
    parse: (value, key) => oneOf(value.toLowerCase(), key, PREFERENCE_CHOICES),
  },
  {
    key: "active_profile",
    describe: "a profile name",
    parse: (value, key) => checkProfileName(value, key),
  },
  {
    key: `apps.${PROFILE}.app_id`,
    describe: "the app id, such as cli_a1b2c3",
    fix: (key) => `hark config init --force${profileFlag(key)}`,
    parse: (value, key) => {
      if (!/^[\x21-\x7e]{1,128}$/.test(value)) {
        throw invalid(key, value, "an app id such as cli_a1b2c3");
      }
      return value;
    },
  },
  {
    key: `apps.${PROFILE}.app_secret`,
    describe: "a reference: @keychain:hark/<profile>/app_secret or @env:VAR",
    secret: true,
    fix: (key) => `hark config init --force${profileFlag(key)}`,
    parse: (value, key) => {
      const input = parseSecretInput(value);
      if (input.kind === "keychain" && input.path.trim() !== "") return value;
      if (input.kind === "env" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(input.name)) return value;
      if (input.kind === "keychain" || input.kind === "env") {
        throw invalid(key, value, "@keychain:<path> or @env:<VARIABLE_NAME>");
      }
      throw new ValidationError(
        `Refusing to write a plaintext secret to "${key}": use a @keychain: or @env: reference`,
        {
          param: key,
          suggestion: "Store the secret in the keychain with hark config init (it asks for the " +
            "secret on a terminal, or reads it from stdin with --app-secret-stdin)",
          command: `hark config init --force${profileFlag(key)}`,
        },
      );
    },
  },
  {
    key: `apps.${PROFILE}.base_url`,
    describe: "the service's origin: an http(s) URL without a path, such as https://open.feishu.cn",
    fix: (key, value) => `hark config set ${key} ${originOf(value) ?? DEFAULT_BASE_URL}`,
    parse: (value, key) => httpUrl(value, key, { origin: true }),
  },
  {
    key: `apps.${PROFILE}.allow_insecure_http`,
    describe: "true or false: accept plain http:// to a host other than this machine (warned " +
      "every time)",
    parse: (value, key) => bool(value, key),
  },
  {
    key: `apps.${PROFILE}.accounts_url`,
    describe: "an http(s) URL, such as https://accounts.feishu.cn",
    fix: (key) => `hark config set ${key} https://accounts.larksuite.com`,
    parse: (value, key) => httpUrl(value, key),
  },
  {
    key: `apps.${PROFILE}.device_authorization_path`,
    describe: "a path starting with /",
    fix: (key) => `hark config set ${key} ${DEFAULT_DEVICE_AUTHORIZATION_PATH}`,
    parse: (value, key) => {
      if (!/^\/[\x21-\x7e]*$/.test(value)) throw invalid(key, value, "a path starting with /");
      return value;
    },
  },
  {
    key: `apps.${PROFILE}.credential_command`,
    describe: 'a JSON array: the program and its arguments, such as ["vault-token","hark"]',
    fix: (key) => `hark config set ${key} '["vault-token","hark"]'`,
    parse: (value, key) => {
      // The command's arguments may hold a token: errors never quote the value.
      const expected = 'a JSON array of strings, such as ["vault-token","hark"]';
      const parsed = readJson(value, {
        source: `the value of "${key}"`,
        param: key,
        suggestion: `Give ${expected}`,
      });
      if (
        !Array.isArray(parsed) || parsed.length === 0 ||
        !parsed.every((p) => typeof p === "string" && p.length > 0)
      ) {
        throw new ValidationError(`Invalid value for "${key}": expected ${expected}`, {
          param: key,
        });
      }
      return parsed;
    },
  },
];

/** Names of keys whose values are secret references. */
export const SECRET_FIELDS = new Set(["app_secret", "access_token"]);

/**
 * Finds the spec of a settable key, checking any profile name in it.
 *
 * @param key a dot path such as `apps.default.base_url`
 * @throws {ValidationError} listing the settable keys when `key` is not one
 */
export function findKeySpec(key: string): KeySpec {
  const parts = key.split(".");
  for (const spec of CONFIG_KEYS) {
    const pattern = spec.key.split(".");
    if (pattern.length !== parts.length) continue;
    const matches = pattern.every((p, i) => p === PROFILE || p === parts[i]);
    if (!matches) continue;
    pattern.forEach((p, i) => {
      if (p === PROFILE) checkProfileName(parts[i], key);
    });
    return spec;
  }
  const hint = key.startsWith("users.") ? "; users.* is managed by hark auth login and logout" : "";
  throw new ValidationError(`Unknown config key "${key}"${hint}`, {
    param: key,
    suggestion: `Settable keys: ${CONFIG_KEYS.map((s) => s.key).join(", ")}`,
    command: "hark config set --help",
  });
}

/**
 * Checks the values a command is about to use: the profile's app entry (`apps.<profile>.*`) and
 * `preferences`, as a person may have edited them by hand. Every settable key that is present
 * must hold what `config set` would have accepted; keys hark does not know are left alone.
 *
 * @param config the loaded config
 * @param profile the profile in use
 * @param configPath the config file's path, for the message
 * @throws {ValidationError} naming the first bad key, with a command that sets a good value
 */
export function checkConfigValues(config: Config, profile: string, configPath: string): void {
  // The shapes of `apps.<profile>` and of `preferences` are checked when the file is read.
  const entries = [
    ...Object.entries(config.apps?.[profile] ?? {}).map(([name, value]) =>
      [`apps.${profile}.${name}`, value] as const
    ),
    ...Object.entries(config.preferences ?? {}).map(([name, value]) =>
      [`preferences.${name}`, value] as const
    ),
  ];
  for (const [key, value] of entries) {
    const spec = CONFIG_KEYS.find((s) => matches(s.key, key));
    if (!spec || value === undefined) continue;
    if (spec.secret) {
      if (typeof value !== "string" || value === "") {
        throw handEdited(key, value, spec.describe, configPath, spec);
      }
      continue;
    }
    const text = typeof value === "string"
      ? value
      : Array.isArray(value) || typeof value === "boolean"
      ? JSON.stringify(value)
      : undefined;
    try {
      if (text === undefined) throw new Error("wrong type");
      spec.parse(text, key);
    } catch {
      throw handEdited(key, value, spec.describe, configPath, spec);
    }
  }
}

function matches(pattern: string, key: string): boolean {
  const a = pattern.split(".");
  const b = key.split(".");
  return a.length === b.length && a.every((part, i) => part === PROFILE || part === b[i]);
}

function handEdited(
  key: string,
  value: unknown,
  expected: string,
  configPath: string,
  spec: { fix?: (key: string, value: unknown) => string },
): ValidationError {
  const shown = JSON.stringify(value) ?? String(value);
  return new ValidationError(
    `Invalid value ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown} for "${key}" in ` +
      `"${configPath}": expected ${expected}`,
    {
      param: key,
      suggestion: "Set a valid value, or edit the file",
      command: spec.fix ? spec.fix(key, value) : `hark config get ${key}`,
    },
  );
}

/** ` --profile <name>` for a key under `apps.<name>` other than the default, else nothing. */
function profileFlag(key: string): string {
  const profile = key.split(".")[1];
  return profile === undefined || profile === "default" ? "" : ` --profile ${profile}`;
}

function bool(value: string, key: string): boolean {
  if (["true", "on", "yes", "1"].includes(value.toLowerCase())) return true;
  if (["false", "off", "no", "0"].includes(value.toLowerCase())) return false;
  throw invalid(key, value, "true or false");
}

function oneOf<T extends string>(value: string, key: string, allowed: readonly T[]): T {
  if (isOneOf(allowed, value)) return value;
  throw invalid(key, value, `one of ${allowed.join(", ")}`);
}

/**
 * An http(s) URL without a trailing slash; with `origin`, one without a path, query or fragment
 * ({@link checkOrigin}).
 */
function httpUrl(value: string, key: string, options: { origin?: boolean } = {}): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const origin = options.origin === true;
  if (
    !url || !["http:", "https:"].includes(url.protocol) ||
    (!origin && (url.search || url.hash)) || url.hostname.length > 253
  ) {
    throw invalid(key, value, "an http(s) URL such as https://open.feishu.cn");
  }
  if (origin) {
    // Also checks `config init --base-url` (key "--base-url"), which has no such command.
    const setOrigin = key.startsWith("apps.")
      ? (value: string) => `hark config set ${key} ${value}`
      : undefined;
    checkOrigin(url, value, key, setOrigin);
  }
  return value.replace(/\/+$/, "");
}

/** The origin of an http(s) URL, or `undefined` when `value` is not one. */
function originOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return ["http:", "https:"].includes(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function invalid(key: string, value: string, expected: string): ValidationError {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return new ValidationError(
    `Invalid value ${JSON.stringify(shown)} for "${key}": expected ${expected}`,
    {
      param: key,
    },
  );
}
