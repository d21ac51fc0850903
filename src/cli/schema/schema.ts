/**
 * `hark schema [service] [resource|verb] [method]`, or `hark schema <method id>`.
 *
 * @module
 */

import type { CatalogueRef } from "../catalogue/catalogue_ref.ts";
import { type CommandSpec, defineCommand, flag } from "../command_spec.ts";

/** What `--kind` keeps of the listing. */
export const SCHEMA_KINDS = ["shortcut", "api", "command"] as const;
/** One of {@link SCHEMA_KINDS}. */
export type SchemaKind = typeof SCHEMA_KINDS[number];

/** The flags of `hark schema`. */
export const SCHEMA_FLAGS = {
  kind: flag.choice("<kind>", SCHEMA_KINDS, {
    description: "list only shortcuts, API methods, or system commands",
  }),
};

/**
 * `hark schema`.
 *
 * @param root the whole command tree, read when the command runs (it contains this command)
 * @param catalogue the API catalogue, whose methods it describes beside the shortcuts
 */
export function schemaCommand(root: () => CommandSpec, catalogue?: CatalogueRef): CommandSpec {
  return defineCommand({
    name: "schema",
    description: "Describe every command, shortcut and API method as JSON (parameters, types, " +
      "defaults, identities, scopes)",
    args: [
      {
        name: "service",
        description: "a service (calendar, docx…), a system command (auth, config…), or a " +
          "method id such as calendar.v4.calendarEvent.instanceView",
        required: false,
      },
      {
        name: "verb",
        description: "a shortcut verb such as +agenda, an API resource, or a sub-command",
        required: false,
      },
      { name: "method", description: "an API method of the resource", required: false },
    ],
    flags: SCHEMA_FLAGS,
    examples: [
      "hark schema",
      "hark schema --kind api",
      "hark schema calendar",
      "hark schema im +send",
      "hark schema docx document create",
      "hark schema calendar.v4.calendarEvent.instanceView",
      "hark schema auth login",
    ],
    run: async (call) => {
      const [{ runSchema }, ref] = await Promise.all([
        import("./run_schema.ts"),
        catalogue?.(),
      ]);
      await runSchema(call.ctx, root(), call.args, { catalogue: ref, kind: call.flags.kind });
    },
  });
}
