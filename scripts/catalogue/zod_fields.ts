/**
 * Turning the zod schemas of `@larksuiteoapi/lark-mcp`'s generated tools into catalogue fields:
 * objects, strings, numbers (integers when the schema says so), booleans, enums and literals,
 * arrays, nested objects, optional and nullable wrappers, defaults; a union, a record, `any` and
 * anything else the schema leaves open becomes `json` (any JSON value).
 *
 * Both zod 4 (`schema._zod.def.type`) and zod 3 (`schema._def.typeName`) are read, so a newer or
 * older package whose zod differs still generates.
 *
 * @module
 */

import type { CatalogueField, FieldType } from "../../src/catalogue/format.ts";

/** The longest description a field keeps, in characters. */
export const FIELD_DESCRIPTION_MAX = 240;

/** What the walker knows of a zod schema node, whatever zod made it. */
interface Node {
  /** The kind, zod 4's names: `object`, `string`, `optional`… */
  kind: string;
  /** The schema's own `.describe()` text. */
  description?: string;
  /** The wrapped schema of `optional`, `nullable`, `default`. */
  inner?: unknown;
  /** The fields of an `object`: its shape. */
  shape?: unknown;
  /** The item of an `array`. */
  element?: unknown;
  /** The values of an `enum` or a `literal`. */
  values?: unknown[];
  /** Whether a `number` must be whole. */
  integer?: boolean;
  /** The value a `default` stands for (zod 4 keeps it, zod 3 a function giving it). */
  defaultValue?: unknown;
}

/**
 * A view of an object's properties, own or inherited, enumerable or not (zod keeps `_zod` out
 * of `Object.keys`); `undefined` for anything else.
 */
function record(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const target = value;
  return new Proxy({}, { get: (_, key) => Reflect.get(target, key) });
}

/** The own enumerable fields of an object (a zod shape), in order. */
function entriesOf(value: unknown): [string, unknown][] {
  return typeof value === "object" && value !== null ? Object.entries(value) : [];
}

/** The zod 3 type names, as zod 4 calls them. */
const V3_KINDS: Record<string, string> = {
  ZodObject: "object",
  ZodString: "string",
  ZodNumber: "number",
  ZodBoolean: "boolean",
  ZodEnum: "enum",
  ZodNativeEnum: "enum",
  ZodLiteral: "literal",
  ZodArray: "array",
  ZodOptional: "optional",
  ZodNullable: "nullable",
  ZodDefault: "default",
  ZodUnion: "union",
  ZodRecord: "record",
  ZodAny: "any",
  ZodUnknown: "unknown",
};

/**
 * Reads a zod schema node (4 or 3).
 *
 * @param schema a zod schema
 * @throws {Error} when it is not one
 */
function readNode(schema: unknown): Node {
  const outer = record(schema);
  if (!outer) throw new Error(`Cannot read a zod schema: got ${String(schema)}`);
  const description = typeof outer.description === "string" ? outer.description : undefined;
  const zod4 = record(record(outer._zod)?.def);
  if (zod4 && typeof zod4.type === "string") {
    const kind = zod4.type;
    const format = record(record(outer._zod)?.bag)?.format ?? zod4.format;
    return {
      kind,
      description,
      inner: zod4.innerType,
      shape: zod4.shape,
      element: zod4.element,
      values: kind === "enum"
        ? entriesOf(zod4.entries).map(([, v]) => v)
        : Array.isArray(zod4.values)
        ? zod4.values
        : undefined,
      // `z.number().int()` is a number of format `safeint` (or `int32`…).
      integer: kind === "number" && typeof format === "string" && /int/.test(format),
      defaultValue: kind === "default" ? zod4.defaultValue : undefined,
    };
  }
  const zod3 = record(outer._def);
  if (zod3 && typeof zod3.typeName === "string") {
    const kind = V3_KINDS[zod3.typeName] ?? zod3.typeName;
    const shape = typeof zod3.shape === "function" ? zod3.shape() : zod3.shape;
    return {
      kind,
      description,
      inner: zod3.innerType,
      shape,
      element: zod3.type,
      values: kind === "enum"
        ? (Array.isArray(zod3.values) ? zod3.values : entriesOf(zod3.values).map(([, v]) => v))
        : kind === "literal"
        ? [zod3.value]
        : undefined,
      integer: kind === "number" && Array.isArray(zod3.checks) &&
        zod3.checks.some((c) => record(c)?.kind === "int"),
      defaultValue: kind === "default" && typeof zod3.defaultValue === "function"
        ? zod3.defaultValue()
        : undefined,
    };
  }
  throw new Error("Cannot read a zod schema: it has neither _zod.def nor _def");
}

