/**
 * The command tree: the root `hark` command with its global flags, the system commands and the
 * shortcut groups. Describing it loads no command's implementation and reads nothing.
 *
 * @module
 */

import { apiCommand } from "./api/api.ts";
import { authCommand } from "./auth/auth.ts";
import type { CatalogueRef } from "./catalogue/catalogue_ref.ts";
import type { CommandSpec } from "./command_spec.ts";
import { completionCommand } from "./completion/completion.ts";
import { configCommand } from "./config/config.ts";
import { eventCommand } from "./event/event.ts";
import { GLOBAL_FLAGS } from "./globals.ts";
import { mcpCommand } from "./mcp/mcp.ts";
import { profileCommand } from "./profile/profile.ts";
import { schemaCommand } from "./schema/schema.ts";
import { serviceCommands } from "./service_commands.ts";
import { skillsCommand } from "./skills/skills.ts";

/**
 * Builds the whole command tree. The API services and resources are found in the catalogue only
 * when a command names one, so describing the tree loads nothing of it.
 *
 * @param services the service groups; default every registered one, listing their API
 *   resources after their shortcuts
 * @param catalogue the API catalogue (`catalogueRef(ctx)` for the one beside hark); without
 *   it, the tree has the system commands and the shortcuts only
 */
export function buildRoot(services?: CommandSpec[], catalogue?: CatalogueRef): CommandSpec {
  const groups = services ?? serviceCommands(undefined, catalogue);
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
    notes: "Every Open Platform API method is a command too: hark <service> <resource> <method> " +
      "(docx, drive, task, wiki, …; hark <service> --help lists them, hark schema --kind api " +
      "describes them all)\n" +
      "Environment: HARK_CONFIG, HARK_PROFILE, HARK_KEYCHAIN, HARK_USER_ACCESS_TOKEN, " +
      "HARK_TENANT_ACCESS_TOKEN, HARK_TRUSTED_ORIGINS, NO_COLOR, HARK_DEBUG\n\n" +
      "Secrets from the environment (@env: in a config file, HARK_APP_SECRET) go only to " +
      "Lark's services or to origins you trust in HARK_TRUSTED_ORIGINS (comma separated) or " +
      "HARK_BASE_URL; a config file or credential command other users can write is refused.",
    commands: [
      authCommand,
      configCommand,
      profileCommand,
      apiCommand,
      ...groups,
      eventCommand(catalogue),
      schemaCommand(() => root, catalogue),
      mcpCommand,
      skillsCommand,
      completionCommand(() => root),
    ],
    ...(catalogue && {
      moreCommands: async () =>
        (await import("./catalogue/api_commands.ts")).apiServiceCommands(
          catalogue,
          [...groups.map((g) => g.name), "event"],
        ),
    }),
  };
  return root;
}
