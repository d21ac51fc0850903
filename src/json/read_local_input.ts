/**
 * Reading an input a user names on the command line: a file (`--data @file`, `--input file`) or
 * stdin (`-`), at most {@link MAX_INPUT_BYTES}. A file must be a regular file: a pipe with no
 * writer would wait forever when opened, and a device such as `/dev/zero` never ends; both are
 * refused before they are opened. Stdin is read until the cap, then the read stops.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";

/** The most bytes of an input given as a file or on stdin: 10 MiB (a body is far smaller). */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** Where an input comes from: stdin, or a file by its path. */
export type LocalInput = { stdin: true } | { path: string };

/**
 * Reads an input, at most `max` bytes.
 *
 * @param ctx the context (files, stdin)
 * @param from stdin, or the path of a file
 * @param flag the flag it is given to (`--data`), named in errors
 * @param max the most bytes read; default {@link MAX_INPUT_BYTES}
 * @returns the bytes
 * @throws {ValidationError} naming `flag` when the file is missing, a folder, not a regular
 *   file (a pipe, a device, a socket) or unreadable, or when the input is larger than `max`
 * @example
 * ```ts
 * const body = await readLocalInput(ctx, { path: "event.json" }, "--input");
 * await readLocalInput(ctx, { path: "/dev/zero" }, "--data");
 * // ValidationError: Cannot read --data file "/dev/zero": it is not a regular file (…)
 * ```
 */
export async function readLocalInput(
  ctx: Pick<Context, "fs" | "stdin">,
  from: LocalInput,
  flag: string,
  max = MAX_INPUT_BYTES,
): Promise<Uint8Array> {
  const where = "stdin" in from ? "from stdin" : `file ${JSON.stringify(from.path)}`;
  const bad = (problem: string, suggestion?: string, cause?: unknown) =>
    new ValidationError(`Cannot read ${flag} ${where}: ${problem}`, {
      param: flag,
      suggestion,
      cause,
    });
  const tooLarge = () =>
    bad(
      `it is larger than ${max / 1024 / 1024} MiB`,
      "Give a smaller input: a request body is far smaller than that",
    );
  if ("stdin" in from) return await readCapped(ctx.stdin.stream(), max, tooLarge);
  const { path } = from;
  let stream: ReadableStream<Uint8Array>;
  try {
    const info = await ctx.fs.stat(path);
    if (info === undefined) throw new Deno.errors.NotFound(path);
    if (info.isDirectory) throw bad("it is a folder", "Give the path of a JSON file");
    if (!info.isFile) {
      throw bad(
        "it is not a regular file (a pipe, a device or a socket)",
        `Give a file, or pass ${flag} - to read stdin`,
      );
    }
    if (info.size > max) throw tooLarge();
    stream = (await ctx.fs.openRead(path)).stream;
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (error instanceof Deno.errors.NotFound) throw bad("no such file", undefined, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw bad(reason, undefined, error);
  }
  // The file may have grown since it was looked at: the read stops at the cap all the same.
  return await readCapped(stream, max, tooLarge);
}

/** Reads a stream whole, or throws `tooLarge()` (the stream cancelled) past `max` bytes. */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
