/**
 * The completion script of a shell for the command tree.
 *
 * @module
 */

import type { CommandSpec } from "../command_spec.ts";
import { loadCommandTree } from "../command_tree.ts";
import { bashScript } from "./bash.ts";
import type { Shell } from "./completion.ts";
import { fishScript } from "./fish.ts";
import { completionModel } from "./model.ts";
import { zshScript } from "./zsh.ts";

/**
 * The completion script of `shell` for the tree under `root`.
 *
 * @param shell the shell
 * @param root the root command; its name is the program being completed
 */
export async function completionScript(shell: Shell, root: CommandSpec): Promise<string> {
  const model = completionModel(await loadCommandTree(root));
  switch (shell) {
    case "bash":
      return bashScript(model);
    case "zsh":
      return zshScript(model);
    case "fish":
      return fishScript(model);
  }
}
