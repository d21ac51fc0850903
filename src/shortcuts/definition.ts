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
import type { FileValue, ParamDecl, ParamRecord, ValuesOf } from "./param.ts";

export { PARAM_TYPES } from "./param.ts";
export type { FileValue, ParamDecl, ParamRecord, ParamType, ValuesOf } from "./param.ts";

/** One parameter of a shortcut with its name, as help, completion, schema and MCP read it. */
export interface ParamSpec extends ParamDecl {
  /** The flag name without dashes, kebab-case: `chat-id` is `--chat-id`. */
  name: string;
}

/**
 * A bound parameter value: string, enum → string; int → number; bool → boolean; datetime → a
 * {@link TimeInput} (a whole day or a moment, as typed); file → {@link FileValue}.
 */
export type ParamValue = string | number | boolean | FileValue | TimeInput;

/** The bound parameters, keyed by {@link ParamSpec.name}; absent ones are missing. */
export type ParamValues = Record<string, ParamValue | undefined>;

/**
 * What every hook receives. `V` is the type of the bound values: {@link ValuesOf} the shortcut's
 * parameter record in its own hooks, {@link ParamValues} where the shortcut is not known.
 */
export interface ShortcutInput<V = ParamValues> {
  /** The context. */
  ctx: Context;
  /** The bound parameter values. */
  values: V;
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

/**
 * The scopes a shortcut needs, per identity: all of the listed ones; plus those that only unlock
 * part of its output, those of the calls it makes with the tenant token whatever the identity,
 * and the scopes Lark accepts instead of a listed one.
 */
export interface ShortcutScopes {
  /** What a user token must carry (Lark's fine-grained names). */
  user?: readonly string[];
  /** What the app must have enabled for its tenant token. */
  bot?: readonly string[];
  /**
   * Per identity, scopes that unlock part of the output: Lark's field permissions (a profile's
   * email is left out without `contact:user.email:readonly`), or a lookup that fills in names.
   * The shortcut runs without them and says in a warning what it left out; a plain
   * `hark auth login` asks for the user's along with the required ones.
   */
  optional?: { readonly user?: readonly string[]; readonly bot?: readonly string[] };
  /**
   * Calls Lark takes only with the tenant token (uploads: im-v1 image and file create), which
   * the shortcut makes as the bot whichever identity it runs as: when it makes them, and the
   * scopes the app must have enabled for them.
   */
  tenantCalls?: { readonly when: string; readonly scopes: readonly string[] };
  /**
   * Scopes Lark accepts instead of a listed one (an API doc's "any one of"), keyed by the listed
   * one: a token granted an alternative has what the listed scope gives.
   */
  alternatives?: Readonly<Record<string, readonly string[]>>;
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

/** What a shortcut declares about itself, whatever its parameters. */
export interface ShortcutFacts {
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
   * Whether a `write` can also destroy what was there without a way back (rewrite a whole
   * recurring series, remove attendees); `hark mcp` then asks for `yes: true`, as for a
   * `delete`. Every `delete` is destructive.
   */
  destructive?: boolean;
  /**
   * Groups of parameters of which exactly one must be given (`--chat-id`, `--user-id`,
   * `--email`): `hark schema` and the skills list them; the `validate` hook enforces them.
   */
  oneOf?: readonly (readonly string[])[];
}

/** The hooks of a shortcut, receiving bound values of type `V`; `R` is what `run` resolves with. */
export interface ShortcutHooks<V, R> {
  /**
   * Checks the bound values beyond their types (relations between parameters, files on disk);
   * runs before `--dry-run` stops, and before any request.
   *
   * @throws {ValidationError} naming the parameter
   */
  validate?(input: ShortcutInput<V>): void | Promise<void>;
  /** The requests the shortcut would send, for `--dry-run`; never sends anything. */
  requests(input: ShortcutInput<V>): ApiRequest[];
  /** Builds the requests, calls the service and returns the result. */
  run?(input: ShortcutInput<V>, client: ApiCaller): Promise<R>;
  /**
   * For listings, instead of `run`: yields the output rows batch by batch (a page, a piece of a
   * span), in order; each batch is written as it comes, so memory does not grow with the
   * listing's length.
   */
  stream?(
    input: ShortcutInput<V>,
    client: ApiCaller,
  ): AsyncIterable<readonly Record<string, unknown>[]>;
  /**
   * A drawing instead of the table (a week grid, a busy/free bar), for a person at a terminal:
   * asked only when the output is a table and stdout is a terminal, it returns the function
   * that draws the output data (what `output` returns, or every row `stream` yielded), or
   * `undefined` to keep the table. JSON, CSV and pipes never see it.
   */
  render?(input: ShortcutInput<V>): ((data: unknown) => string) | undefined;
  /** Turns the result into the data written out; default the result itself. */
  output?(result: R, input: ShortcutInput<V>): unknown;
  /** Table and CSV columns of the output rows (a function when they depend on the input). */
  columns?:
    | Column<Record<string, unknown>>[]
    | ((input: ShortcutInput<V>) => Column<Record<string, unknown>>[]);
}

/**
 * A shortcut as written: its parameters are a record of typed declarations ({@link param}), and
 * its hooks receive their values typed. `R` is what {@link ShortcutHooks.run} resolves with.
 */
export interface ShortcutDefinition<P extends ParamRecord, R = unknown>
  extends ShortcutFacts, ShortcutHooks<ValuesOf<P>, R> {
  /** The parameters, keyed by flag name; help lists them in this order. */
  params: P;
  /**
   * The parameter that carries the write's idempotency key (a `string` parameter, such as
   * `idempotency-key`). The lifecycle fills it with a fresh UUID when no source gives one, so
   * `requests` and `run` always see the key; when the write fails in a way that may have
   * applied it (its answer lost), the error's recovery is the command that retries it with the
   * same key, which the service applies at most once.
   */
  idempotencyKey?: keyof P & string;
}

/**
 * A shortcut as the framework holds it: parameters as a named list, values and result untyped.
 * Help, completion, `hark schema`, MCP and the lifecycle read this.
 */
export interface AnyShortcut extends ShortcutFacts, ShortcutHooks<ParamValues, unknown> {
  /** The parameters, in help order. */
  params: ParamSpec[];
  /** The parameter that carries the write's idempotency key, filled when absent. */
  idempotencyKey?: string;
}

/**
 * Declares a shortcut: its hooks see their parameters' value types; the registry gets the
 * parameters as a named list and the types erased.
 *
 * @param definition the definition, parameters keyed by flag name
 * @returns the shortcut as the framework holds it
 * @example
 * ```ts
 * export const me = defineShortcut({
 *   service: "contact", verb: "+me", description: "Show who you are", examples: ["hark contact +me"],
 *   scopes: { user: [] }, effect: "read",
 *   params: { "user-id-type": param.enumOf(["open_id", "union_id"], { description: "id kind" }) },
 *   requests: ({ values }) => [meRequest(values["user-id-type"])],
 *   run: (input, client) => client.request(meRequest(input.values["user-id-type"])),
 * });
 * ```
 */
export function defineShortcut<const P extends ParamRecord, R>(
  definition: ShortcutDefinition<P, R>,
): AnyShortcut {
  const params = Object.entries(definition.params).map(([name, decl]) => ({ ...decl, name }));
  // The one place typed hooks meet the untyped binding: the lifecycle binds values by the names
  // of `params` after checking each against its declaration, so a hook's `ValuesOf<P>` holds.
  return { ...definition, params } as unknown as AnyShortcut;
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
 * The scopes that unlock part of a shortcut's output as an identity (see
 * {@link ShortcutScopes.optional}).
 *
 * @param definition the shortcut
 * @param identity the identity
 */
export function optionalScopesFor(definition: AnyShortcut, identity: Identity): readonly string[] {
  return definition.scopes.optional?.[identity] ?? [];
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
 * Whether running a shortcut can destroy data without a way back: a `delete`, or a write
 * declared {@link ShortcutFacts.destructive}.
 *
 * @param definition the shortcut
 */
export function isDestructive(definition: AnyShortcut): boolean {
  return definition.effect === "delete" || definition.destructive === true;
}

/**
 * The full command name: `calendar +agenda`.
 *
 * @param definition the shortcut
 */
export function shortcutName(definition: AnyShortcut): string {
  return `${definition.service} ${definition.verb}`;
}
