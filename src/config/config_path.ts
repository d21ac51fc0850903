/**
 * Where the configuration file lives.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { joinPath } from "../path.ts";

/**
 * The configuration file's path: `$HARK_CONFIG`, else `$XDG_CONFIG_HOME/hark/config.json`
 * (default `~/.config/hark`); on macOS `~/Library/Application Support/hark/config.json`; on
 * Windows `%APPDATA%\hark\config.json`.
 *
 * @param ctx the context (env, os, home)
 * @throws {ValidationError} when no location can be determined
 */
export function resolveConfigPath(ctx: Pick<Context, "env" | "os" | "homeDir">): string {
  const explicit = ctx.env.get("HARK_CONFIG");
  if (explicit) return explicit;
  return defaultConfigPath(ctx);
}

/**
 * The configuration file's path when `HARK_CONFIG` is not set: the one whose folder is hark's
 * own (`…/hark/`), which hark keeps private (mode 0700).
 *
 * @param ctx the context (env, os, home)
 * @throws {ValidationError} when no location can be determined
 */
export function defaultConfigPath(ctx: Pick<Context, "env" | "os" | "homeDir">): string {
  if (ctx.os === "windows") {
    const appData = ctx.env.get("APPDATA");
    if (appData) return joinPath(ctx.os, appData, "hark", "config.json");
  }
  if (ctx.os === "linux") {
    const xdg = ctx.env.get("XDG_CONFIG_HOME");
    if (xdg) return joinPath(ctx.os, xdg, "hark", "config.json");
  }
  if (!ctx.homeDir) {
    throw new ValidationError(
      "Cannot locate the config file: HOME is not set",
      { param: "HARK_CONFIG", suggestion: "Set HARK_CONFIG to the path of the config file" },
    );
  }
  if (ctx.os === "darwin") {
    return joinPath(ctx.os, ctx.homeDir, "Library", "Application Support", "hark", "config.json");
  }
  return joinPath(ctx.os, ctx.homeDir, ".config", "hark", "config.json");
}

/**
 * Whether `path` is the default config path: the one in hark's own folder, whose keychain
 * entries carry no namespace.
 *
 * @param ctx the context (env, os, home)
 * @param path the config file's path
 */
export function isDefaultConfigPath(
  ctx: Pick<Context, "env" | "os" | "homeDir">,
  path: string,
): boolean {
  try {
    return path === defaultConfigPath(ctx);
  } catch {
    return false;
  }
}
