/**
 * The declarative shape of a shortcut: `hark <service> +<verb>`. A definition names its service
 * and verb, describes itself, lists the identities and scopes it needs, declares its parameters,
 * and supplies hooks; the framework (`lifecycle.ts`, `register.ts`) does the rest.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Config } from "../config/mod.ts";
import type { Identity } from "../auth/identity.ts";
import type { ApiRequest } from "../http/request.ts";
import type { DownloadedFile, DownloadTarget } from "../http/download.ts";
import type { Column } from "../output/mod.ts";
import type { TimeInput } from "../time/mod.ts";

/** The parameter types of the spec. */
export const PARAM_TYPES = ["string", "int", "bool", "enum", "datetime", "file"] as const;
/** One of {@link PARAM_TYPES}. */
export type ParamType = typeof PARAM_TYPES[number];

/** One parameter of a shortcut, bound from a flag, `--input`, stdin or the environment. */
export interface ParamSpec {
  /** The flag name without dashes, kebab-case: `chat-id` is `--chat-id`. */
  name: string;
  /** The value type. */
  type: ParamType;
  /** One line of help. */
  description: string;
  /** Whether a value is needed; default false. */
  required?: boolean;
  /**
   * The value used when no source gives one. For `datetime`, the words `today` and `now` are
   * allowed and resolved against the clock.
   */
  default?: string | number | boolean;
  /** The allowed values of an `enum`. */
  allowed?: readonly string[];
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
}

/** A `file` parameter's value: the path and the content, read before anything is sent. */
export interface FileValue {
  /** The path as given. */
  path: string;
  /** The file's text. */
  text: string;
}

/**
 * A bound parameter value: string, enum → string; int → number; bool → boolean; datetime → a
 * {@link TimeInput} (a whole day or a moment, as typed); file → {@link FileValue}.
 */
export type ParamValue = string | number | boolean | FileValue | TimeInput;

/** The bound parameters, keyed by {@link ParamSpec.name}; absent ones are missing. */
export type ParamValues = Record<string, ParamValue | undefined>;

/** What every hook receives. */
export interface ShortcutInput {
  /** The context. */
  ctx: Context;
  /** The bound parameter values. */
  values: ParamValues;
  /** The identity the shortcut acts as. */
  identity: Identity;
  /**
   * The IANA zone times are read and shown in: the shortcut's `--timezone` when it has one and it
   * was given, else the user's ({@link Context.timeZone}).
   */
  timeZone: string;
  /** The loaded config. */
  config: Config;
  /** The profile in use. */
  profile: string;
  /**
   * Asks the person at the terminal to confirm a change; without a terminal, fails naming
   * `flag` (such as `--yes`), which answers it.
   */
  confirm(question: string, flag: string): Promise<boolean>;
  /** Notes a warning, printed on stderr after the output. */
  warn(message: string): void;
}

/** The scopes each identity needs to run a shortcut: all of the listed ones. */
export interface ShortcutScopes {
  /** What a user token must carry (Lark's fine-grained names). */
  user?: readonly string[];
  /** What the app must have enabled for its tenant token. */
  bot?: readonly string[];
}

/**
 * What running a shortcut does to the service's data: `read` changes nothing, `write` creates or
 * changes something, `delete` removes something (or overwrites it without a way back).
 */
export type ShortcutEffect = "read" | "write" | "delete";

/** What a shortcut calls the service with: the shared client's `request` and `download`. */
export interface ApiCaller {
  /**
   * Sends a request with auth, retries and classification; resolves with `data`. A request
   * with a `form` uploads its file as `multipart/form-data`, streamed from disk.
   */
  request<T = unknown>(request: ApiRequest): Promise<T>;
  /**
   * Sends a GET whose answer is a file and streams it to disk with the same auth, retries and
   * classification: never a partial file, never over an existing one unless the target allows.
   */
  download(request: ApiRequest, target: DownloadTarget): Promise<DownloadedFile>;
}

