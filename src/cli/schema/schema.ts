/**
 * `hark schema [service] [verb]`.
 *
 * @module
 */

import type { CatalogueRef } from "../catalogue/catalogue_ref.ts";
import type { CommandSpec } from "../command_spec.ts";

/**
 * `hark schema`.
 *
 * @param root the whole command tree, read when the command runs (it contains this command)
 */
export function schemaCommand(root: () => CommandSpec, _catalogue?: CatalogueRef): CommandSpec {
  return {
    name: "schema",
    description:
      "Describe every command and shortcut as JSON (parameters, types, defaults, identities, scopes)",
    args: [
      {
        name: "service",
        description: "a service (calendar, contact, im) or a system command (auth, config…)",
        required: false,
      },
      {
        name: "verb",
        description: "a shortcut verb such as +agenda, or a sub-command",
        required: false,
      },
    ],
    examples: [
      "hark schema",
      "hark schema calendar",
      "hark schema im +send",
      "hark schema auth login",
    ],
    run: async (call) => {
      const { runSchema } = await import("./describe.ts");
      await runSchema(call.ctx, root(), call.args[0], call.args[1]);
    },
  };
}
