/**
 * `hark completion bash|zsh|fish`: shell completion scripts generated from the command tree.
 *
 * @module
 */

import { ValidationError } from "../../errors/hark_error.ts";
import { isOneOf } from "../../json/is_one_of.ts";
import type { CommandSpec } from "../command_spec.ts";

/** The shells hark writes completion scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of {@link SHELLS}. */
export type Shell = typeof SHELLS[number];

/**
 * `hark completion`.
 *
 * @param root the whole command tree, read when the command runs (it contains this command)
 */
export function completionCommand(root: () => CommandSpec): CommandSpec {
  return {
    name: "completion",
    description: "Print the shell completion script for bash, zsh or fish",
    args: [{ name: "shell", description: "the shell", required: true, choices: SHELLS }],
    examples: [
      "source <(hark completion bash)  # this shell only",
      "hark completion bash > /etc/bash_completion.d/hark",
      'hark completion zsh > "${fpath[1]}/_hark"',
      "hark completion fish > ~/.config/fish/completions/hark.fish",
    ],
    run: async (call) => {
      // The parser has checked the choice; the guard lets the type follow.
      const [shell] = call.args;
      if (!isOneOf(SHELLS, shell)) {
        throw new ValidationError(
          `Invalid shell "${shell}": expected one of ${SHELLS.join(", ")}`,
          { param: "<shell>" },
        );
      }
      const { completionScript } = await import("./script.ts");
      call.ctx.stdout.write(await completionScript(shell, root()));
    },
  };
}
