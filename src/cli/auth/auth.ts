/**
 * The `auth` command group: `login`, `logout`, `status`, `check`, `token`. Each verb's code is in
 * its own file and loads only when that verb runs.
 *
 * @module
 */

import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

const scopeFlag = (description: string) => flag.list("<scope>", { description });

/** The flags of `auth login`. */
export const LOGIN_FLAGS = {
  scope: scopeFlag(
    "a permission to add to those already granted (space/comma separated too); " +
      "default: all hark needs",
  ),
  "no-wait": flag.negated({
    description: "print the device code and the sign-in URL, and return without waiting",
  }),
  wait: flag.string("<duration>", {
    description: "how long to wait for approval after the first poll, such as 30s or 5m; " +
      "then exit 75 with the state pending (default: as long as the code lives on a " +
      "terminal; without one, none: the sign-in starts as with --no-wait --json and exits 75, " +
      "and --device-code polls once)",
  }),
  "device-code": flag.string("<code>", { description: "finish a sign-in started with --no-wait" }),
  force: flag.bool({
    description: "replace a stored sign-in this config file does not refer to (another " +
      "config file's)",
  }),
};

/** The flags of `auth check`. */
export const CHECK_FLAGS = { scope: scopeFlag("a scope to check (space/comma separated too)") };

/** The flags of `auth status`. */
export const STATUS_FLAGS = {
  offline: flag.bool({
    description: "read the stored sign-in only, without asking the service whether it still " +
      "works",
  }),
};

/** `hark auth`. */
export const authCommand: CommandSpec = {
  name: "auth",
  description: "Sign in and out, and inspect the sign-in",
  examples: ["hark auth login", "hark auth status --json"],
  commands: [
    defineCommand({
      name: "login",
      description: "Sign in with the device flow: approve in a browser, on any device",
      flags: LOGIN_FLAGS,
      examples: [
        "hark auth login",
        "hark auth login --scope calendar:calendar:read --scope im:message.send_as_user",
        "hark auth login --no-wait --json  # hand the URL to a person",
        "hark auth login --device-code <device_code>  # then finish: one poll, or exit 75 pending",
        "hark auth login --device-code <device_code> --wait 5m  # or wait up to 5 minutes",
      ],
      run: async (call) => (await import("./login.ts")).runLogin(call),
    }),
    {
      name: "logout",
      description: "Sign out: delete the stored tokens and the user entry; a hark still " +
        "running (hark mcp too) stops using them at its next call",
      examples: ["hark auth logout", "hark auth logout --profile work"],
      run: async (call) => (await import("./logout.ts")).runLogout(call),
    },
    defineCommand({
      name: "status",
      description: "Show the sign-in state: valid, needs_refresh, expired, needs_login or " +
        "signed_out, checked with the service (at most 5 s; --offline: the stored sign-in only)",
      flags: STATUS_FLAGS,
      examples: ["hark auth status", "hark auth status --json", "hark auth status --offline"],
      run: async (call) => (await import("./status.ts")).runStatus(call),
    }),
    defineCommand({
      name: "check",
      description:
        "Check that the signed-in user granted the scopes a shortcut needs, or the given ones",
      args: [
        { name: "service", description: "a service, such as calendar", required: false },
        { name: "verb", description: "a shortcut of it, such as +agenda", required: false },
      ],
      flags: CHECK_FLAGS,
      examples: [
        "hark auth check calendar +agenda",
        "hark auth check --scope calendar:calendar.event:read",
      ],
      run: async (call) => (await import("./check.ts")).runCheck(call),
    }),
    {
      name: "token",
      description: "Print the current access token, refreshed first if needed (for piping); " +
        "--json adds its expiry and identity",
      examples: [
        "hark auth token",
        'hark auth token --json  # {"access_token", "expires_at", "identity"}',
        'curl -H "Authorization: Bearer $(hark auth token)" https://open.larksuite.com/open-apis/authen/v1/user_info',
      ],
      run: async (call) => (await import("./token.ts")).runToken(call),
    },
  ],
};
