/**
 * `hark schema [<service> [<resource>|<verb> [<method>]] | <method id>] [--kind …]`: the whole
 * of hark as JSON (global flags, system commands, and each service's shortcuts and API
 * methods, told apart by `kind`), or one part of it. One method by id loads only its group of
 * the catalogue.
 *
 * @module
 */

import type { Catalogue } from "../../catalogue/catalogue.ts";
import { groupOfId } from "../../catalogue/format.ts";
import type { Context } from "../../context.ts";
import { ValidationError } from "../../errors/mod.ts";
import { formatJson } from "../../output/output.ts";
import type { CommandSpec } from "../command_spec.ts";
import type { SchemaKind } from "./schema.ts";
import {
  buildSchema,
  type HarkSchema,
  selectSchema,
  type ServiceSchema,
  type ShortcutSchema,
} from "./describe.ts";
import {
  type ApiMethodSchema,
  type ApiResourceSchema,
  methodSchemaById,
  resourceSchema,
  serviceMethods,
} from "./describe_api.ts";

/** Whatever `hark schema` prints. */
export type SchemaPart =
  | HarkSchema
  | ServiceSchema
  | ShortcutSchema
  | HarkSchema["commands"][number]
  | ApiResourceSchema
  | ApiMethodSchema;

/** Options of {@link describeHark}. */
export interface SchemaOptions {
  /** The API catalogue; without it only commands and shortcuts are described. */
  catalogue?: Catalogue;
  /** Keep only these in the whole listing. */
  kind?: SchemaKind;
}

/** Whether a word is a method id (`calendar.v4.calendarEvent.get`) rather than a name. */
function isMethodId(word: string): boolean {
  return word.includes(".") && groupOfId(word) !== undefined;
}

/** The whole listing: every service (shortcut services and API services) with its methods. */
async function wholeSchema(root: CommandSpec, options: SchemaOptions): Promise<HarkSchema> {
  const schema = await buildSchema(root);
  const { catalogue, kind } = options;
  if (catalogue && kind !== "shortcut" && kind !== "command") {
    const index = await catalogue.index();
    for (const service of index.services) {
      let entry = schema.services.find((s) => s.name === service.name);
      if (!entry) {
        entry = {
          name: service.name,
          description: `Open Platform API: ${service.title}`,
          examples: [`hark ${service.name} --help`],
          shortcuts: [],
        };
        schema.services.push(entry);
      }
      entry.methods = await serviceMethods(catalogue, service.name);
    }
  }
  if (kind === "api") {
    schema.commands = [];
    schema.services = schema.services.filter((s) => (s.methods?.length ?? 0) > 0)
      .map((s) => ({ ...s, shortcuts: [] }));
  } else if (kind === "shortcut") {
    schema.commands = [];
  } else if (kind === "command") {
    schema.services = [];
  }
  return schema;
}

/** One service, or one of its shortcuts, resources or methods. */
async function servicePart(
  schema: HarkSchema,
  catalogue: Catalogue,
  name: string,
  second: string | undefined,
  third: string | undefined,
): Promise<SchemaPart | undefined> {
  const shortcuts = schema.services.find((s) => s.name === name);
  const api = await catalogue.service(name);
  if (!shortcuts && !api) return undefined;
  if (second === undefined) {
    const base: ServiceSchema = shortcuts ?? {
      name,
      description: `Open Platform API: ${api?.title ?? ""}`,
      examples: [`hark ${name} --help`],
      shortcuts: [],
    };
    return { ...base, methods: await serviceMethods(catalogue, name) };
  }
  const verb = second.startsWith("+") ? second : `+${second}`;
  const shortcut = shortcuts?.shortcuts.find((s) => s.verb === verb);
  if (shortcut && third === undefined) return shortcut;
  if (api && !second.startsWith("+")) {
    const part = await resourceSchema(catalogue, name, second, third);
    if (part) return part;
  }
  const known = [
    ...(shortcuts?.shortcuts.map((s) => s.verb) ?? []),
    ...(api?.resources.map((r) => r.name) ?? []),
  ];
  throw new ValidationError(`Unknown shortcut or resource "${name} ${second}"`, {
    param: "verb",
    suggestion: `Known in ${name}: ${known.join(", ")}`,
    command: `hark schema ${name}`,
  });
}

/**
 * The part of hark's description the arguments ask for.
 *
 * @param root the command tree
 * @param args the positional arguments: nothing, a service or command, a shortcut verb or
 *   resource or sub-command, a method; or a method id
 * @param options the catalogue, and `--kind`
 * @throws {ValidationError} for an unknown name, with the known ones
 */
export async function describeHark(
  root: CommandSpec,
  args: readonly string[],
  options: SchemaOptions,
): Promise<SchemaPart> {
  const [name, second, third] = args;
  const { catalogue } = options;
  if (name === undefined) return await wholeSchema(root, options);
  if (options.kind !== undefined) {
    throw new ValidationError("--kind filters the whole listing: give no other argument", {
      param: "--kind",
      suggestion: "Run hark schema --kind api, or hark schema <service>",
    });
  }
  if (catalogue && isMethodId(name)) {
    if (second !== undefined) {
      throw new ValidationError(`Too many arguments after the method id "${name}"`, {
        param: second,
      });
    }
    return await methodSchemaById(catalogue, name);
  }
  const schema = await buildSchema(root);
  // A command's own verb (`event +subscribe`) before the API service of the same name.
  const command = schema.commands.find((c) => c.name === name);
  if (second?.startsWith("+") && command?.commands.some((c) => c.name === `${name} ${second}`)) {
    return selectSchema(schema, name, second);
  }
  if (catalogue) {
    const part = await servicePart(schema, catalogue, name, second, third);
    if (part) return part;
  }
  if (third !== undefined) {
    throw new ValidationError(`Unknown command "${args.join(" ")}"`, { param: third });
  }
  try {
    return selectSchema(schema, name, second);
  } catch (error) {
    // Name the API services too among the known ones.
    if (!(error instanceof ValidationError) || second !== undefined || !catalogue) throw error;
    const services = (await catalogue.index()).services.map((s) => s.name);
    throw new ValidationError(error.message, {
      param: "service",
      suggestion: `${error.recovery.suggestion}; API services: ${services.join(", ")}`,
      command: "hark schema",
    });
  }
}

/**
 * Writes the part of the schema asked for to stdout as JSON.
 *
 * @param ctx the context
 * @param root the command tree
 * @param args the positional arguments
 * @param options the catalogue, and `--kind`
 * @throws {ValidationError} for an unknown name
 */
export async function runSchema(
  ctx: Context,
  root: CommandSpec,
  args: readonly string[],
  options: SchemaOptions = {},
): Promise<void> {
  const part = await describeHark(root, args, options);
  ctx.stdout.write(formatJson(part, ctx.stdout.isTerminal) + "\n");
}
