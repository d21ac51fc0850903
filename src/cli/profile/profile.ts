/**
 * The `profile` command group: `list`, `use`, `remove`.
 *
 * @module
 */

import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

const nameArg = {
  name: "name",
  description: "the profile",
  required: true,
  dynamicValues: "profiles",
} as const;

/** The flags of `profile remove`. */
export const REMOVE_FLAGS = {
  yes: flag.bool({ short: "y", description: "do not ask for confirmation" }),
};

/** `hark profile`. */
export const profileCommand: CommandSpec = {
  name: "profile",
  description: "List, switch and remove app profiles",
  examples: ["hark profile list", "hark profile use work"],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "List the app profiles; * marks the active one",
      examples: ["hark profile list", "hark profile list --format csv"],
      run: async (call) => (await import("./list.ts")).runProfileList(call),
    },
    {
      name: "use",
      description: "Make a profile the active one",
      args: [nameArg],
      examples: ["hark profile use work"],
      run: async (call) => (await import("./use.ts")).runProfileUse(call),
    },
    defineCommand({
      name: "remove",
      aliases: ["rm"],
      description: "Remove a profile and delete its keychain entries",
      args: [nameArg],
      flags: REMOVE_FLAGS,
      examples: ["hark profile remove old-app --yes"],
      run: async (call) => (await import("./remove.ts")).runProfileRemove(call),
    }),
  ],
};
