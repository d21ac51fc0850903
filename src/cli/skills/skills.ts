/**
 * The `skills` command group: `list` and `install` the agent skills built into hark.
 *
 * @module
 */

import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/** The flags of `skills install`. */
export const INSTALL_FLAGS = {
  force: flag.bool({
    description: "replace skill files that were changed since they were installed",
  }),
};

/** `hark skills`. */
export const skillsCommand: CommandSpec = {
  name: "skills",
  description: "The agent skills (SKILL.md) for calendar, contact, im and the API commands",
  examples: ["hark skills list", "hark skills install ~/.claude/skills"],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "List the skills built into hark",
      examples: ["hark skills list", "hark skills list --json"],
      run: async (call) => (await import("./install.ts")).runSkillsList(call),
    },
    defineCommand({
      name: "install",
      description: "Write each skill to <dir>/<name>/SKILL.md, where an agent host finds it",
      details: "Claude Code reads ~/.claude/skills (every project) and .claude/skills (one " +
        "project). A file changed since it was installed is left alone unless --force is given; " +
        "--dry-run lists what would be written.",
      args: [{ name: "dir", description: "the skills folder of the agent host", required: true }],
      flags: INSTALL_FLAGS,
      examples: [
        "hark skills install ~/.claude/skills",
        "hark skills install .claude/skills --dry-run",
      ],
      run: async (call) => (await import("./install.ts")).runSkillsInstall(call),
    }),
  ],
};
