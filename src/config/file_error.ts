/**
 * Why a file operation on hark's own files failed, in words a user can act on.
 *
 * @module
 */

import type { OsName } from "../context.ts";
import { parentFolder } from "../path.ts";

/** A file failure explained: what is wrong and how to fix it. */
export interface FileFailure {
  /** What is wrong, naming the file or folder, such as `permission denied in "/etc/hark"`. */
  reason: string;
  /** How to fix it. */
  suggestion: string;
}

/**
 * Explains a failed write (or folder creation) of `path`.
 *
 * @param error what the file system threw
 * @param path the file being written
 * @param elsewhere how to choose another place, such as `point HARK_CONFIG at another file`
 * @example
 * ```ts
 * explainWriteFailure(new Deno.errors.PermissionDenied(), "/etc/hark/config.json", "set HARK_CONFIG", "linux");
 * // { reason: 'permission denied in "/etc/hark"', suggestion: 'Make "/etc/hark" writable … }
 * ```
 */
export function explainWriteFailure(
  error: unknown,
  path: string,
  elsewhere: string,
  os: OsName,
): FileFailure {
  const folder = parentFolder(os, path);
  if (error instanceof Deno.errors.PermissionDenied) {
    return {
      reason: `permission denied in "${folder}"`,
      suggestion: `Make "${folder}" writable by you (check it with: ls -ld "${folder}"), ` +
        `or ${elsewhere}`,
    };
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return {
      reason: `"${path}" is a folder`,
      suggestion: `Move the folder "${path}" away, or ${elsewhere}`,
    };
  }
  if (error instanceof Deno.errors.NotFound) {
    return {
      reason: `the folder "${folder}" does not exist`,
      suggestion: `Create the folder "${folder}", or ${elsewhere}`,
    };
  }
  if (error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists) {
    return {
      reason: `a part of "${folder}" is not a folder`,
      suggestion: `Check the path "${folder}", or ${elsewhere}`,
    };
  }
  return {
    reason: error instanceof Error ? error.message : String(error),
    suggestion: `Check "${folder}", or ${elsewhere}`,
  };
}