/** A shortcut definition. `R` is what {@link ShortcutDefinition.run} resolves with. */
export interface ShortcutDefinition<R = unknown> {
  /** The service group: `calendar`, `contact`, `im`. */
  service: string;
  /** The verb with its plus sign: `+agenda`. */
  verb: string;
  /** One line saying what it does. */
  description: string;
  /** Command lines starting with `hark`; at least one. */
  examples: string[];
  /** Identities supported, the default first; default `["user"]`. */
  identities?: Identity[];
  /** The scopes each supported identity needs. */
  scopes: ShortcutScopes;
  /** What it does to the service's data (MCP hints, confirmation, retry advice). */
  effect: ShortcutEffect;
  /**
   * Whether running it twice with the same input has the effect of running it once (a read, or
   * a write that carries an idempotency key); default true for reads, false otherwise.
   */
  idempotent?: boolean;
  /**
   * The parameter that carries the write's idempotency key (a `string` parameter, such as
   * `idempotency-key`). The lifecycle fills it with a fresh UUID when no source gives one, so
   * `requests` and `run` always see the key; when the write fails in a way that may have
   * applied it (its answer lost), the error's recovery is the command that retries it with the
   * same key, which the service applies at most once.
   */
  idempotencyKey?: string;
  /** The parameters. */
  params: ParamSpec[];
  /**
   * Checks the bound values beyond their types (relations between parameters, files on disk);
   * runs before `--dry-run` stops, and before any request.
   *
   * @throws {ValidationError} naming the parameter
   */
  validate?(input: ShortcutInput): void | Promise<void>;
  /** The requests the shortcut would send, for `--dry-run`; never sends anything. */
  requests(input: ShortcutInput): ApiRequest[];
  /** Builds the requests, calls the service and returns the result. */
  run?(input: ShortcutInput, client: ApiCaller): Promise<R>;
  /**
   * For listings, instead of `run`: yields the output rows batch by batch (a page, a piece of a
   * span), in order; each batch is written as it comes, so memory does not grow with the
   * listing's length.
   */
  stream?(
    input: ShortcutInput,
    client: ApiCaller,
  ): AsyncIterable<readonly Record<string, unknown>[]>;
  /**
   * A drawing instead of the table (a week grid, a busy/free bar), for a person at a terminal:
   * asked only when the output is a table and stdout is a terminal, it returns the function
   * that draws the output data (what `output` returns, or every row `stream` yielded), or
   * `undefined` to keep the table. JSON, CSV and pipes never see it.
   */
  render?(input: ShortcutInput): ((data: unknown) => string) | undefined;
  /** Turns the result into the data written out; default the result itself. */
  output?(result: R, input: ShortcutInput): unknown;
  /** Table and CSV columns of the output rows (a function when they depend on the input). */
  columns?:
    | Column<Record<string, unknown>>[]
    | ((input: ShortcutInput) => Column<Record<string, unknown>>[]);
}

/** A definition with its result type erased, as the registry holds them. */
export type AnyShortcut = ShortcutDefinition<unknown>;

/**
 * Declares a shortcut, keeping its result type for the hooks and erasing it for the registry.
 *
 * @param definition the definition
 * @returns the same definition
 */
export function defineShortcut<R>(definition: ShortcutDefinition<R>): AnyShortcut {
  return definition as unknown as AnyShortcut;
}

/**
 * The identities a shortcut supports, the default first.
 *
 * @param definition the shortcut
 */
export function identitiesOf(definition: AnyShortcut): Identity[] {
  return definition.identities ?? ["user"];
}

/**
 * The scopes an identity needs to run a shortcut.
 *
 * @param definition the shortcut
 * @param identity the identity
 */
export function scopesFor(definition: AnyShortcut, identity: Identity): readonly string[] {
  return definition.scopes[identity] ?? [];
}

/**
 * Whether running a shortcut twice has the effect of running it once.
 *
 * @param definition the shortcut
 */
export function isIdempotent(definition: AnyShortcut): boolean {
  return definition.idempotent ?? definition.effect === "read";
}

/**
 * The full command name: `calendar +agenda`.
 *
 * @param definition the shortcut
 */
export function shortcutName(definition: AnyShortcut): string {
  return `${definition.service} ${definition.verb}`;
}
