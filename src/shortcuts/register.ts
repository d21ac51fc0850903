/**
 * Turns shortcut definitions into commander commands: `hark <service> +<verb>`, grouped under one
 * command per service.
 *
 * @module
 */

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { withExamples } from "../cli/help.ts";
import { type AnyShortcut, identitiesOf } from "./definition.ts";
import { type ClientFactory, runShortcutCommand } from "./lifecycle.ts";
import { envVarOf, flagOf, paramHelp, valueNameOf } from "./params.ts";
import { SERVICES } from "./registry.ts";
import type { ServiceGroup } from "./service_group.ts";
import { apiClientFactory } from "./api_client_factory.ts";

/** Options of {@link shortcutCommands}. */
export interface ShortcutCommandsOptions {
  /** The groups; default every registered one. */
  services?: readonly ServiceGroup[];
  /** Resolves tokens and builds the client; default the real credential chain and client. */
  createClient?: ClientFactory;
}

/**
 * One group command per service (`hark calendar`, `hark contact`, `hark im`), each holding its
 * shortcut commands. Building them reads nothing and opens nothing.
 *
 * @param ctx the context
 * @param options the groups and the client factory
 */
export function shortcutCommands(
  ctx: Context,
  options: ShortcutCommandsOptions = {},
): Command[] {
  const createClient = options.createClient ?? apiClientFactory;
  return (options.services ?? SERVICES).map((group) => {
    const command = new Command(group.name).description(group.description);
    withExamples(command as unknown as CommandUnknownOpts, group.examples);
    for (const shortcut of group.shortcuts) {
      command.addCommand(shortcutCommand(ctx, shortcut, createClient) as unknown as Command);
    }
    return command as unknown as Command;
  });
}

/**
 * The command of one shortcut: a flag per parameter (help shows type, required, default and
 * allowed values), `--input`, the examples, identities, scopes and environment variables.
 *
 * @param ctx the context
 * @param shortcut the definition
 * @param createClient resolves tokens and builds the client
 */
export function shortcutCommand(
  ctx: Context,
  shortcut: AnyShortcut,
  createClient: ClientFactory = apiClientFactory,
): CommandUnknownOpts {
  const command = new Command(shortcut.verb).description(shortcut.description);
  for (const param of shortcut.params) {
    const flags = param.type === "bool" ? flagOf(param) : `${flagOf(param)} ${valueNameOf(param)}`;
    command.addOption(new Option(flags, paramHelp(param)));
  }
  command.addOption(
    new Option("--input <path>", "a JSON file of parameter values; - reads it from stdin"),
  );
  const typed = command as unknown as CommandUnknownOpts;
  withExamples(typed, shortcut.examples);
  const identities = identitiesOf(shortcut);
  typed.addHelpText(
    "after",
    `\nIdentities: ${identities.join(", ")} (default ${identities[0]}; choose with --as)\n` +
      `Scopes: ${shortcut.scopes.join(", ") || "none"}\n` +
      "Values come from flags, then --input, then stdin, then environment variables " +
      `(${shortcut.params.slice(0, 2).map((p) => envVarOf(shortcut.service, p)).join(", ")}, …)\n`,
  );
  command.action(async (_opts, cmd) => {
    await runShortcutCommand(ctx, shortcut, cmd as unknown as CommandUnknownOpts, createClient);
  });
  return typed;
}
