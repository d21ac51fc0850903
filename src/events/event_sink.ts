/**
 * Where events go: one JSON line per event on stdout, or one file per event in a folder
 * (`--output-dir`, or the folder of the first `--route` whose pattern matches the type), written
 * atomically (a temporary file, flushed, renamed), so a reader never sees half an event.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { formatJson } from "../output/output.ts";
import { joinPath } from "../path.ts";
import { compactEvent, type EventRecord } from "./event_record.ts";

/** A `--route`: events whose type matches go to the folder. */
export interface Route {
  pattern: RegExp;
  dir: string;
}

/** Options of {@link createSink}. */
export interface SinkOptions {
  /** The folder of events no route takes; default stdout. */
  outputDir?: string;
  /** Routes, first match wins. */
  routes: Route[];
  /** Write the compact form. */
  compact: boolean;
}

/**
 * Reads a `--route` value: `<regex>=dir:<path>`.
 *
 * @param spec the value
 * @throws {ValidationError} naming `--route` and the expected shape
 */
export function parseRoute(spec: string): Route {
  const at = spec.lastIndexOf("=dir:");
  const source = at > 0 ? spec.slice(0, at) : "";
  const dir = at > 0 ? spec.slice(at + 5) : "";
  if (!source || !dir) {
    throw new ValidationError(`Invalid --route "${spec}": expected <regex>=dir:<path>`, {
      param: "--route",
      suggestion: "For example --route '^im\\.message=dir:./im'",
    });
  }
  return { pattern: parsePattern(source, "--route"), dir };
}

/**
 * Reads a regular expression given on the command line.
 *
 * @param source the pattern
 * @param flag the flag, for the error
 * @throws {ValidationError} when it is not a valid pattern
 */
export function parsePattern(source: string, flag: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new ValidationError(
      `Invalid ${flag} "${source}": ${error instanceof Error ? error.message : error}`,
      { param: flag, suggestion: "Give a JavaScript regular expression, such as ^im\\." },
    );
  }
}

/**
 * The writer of events.
 *
 * @param ctx the context
 * @param options where and how
 * @returns the function that writes one event and resolves once it is out
 */
export function createSink(
  ctx: Context,
  options: SinkOptions,
): (record: EventRecord) => Promise<void> {
  const made = new Set<string>();
  return async (record) => {
    const data = options.compact ? compactEvent(record) : record;
    const dir = options.routes.find((r) => r.pattern.test(record.type))?.dir ?? options.outputDir;
    if (dir === undefined) {
      ctx.stdout.write(formatJson(data, false) + "\n");
      return;
    }
    if (!made.has(dir)) {
      await ctx.fs.mkdir(dir, 0o700);
      made.add(dir);
    }
    await ctx.fs.writeFileAtomic(
      joinPath(ctx.os, dir, fileNameOf(record)),
      formatJson(data, true) + "\n",
      0o600,
    );
  };
}

/**
 * The file of an event: `<create time ms>_<type>_<id>.json`, with anything but letters, digits,
 * dots, dashes and underscores replaced (the type and id come from the network), so files sort
 * in the order events were created.
 *
 * @param record the event
 */
export function fileNameOf(record: EventRecord): string {
  const ms = Date.parse(record.create_time);
  const clean = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  const stamp = Number.isFinite(ms) ? String(ms).padStart(13, "0") : "0000000000000";
  return `${stamp}_${clean(record.type)}_${clean(record.id)}.json`.replace(/^\.+/, "_");
}
