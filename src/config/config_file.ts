/**
 * Reading and writing the configuration file. Writes are atomic (a new `<path>.<random>.tmp`
 * created exclusively with mode 0600, flushed, renamed over the target) and serialised across
 * processes by `<path>.lock`, so a reader sees the old or the new content and concurrent writers
 * never lose each other's work. A malformed file (bad JSON, invalid UTF-8, nesting too deep) is
 * an error naming the file and the position, and is never overwritten.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { HarkError, ValidationError } from "../errors/mod.ts";
import { shellQuote } from "../errors/shell_quote.ts";
import { isObject, type JsonObject, objectField } from "../json/fields.ts";
import { isOneOf } from "../json/is_one_of.ts";
import { JsonInputError, readJson } from "../json/read_json.ts";
import { baseName, joinPath, parentFolder } from "../path.ts";
import { type Config, OUTPUT_FORMATS, type Preferences } from "./config.ts";
import { isDefaultConfigPath, resolveConfigPath } from "./config_path.ts";
import { explainWriteFailure } from "./file_error.ts";
import { checkTrustedFile } from "./file_trust.ts";
import { withFileLock } from "./file_lock.ts";
import { isKeychainNamespace } from "../keychain/keychain.ts";

/** The largest config file hark reads: 1 MiB (a real one is a few hundred bytes). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Loads the configuration; an empty one when the file does not exist. The file must be a
 * regular file of at most {@link MAX_CONFIG_BYTES}, and the user's own: one that another user
 * owns or could have written is refused ({@link checkTrustedFile}), since a config decides where
 * secrets and tokens go and which program runs for a token.
 *
 * @param ctx the context
 * @param path the file; default {@link resolveConfigPath}
 * @throws {ValidationError} when the file is not valid JSON or not a config object, is not a
 *   regular file, is too large, or is not the user's own (naming the file and the fix)
 */
export async function loadConfig(ctx: Context, path = resolveConfigPath(ctx)): Promise<Config> {
  let bytes: Uint8Array;
  try {
    const info = await ctx.fs.stat(path);
    if (info === undefined) return {};
    if (!info.isFile) {
      throw unreadable(path, "it is not a regular file", "Point HARK_CONFIG at a JSON file");
    }
    await checkTrustedFile(ctx, path, info, CONFIG_FILE);
    bytes = await readCapped(ctx, path, info.size);
  } catch (error) {
    if (error instanceof HarkError) throw error;
    if (error instanceof Deno.errors.NotFound) return {};
    throw new ValidationError(`Cannot read the config file "${path}": ${describe(error)}`, {
      param: "HARK_CONFIG",
      suggestion: "Check the file's permissions, or point HARK_CONFIG at another file",
      cause: error,
    });
  }
  return parseConfig(bytes, path);
}

/** The config file, as {@link checkTrustedFile} names it. */
const CONFIG_FILE = { what: "the config file", param: "HARK_CONFIG", chmod: "600" };

/**
 * Reads a regular file of at most {@link MAX_CONFIG_BYTES}: the size found before reading is
 * checked, and so is what was read. Only its owner can write the file ({@link checkTrustedFile}
 * ran first), so nobody else can grow it meanwhile. It reads with `readFile`, not `openRead`:
 * the config is hark's own file, which `hark mcp`'s fence on the files agents name must not
 * refuse.
 *
 * @param size the size the file had when checked
 * @throws {ValidationError} naming the file and the limit
 */
async function readCapped(ctx: Context, path: string, size: number): Promise<Uint8Array> {
  const tooLarge = () =>
    unreadable(
      path,
      `it is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`,
      "A config file is a few hundred bytes: point HARK_CONFIG at the right file",
    );
  if (size > MAX_CONFIG_BYTES) throw tooLarge();
  const bytes = await ctx.fs.readFile(path);
  if (bytes.length > MAX_CONFIG_BYTES) throw tooLarge();
  return bytes;
}

function unreadable(path: string, reason: string, suggestion: string): ValidationError {
  return new ValidationError(`Cannot read the config file "${path}": ${reason}`, {
    param: "HARK_CONFIG",
    suggestion,
  });
}