/**
 * Description text as help shows it: one line, control characters dropped, white space
 * collapsed, cut at `max` characters on a word boundary with `…`.
 *
 * @param text Lark's text
 * @param max the most characters
 */
export function cleanText(text: string | undefined, max: number): string {
  // Control and format characters (bidi controls, zero-width ones) become spaces.
  const flat = (text ?? "").replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\*\*([^*]*)\*\*/g, "$1").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:(-]+$/, "")}…`;
}

/**
 * The catalogue field of a zod schema.
 *
 * @param name the field's name (empty for an array item)
 * @param schema the zod schema
 * @param warn told about a schema kind read as `json`
 * @returns the field; `required` is false when an `optional` or `default` wraps it
 */
export function fieldOf(
  name: string,
  schema: unknown,
  warn: (message: string) => void = () => {},
): CatalogueField {
  let node = readNode(schema);
  let required = true;
  let nullable = false;
  let description = node.description;
  let defaultValue: unknown;
  // Unwrap optional / nullable / default, keeping the first description met.
  while (node.kind === "optional" || node.kind === "nullable" || node.kind === "default") {
    if (node.kind === "nullable") nullable = true;
    else required = false;
    if (node.kind === "default") defaultValue ??= node.defaultValue;
    node = readNode(node.inner);
    description ??= node.description;
  }
  const field: CatalogueField = {
    name,
    type: "json",
    required,
    description: cleanText(description, FIELD_DESCRIPTION_MAX),
  };
  if (nullable) field.nullable = true;
  // A default is help for a scalar: the service applies it, hark sends only what is given.
  if (
    typeof defaultValue === "string" || typeof defaultValue === "number" ||
    typeof defaultValue === "boolean"
  ) field.default = defaultValue;
  const scalar = (type: FieldType) => {
    field.type = type;
    return field;
  };
  switch (node.kind) {
    case "string":
      return scalar("string");
    case "number":
      return scalar(node.integer ? "integer" : "number");
    case "boolean":
      return scalar("boolean");
    case "enum":
    case "literal": {
      const values = node.values ?? [];
      if (values.length > 0 && values.every((v) => typeof v === "string")) {
        field.values = values.map(String);
        return scalar("enum");
      }
      if (values.length > 0 && values.every((v) => typeof v === "number")) return scalar("number");
      if (values.length > 0 && values.every((v) => typeof v === "boolean")) {
        return scalar("boolean");
      }
      warn(`${name}: a ${node.kind} of mixed values, read as json`);
      return field;
    }
    case "object":
      field.fields = entriesOf(node.shape).map(([key, value]) => fieldOf(key, value, warn));
      return scalar("object");
    case "array":
      field.items = fieldOf("", node.element, warn);
      return scalar("array");
    case "union":
    case "record":
    case "any":
    case "unknown":
      return field;
    default:
      warn(`${name || "(item)"}: zod kind "${node.kind}", read as json`);
      return field;
  }
}

/**
 * The fields of a tool's `path`, `params` or `data` schema: an object (optional or not), or
 * nothing.
 *
 * @param schema the zod schema, or undefined
 * @param warn told about odd schemas
 * @returns the fields, or `undefined` when there is no schema
 * @throws {Error} when the schema is not an object
 */
export function objectFields(
  schema: unknown,
  warn: (message: string) => void = () => {},
): CatalogueField[] | undefined {
  if (schema === undefined) return undefined;
  const field = fieldOf("", schema, warn);
  if (field.type !== "object") throw new Error(`Expected an object schema, got ${field.type}`);
  return field.fields ?? [];
}
