/**
 * The service groups as commands (`hark calendar`): their names, help and examples are known at
 * once; their shortcut commands (`shortcut_commands.ts`, with the shortcut framework and the
 * shortcuts) load only when a word names the group's commands, and its API resources only when
 * a word names none of the shortcuts.
 *
 * @module
 */

import { SERVICE_ENTRIES, type ServiceEntry } from "../shortcuts/service_entries.ts";
import type { CatalogueRef } from "./catalogue/catalogue_ref.ts";
import type { CommandSpec } from "./command_spec.ts";

/**
 * The group command of every service: its shortcuts, then (given the catalogue) its API
 * resources, which load only when a word names none of the shortcuts.
 *
 * @param entries the services; default every registered one
 * @param catalogue the API catalogue, whose resources of the same service the group lists
 */
export function serviceCommands(
  entries: readonly ServiceEntry[] = SERVICE_ENTRIES,
  catalogue?: CatalogueRef,
): CommandSpec[] {
  return entries.map((entry) => ({
    name: entry.name,
    description: entry.description,
    examples: entry.examples,
    loadCommands: async () => {
      const [{ shortcutCommand }, shortcuts] = await Promise.all([
        import("./shortcut_commands.ts"),
        entry.load(),
      ]);
      return shortcuts.map(shortcutCommand);
    },
    ...(catalogue && {
      moreCommands: async () =>
        (await import("./catalogue/api_commands.ts")).apiResourceCommands(catalogue, entry.name),
      moreHeading: "API resources",
    }),
  }));
}
