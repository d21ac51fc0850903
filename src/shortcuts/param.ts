/**
 * Typed constructors of shortcut parameters. A shortcut declares its parameters as a record keyed
 * by flag name, each built here; the record's type then gives the hooks their values' types:
 *
 * ```ts
 * const params = {
 *   "calendar-id": param.string({ description: "the calendar", default: "primary" }),
 *   view: param.enumOf(["list", "day", "week"], { description: "how to show it" }),
 *   start: param.datetime({ description: "from", required: true }),
 * };
 * // ValuesOf<typeof params>:
 * // { "calendar-id": string; view: "list" | "day" | "week" | undefined; start: TimeInput }
 * ```
 *
 * A constructor returns a plain object (help, completion, `hark schema` and MCP read it as data);
 * the value type lives only in the type system.
 *
 * @module
 */

import type { TimeInput } from "../time/mod.ts";

/** The parameter types of the spec. */
export const PARAM_TYPES = ["string", "int", "number", "bool", "enum", "datetime", "file"] as const;
/** One of {@link PARAM_TYPES}. */
export type ParamType = typeof PARAM_TYPES[number];

/** A `file` parameter's value: the path and the content, read before anything is sent. */
export interface FileValue {
  /** The path as given. */
  path: string;
  /** The file's text. */
  text: string;
}

/** What every parameter may declare besides its type. */
export interface ParamOptions {
  /** One line of help. */
  description: string;
  /** Whether a value is needed; default false. */
  required?: boolean;
  /**
   * Needed unless one of these parameters is given (`--end` unless `--duration`): reported and
   * asked for with the required ones, but typed as optional, since the other may stand for it.
   */
  requiredUnless?: readonly string[];
  /** Placeholder of the value in help, such as `<id>`; default from the type. */
  valueName?: string;
  /**
   * Marks the body parameter: read from piped stdin when no higher source set it, and none of
   * `stdinUnless` was set either.
   */
  stdin?: boolean;
  /** Parameters that, when set, keep stdin from being read for this one. */
  stdinUnless?: readonly string[];
  /**
   * The value names a file on the machine hark runs on, which the shortcut reads (`read`: an
   * upload) or writes (`write`: a download). The command line is unchanged by it; `hark mcp`
   * lets agents name such files only inside the folder given with `--files`. (A `file`
   * parameter always reads one; it needs no mark.)
   */
  localPath?: "read" | "write";
  /**
   * Turned on, this switch lets the shortcut replace a file already on the machine (`--force`
   * of a download). `hark mcp` takes it only with `yes: true`, the confirmation of other
   * destructive calls.
   */
  replacesFiles?: boolean;
}

/** A parameter declaration as data: what help, completion, schema and MCP read. */
export interface ParamDecl extends ParamOptions {
  /** The value type. */
  type: ParamType;
  /**
   * The value used when no source gives one. For `datetime`, the words `today` and `now` are
   * allowed and resolved against the clock.
   */
  default?: string | number | boolean;
  /** The allowed values of an `enum`. */
  allowed?: readonly string[];
  /**
   * For an `int` safety limit a person may raise on the command line: the most an MCP tool call
   * may give (its JSON Schema `maximum`); a call that gives none gets the default, whatever the
   * server's environment says.
   */
  mcpMaximum?: number;
}

/** The type-level marks of a parameter; never present at run time. */
declare const VALUE: unique symbol;

/**
 * A parameter declaration whose value type is `T`; `Always` is true when a bound value is always
 * present (the parameter is required, or has a default).
 */
export interface Param<T, Always extends boolean = boolean> extends ParamDecl {
  /** Type-level only: the bound value's type and presence. */
  readonly [VALUE]?: { value: T; always: Always };
}

/** Parameters keyed by flag name without dashes (`chat-id` is `--chat-id`). */
// deno-lint-ignore no-explicit-any
export type ParamRecord = Record<string, Param<any>>;

/** The bound values of a parameter record: absent parameters are `undefined`. */
export type ValuesOf<P extends ParamRecord> = {
  [K in keyof P]: P[K] extends Param<infer T, infer Always> ? Always extends true ? T
    : T | undefined
    : never;
};

/** Whether options make a value always present: `required: true` or a default. */
type AlwaysOf<O> = O extends { required: true } ? true
  : O extends { default: string | number | boolean } ? true
  : false;

/** Options of a parameter with a default of type `D`. */
type WithDefault<D> = ParamOptions & { default?: D };

/**
 * The parameter constructors: `param.string`, `param.int`, `param.number`, `param.bool`, `param.enumOf`,
 * `param.datetime`, `param.file`.
 */
export const param = {
  /**
   * A text value.
   *
   * @param options help, presence and default
   */
  string<const O extends WithDefault<string>>(options: O): Param<string, AlwaysOf<O>> {
    return { type: "string", ...options };
  },
  /**
   * A whole number.
   *
   * @param options help, presence, default, and the most an MCP call may give
   */
  int<const O extends WithDefault<number> & { mcpMaximum?: number }>(
    options: O,
  ): Param<number, AlwaysOf<O>> {
    return { type: "int", ...options };
  },
  /**
   * A number, whole or not.
   *
   * @param options help, presence and default
   */
  number<const O extends WithDefault<number>>(options: O): Param<number, AlwaysOf<O>> {
    return { type: "number", ...options };
  },
  /**
   * A switch: `--flag` is true; `true`/`false` from `--input` or the environment.
   *
   * @param options help, presence and default
   */
  bool<const O extends WithDefault<boolean>>(options: O): Param<boolean, AlwaysOf<O>> {
    return { type: "bool", ...options };
  },
  /**
   * One of a fixed set of words; the value's type is their union.
   *
   * @param allowed the allowed values
   * @param options help, presence and default (one of `allowed`)
   * @example
   * ```ts
   * param.enumOf(["list", "day", "week"], { description: "the view", default: "list" });
   * // Param<"list" | "day" | "week", true>
   * ```
   */
  enumOf<const V extends string, const O extends WithDefault<NoInfer<V>>>(
    allowed: readonly V[],
    options: O,
  ): Param<V, AlwaysOf<O>> {
    return { type: "enum", allowed, ...options };
  },
  /**
   * A time: a date (a whole day) or a moment, read in the shortcut's zone.
   *
   * @param options help, presence and default (`today`, `now` or a time)
   */
  datetime<const O extends WithDefault<string>>(options: O): Param<TimeInput, AlwaysOf<O>> {
    return { type: "datetime", ...options };
  },
  /**
   * A text file read before anything is sent; the value holds its path and text.
   *
   * @param options help and presence
   */
  file<const O extends ParamOptions>(options: O): Param<FileValue, AlwaysOf<O>> {
    return { type: "file", ...options };
  },
};
