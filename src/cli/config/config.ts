/**
 * The `config` command group: `init`, `get`, `set`.
 *
 * @module
 */

import { OUTPUT_FORMATS } from "../../config/config.ts";
import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/**
 * The keys completion offers to `config get` and `config set`: those every config has (the
 * `apps.<profile>.…` keys depend on the profiles, which a static script cannot know).
 */
export const CONFIG_KEY_SUGGESTIONS = [
  "preferences.output_format",
  "preferences.color",
  "active_profile",
] as const;

/** The flags of `config init`. */
export const INIT_FLAGS = {
  "non-interactive": flag.bool({ description: "never prompt; missing values are errors" }),
  "app-id": flag.string("<id>", { description: "the app id, such as cli_a1b2c3" }),
  "app-secret": flag.string("<secret>", {
    description: "the app secret (prefer --app-secret-stdin)",
  }),
  "app-secret-stdin": flag.bool({ description: "read the app secret from stdin" }),
  "base-url": flag.string("<url>", {
    description: "lark, feishu, or the URL of a private deployment",
  }),
  "output-format": flag.string("<format>", {
    description: `default output format: auto (a table on a terminal, JSON when piped; ` +
      `the default), ${OUTPUT_FORMATS.join(", ")}`,
  }),
  force: flag.bool({ description: "replace an existing profile without asking" }),
};

/** `hark config`. */
export const configCommand: CommandSpec = {
  name: "config",
  description: "Read and change settings",
  examples: [
    "hark config get preferences.output_format",
    "hark config set apps.default.base_url https://open.feishu.cn",
  ],
  commands: [
    defineCommand({
      name: "init",
      description:
        "Create or replace an app profile; the app secret goes to the keychain, never the file",
      flags: INIT_FLAGS,
      examples: [
        "hark config init",
        'printf %s "$APP_SECRET" | hark config init --non-interactive --app-id cli_a1b2c3 --app-secret-stdin',
        "hark config init --profile feishu --base-url feishu --app-id cli_x --app-secret-stdin < secret.txt",
      ],
      run: async (call) => (await import("./init.ts")).runConfigInit(call),
    }),
    {
      name: "get",
      description: "Print a setting (secrets show as references, never values)",
      args: [{
        name: "key",
        description: "dot path, such as preferences.output_format; omit for all",
        required: false,
        suggestions: CONFIG_KEY_SUGGESTIONS,
      }],
      examples: [
        "hark config get preferences.output_format",
        "hark config get apps.default --json",
        "hark config get",
      ],
      run: async (call) => (await import("./get.ts")).runConfigGet(call),
    },
    {
      name: "set",
      description: "Change a setting; the value is checked against the key",
      args: [
        {
          name: "key",
          description: "dot path, such as apps.default.base_url",
          required: true,
          suggestions: CONFIG_KEY_SUGGESTIONS,
        },
        { name: "value", description: "the new value", required: true },
      ],
      examples: [
        "hark config set preferences.output_format json",
        "hark config set preferences.color false",
        "hark config set apps.default.base_url https://open.feishu.cn",
        "hark config set apps.work.app_secret @env:WORK_APP_SECRET",
      ],
      notes: "Settable keys:\n  preferences.output_format  table, json or csv\n" +
        "  preferences.color          true or false\n  active_profile             a profile name\n" +
        "  apps.<profile>.app_id, app_secret (@keychain: or @env: reference), base_url,\n" +
        "  accounts_url, device_authorization_path, credential_command (JSON array)\n\n" +
        "An @env: secret is sent only to Lark's services (open.feishu.cn, open.larksuite.com) " +
        "or to an origin listed in HARK_TRUSTED_ORIGINS (or HARK_BASE_URL); a @keychain: " +
        "reference must name this config file's own entry.",
      run: async (call) => (await import("./set.ts")).runConfigSet(call),
    },
  ],
};
