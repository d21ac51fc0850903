/**
 * The operating system this process runs on, as hark tells them apart.
 *
 * @module
 */

import type { OsName } from "../context.ts";

/** The operating system, as hark tells them apart. */
export const SYSTEM_OS: OsName = Deno.build.os === "darwin"
  ? "darwin"
  : Deno.build.os === "windows"
  ? "windows"
  : "linux";
