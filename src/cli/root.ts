/**
 * The command tree: the root `hark` command with its global flags, the system commands and the
 * shortcut groups. Describing it loads no command's implementation and reads nothing.
 *
 * @module
 */

import { apiCommand } from "./api/api.ts";
import { authCommand } from "./auth/auth.ts";
import type { CommandSpec } from "./command_spec.ts";
import { completionCommand } from "./completion/completion.ts";
import { configCommand } from "./config/config.ts";
import { GLOBAL_FLAGS } from "./globals.ts";
import { mcpCommand } from "./mcp/mcp.ts";
import { profileCommand } from "./profile/profile.ts";
import { schemaCommand } from "./schema/schema.ts";
import { serviceCommands } from "./shortcut_commands.ts";

/**
 * Builds the whole command tree.
 *
 * @param services the service groups; default every registered one
 */
export function buildRoot(services: CommandSpec[] = serviceCommands()): CommandSpec {
  const root: CommandSpec = {
    name: "hark",
    description:
      "hark: the Lark / Feishu Open Platform from your terminal (calendar, contacts, IM)",
    flags: GLOBAL_FLAGS,
    examples: [
      "hark config init",
      "hark auth login",
      "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
      "hark im +send --chat-id oc_123 --text 'Deploy finished'",
    ],
    notes: "Environment: HARK_CONFIG, HARK_PROFILE, HARK_KEYCHAIN, HARK_USER_ACCESS_TOKEN, " +
      "HARK_TENANT_ACCESS_TOKEN, HARK_TRUSTED_ORIGINS, NO_COLOR, HARK_DEBUG\n\n" +
      "Secrets from the environment (@env: in a config file, HARK_APP_SECRET) go only to " +
      "Lark's services or to origins you trust in HARK_TRUSTED_ORIGINS (comma separated) or " +
      "HARK_BASE_URL; a config file or credential command other users can write is refused.",
    commands: [
      authCommand,
      configCommand,
      profileCommand,
      apiCommand,
      ...services,
      schemaCommand(() => root),
      mcpCommand,
      completionCommand(() => root),
    ],
  };
  return root;
}