/**
 * Parses a config file, checking the shape of the known keys. Bytes must be UTF-8 (invalid
 * bytes make the file malformed; they are never replaced); nesting is limited as
 * {@link readJson} documents.
 *
 * @param content the file's content, as bytes or text
 * @param path the file's path, for messages
 * @throws {ValidationError} naming the file, line and column, or the bad key; never quoting the
 * file's content
 */
export function parseConfig(content: string | Uint8Array, path: string): Config {
  let value: unknown;
  try {
    value = readJson(content, { source: `the config file "${path}"`, param: "HARK_CONFIG" });
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    const where = error.line === undefined ? "" : `line ${error.line}, column ${error.column}: `;
    const reason = error.line === undefined ? "the file is empty" : error.reason;
    throw malformed(path, where + reason);
  }
  if (!isObject(value)) throw malformed(path, "the top level is not a JSON object");
  for (const key of ["apps", "users", "preferences"] as const) {
    if (value[key] !== undefined && !isObject(value[key])) {
      throw malformed(path, `"${key}" must be an object`);
    }
  }
  // Unknown keys survive a read-modify-write: the config starts as a copy of the whole object,
  // and each known key is replaced by its checked value.
  const config: Config = { ...value };
  const apps = entriesOf(value, "apps", path);
  if (apps !== undefined) config.apps = apps;
  const users = entriesOf(value, "users", path);
  if (users !== undefined) config.users = users;
  const preferences = objectField(value, "preferences");
  if (preferences !== undefined) config.preferences = checkPreferences(preferences, path);
  const profile = value.active_profile;
  if (profile !== undefined) {
    if (typeof profile !== "string") throw malformed(path, `"active_profile" must be a string`);
    config.active_profile = profile;
  }
  const namespace = value.keychain_namespace;
  if (namespace !== undefined) {
    if (!isKeychainNamespace(namespace)) {
      throw malformed(
        path,
        `"keychain_namespace" must be 1 to 32 lower-case letters, digits, "_" or "-"`,
      );
    }
    config.keychain_namespace = namespace;
  }
  return config;
}

/**
 * The entries of `apps` or `users`, each an object. The values inside an entry are checked
 * where they are used (`checkConfigValues` for `apps.<profile>`), so that a hand-edited bad
 * value is reported with the command that fixes it.
 *
 * @throws {ValidationError} naming the first entry that is not an object
 */
function entriesOf(
  config: JsonObject,
  key: "apps" | "users",
  path: string,
): Record<string, JsonObject> | undefined {
  const field = objectField(config, key);
  if (field === undefined) return undefined;
  const entries: Record<string, JsonObject> = {};
  for (const [name, entry] of Object.entries(field)) {
    if (!isObject(entry)) throw malformed(path, `"${key}.${name}" must be an object`);
    entries[name] = entry;
  }
  return entries;
}

/**
 * `preferences`, with the keys hark reads checked; others are kept as they are.
 *
 * @throws {ValidationError} naming the bad key
 */
function checkPreferences(raw: JsonObject, path: string): Preferences {
  const preferences: Preferences = { ...raw };
  const format = raw.output_format;
  if (format !== undefined) {
    if (!isOneOf(OUTPUT_FORMATS, format)) {
      throw malformed(
        path,
        `"preferences.output_format" must be one of ${OUTPUT_FORMATS.join(", ")}, not ${
          JSON.stringify(format)
        }`,
      );
    }
    preferences.output_format = format;
  }
  const color = raw.color;
  if (color !== undefined) {
    if (typeof color !== "boolean") {
      throw malformed(path, `"preferences.color" must be true or false`);
    }
    preferences.color = color;
  }
  return preferences;
}

/**
 * Reads, changes and writes the configuration under the config lock. `change` may mutate the
 * config it is given or return a new one. Unknown keys survive. The write is atomic and safe
 * from planted links (see {@link FileSystem.writeFileAtomic}); the default config folder is
 * hark's own and kept at mode 0700. Temporary files left by a killed writer are removed. A
 * config that is a link (a dotfiles setup) stays one: the file it points to is written, in its
 * own folder, and locked there.
 *
 * @param ctx the context
 * @param change the modification
 * @param path the file; default {@link resolveConfigPath}
 * @returns the config as written
 * @throws {ValidationError} when the existing file is malformed (it is left untouched), or the
 * file cannot be written (naming the file or folder, and the fix)
 * @throws {HarkError} of type `lock` when the config lock cannot be taken
 */
