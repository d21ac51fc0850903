/**
 * The command tree: the root `hark` command with its global flags, the system commands and the
 * shortcut groups.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { VERSION } from "../version.ts";
import { apiCommand } from "./api.ts";
import { authCommand } from "./auth.ts";
import { completionCommand } from "./completion.ts";
import { configCommand } from "./config.ts";
import { addGlobalOptions } from "./globals.ts";
import { withExamples } from "./help.ts";
import { profileCommand } from "./profile.ts";
import { schemaCommand } from "./schema.ts";
import { shortcutCommands } from "../shortcuts/register.ts";

/**
 * Builds the whole command tree. Nothing here reads config or opens a connection: that happens
 * in the action of the command that runs.
 *
 * @param ctx the context
 */
export function buildRoot(ctx: Context): CommandUnknownOpts {
  const root = addGlobalOptions(
    new Command("hark")
      .description(
        "hark: the Lark / Feishu Open Platform from your terminal (calendar, contacts, IM)",
      )
      .version(VERSION, "-V, --version", "print the version"),
  );
  withExamples(root, [
    "hark config init",
    "hark auth login",
    "hark calendar +agenda --start 2026-11-01 --end 2026-11-30",
    "hark im +send --chat-id oc_123 --text 'Deploy finished'",
  ]);
  root.addHelpText(
    "after",
    "\nEnvironment: HARK_CONFIG, HARK_PROFILE, HARK_KEYCHAIN, HARK_USER_ACCESS_TOKEN, " +
      "HARK_TENANT_ACCESS_TOKEN, NO_COLOR, HARK_DEBUG\n",
  );
  const commands: Command[] = [
    authCommand(ctx),
    configCommand(ctx),
    profileCommand(ctx),
    apiCommand(ctx),
  ];
  commands.push(...shortcutCommands(ctx), schemaCommand(ctx));
  for (const command of commands) root.addCommand(command);
  const tree = root as unknown as CommandUnknownOpts;
  root.addCommand(completionCommand(ctx, () => tree) as unknown as Command);
  return tree;
}
