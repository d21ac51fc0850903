/**
 * The command tree with every lazily loaded part loaded: the one walker that `hark schema`, the
 * completion scripts and the help golden tests read.
 *
 * @module
 */

import { type CommandSpec, type FlagSpec, subcommandsOf } from "./command_spec.ts";
import { BUILTIN_FLAGS } from "./parse_argv.ts";

/** A command with its sub-commands loaded. */
export interface TreeNode {
  /** The command. */
  spec: CommandSpec;
  /** Names from the root: `["hark", "auth", "login"]`. */
  path: string[];
  /**
   * Every flag accepted here, in help order: its own, `--help`, then the global ones (at the
   * root: `--version`, the global flags, `--help`).
   */
  flags: FlagSpec[];
  /** The sub-commands. */
  commands: TreeNode[];
}

/**
 * Loads the whole tree.
 *
 * @param root the root command; its flags are the global ones
 */
export async function loadCommandTree(root: CommandSpec): Promise<TreeNode> {
  const globals = [BUILTIN_FLAGS.version, ...(root.flags ?? [])];
  const visit = async (spec: CommandSpec, path: string[]): Promise<TreeNode> => {
    const here = [...path, spec.name];
    const children = await subcommandsOf(spec);
    return {
      spec,
      path: here,
      flags: spec === root
        ? [...globals, BUILTIN_FLAGS.help]
        : [...(spec.flags ?? []), BUILTIN_FLAGS.help, ...globals],
      commands: await Promise.all(children.map((child) => visit(child, here))),
    };
  };
  return await visit(root, []);
}

/**
 * Every node of a tree, parents before children.
 *
 * @param node the top
 */
export function allNodes(node: TreeNode): TreeNode[] {
  return [node, ...node.commands.flatMap(allNodes)];
}