export async function updateConfig(
  ctx: Context,
  change: (config: Config) => Config | void | Promise<Config | void>,
  path = resolveConfigPath(ctx),
): Promise<Config> {
  await ensureConfigFolder(ctx, path);
  const target = await writeTarget(ctx, path);
  return await withFileLock(ctx, `${target.path}.lock`, async () => {
    const current = await loadConfig(ctx, path);
    const next = (await change(current)) ?? current;
    await removeLeftovers(ctx, target.path);
    try {
      await ctx.fs.writeFileAtomic(target.path, JSON.stringify(next, null, 2) + "\n", 0o600, {
        // A linked file's folder is the person's own business (a dotfiles repository).
        privateFolder: !target.linked && isDefaultConfigPath(ctx, path),
      });
    } catch (error) {
      throw cannotWrite(ctx, target.path, error);
    }
    return next;
  });
}

/**
 * The file a write of the config at `path` replaces: `path` itself, or, when it is a link, the
 * file the link leads to (so the link stays).
 *
 * @throws {ValidationError} naming the config when it is a link to nothing, or cannot be resolved
 */
async function writeTarget(
  ctx: Context,
  path: string,
): Promise<{ path: string; linked: boolean }> {
  let real: string | undefined;
  let folder: string | undefined;
  try {
    real = await ctx.fs.realPath(path);
    if (real === undefined) return { path, linked: false };
    folder = await ctx.fs.realPath(parentFolder(ctx.os, path));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw cannotWrite(ctx, path, error);
    throw new ValidationError(
      `Cannot write the config file "${path}": it is a link to a file that does not exist`,
      {
        param: "HARK_CONFIG",
        suggestion: "Create the file the link points to (holding {}), or remove the link",
        cause: error,
      },
    );
  }
  const linked = folder === undefined || real !== joinPath(ctx.os, folder, baseName(ctx.os, path));
  return { path: linked ? real : path, linked };
}

/**
 * Creates the folder of a config file (mode 0700) when it does not exist yet; the config's lock
 * files live there too.
 *
 * @param ctx the context
 * @param path the config file
 * @throws {ValidationError} naming the folder and the fix when it cannot be created
 */
export async function ensureConfigFolder(ctx: Context, path: string): Promise<void> {
  const folder = parentFolder(ctx.os, path);
  try {
    if (!(await ctx.fs.exists(folder))) await ctx.fs.mkdir(folder, 0o700);
  } catch (error) {
    throw cannotWrite(ctx, path, error);
  }
}

/**
 * Removes `<path>.<random>.tmp` files that a writer killed mid-write left behind. Runs under the
 * config lock, so no live writer of this file has one open.
 */
async function removeLeftovers(ctx: Context, path: string): Promise<void> {
  const pattern = new RegExp(`^${RegExp.escape(baseName(ctx.os, path))}\\.[0-9a-f]{16}\\.tmp$`);
  try {
    const folder = parentFolder(ctx.os, path);
    for (const name of await ctx.fs.readDir(folder)) {
      if (pattern.test(name)) await ctx.fs.remove(joinPath(ctx.os, folder, name));
    }
  } catch {
    // Tidying up is best effort; the write itself reports real problems.
  }
}

function cannotWrite(ctx: Context, path: string, error: unknown): HarkError {
  if (error instanceof HarkError) return error;
  const { reason, suggestion } = explainWriteFailure(
    error,
    path,
    "point HARK_CONFIG at a file in a folder of yours",
    ctx.os,
  );
  return new ValidationError(`Cannot write the config file "${path}": ${reason}`, {
    param: "HARK_CONFIG",
    suggestion,
    cause: error,
  });
}

function malformed(path: string, reason: string): ValidationError {
  return new ValidationError(`Cannot parse the config file "${path}": ${reason}`, {
    param: "HARK_CONFIG",
    suggestion: "Fix the file by hand (hark never overwrites a malformed config), or move it away",
    command: `\${EDITOR:-vi} ${shellQuote(path)}`,
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
