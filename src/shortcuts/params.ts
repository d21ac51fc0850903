/**
 * Shortcut parameters: help text, and turning raw values (flags, `--input` JSON, stdin,
 * environment) into typed ones, with a {@link ValidationError} naming the flag and the value.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { ParamSpec, ParamValue } from "./definition.ts";

/**
 * The flag of a parameter: `--chat-id`.
 *
 * @param spec the parameter
 */
export function flagOf(spec: Pick<ParamSpec, "name">): string {
  return `--${spec.name}`;
}

/**
 * The environment variable a parameter may come from: `HARK_IM_CHAT_ID` for `im`'s `chat-id`.
 *
 * @param service the shortcut's service
 * @param spec the parameter
 */
export function envVarOf(service: string, spec: Pick<ParamSpec, "name">): string {
  const part = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
  return `HARK_${part(service)}_${part(spec.name)}`;
}

/**
 * The help line of a parameter: its description, then type, required, default and allowed set.
 *
 * @param spec the parameter
 * @example
 * ```ts
 * paramHelp({ name: "limit", type: "int", description: "most users", default: 20 });
 * // "most users (int, default: 20)"
 * ```
 */
export function paramHelp(spec: ParamSpec): string {
  const facts: string[] = [spec.type];
  if (spec.type === "datetime") {
    facts[0] = "datetime: RFC 3339, YYYY-MM-DD, YYYY-MM-DD HH:MM, Unix s";
  }
  if (spec.required) facts.push("required");
  if (spec.default !== undefined) facts.push(`default: ${spec.default}`);
  if (spec.allowed) facts.push(`allowed: ${spec.allowed.join(", ")}`);
  if (spec.stdin) facts.push("or piped stdin");
  return `${spec.description} (${facts.join("; ")})`;
}

/**
 * The value placeholder of a parameter in help: `<id>`, `<int>`, `<datetime>`.
 *
 * @param spec the parameter
 */
export function valueNameOf(spec: ParamSpec): string {
  if (spec.valueName) return spec.valueName;
  if (spec.type === "enum") return "<value>";
  if (spec.type === "file") return "<path>";
  if (spec.type === "int") return "<n>";
  if (spec.type === "datetime") return "<time>";
  return "<text>";
}

/** Options of {@link parseDateTime}. */
export interface DateTimeOptions {
  /** For a date-only value: its first second (`start`, default) or its last (`end`). */
  dayEdge?: "start" | "end";
  /** The current time, epoch ms, for `now` and `today`. */
  now: number;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * Parses a time given on the command line: RFC 3339 (`2026-11-21T09:00:00+08:00`), a date
 * (`2026-11-21`, local time), a local date and time (`2026-11-21 09:30`), Unix seconds
 * (`1795251600`), or the words `now` and `today`. A date-only value is the beginning of that day,
 * or its end (23:59:59) with `dayEdge: "end"`.
 *
 * @param text the value as typed
 * @param options the day edge and the clock
 * @returns epoch milliseconds, or `undefined` when the text is not a time
 */
export function parseDateTime(text: string, options: DateTimeOptions): number | undefined {
  const value = text.trim();
  const end = options.dayEdge === "end";
  if (value === "now") return options.now;
  if (value === "today") {
    const today = new Date(options.now);
    return end
      ? new Date(today.getFullYear(), today.getMonth(), today.getDate(), 23, 59, 59).getTime()
      : new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  }
  if (/^\d{1,12}$/.test(value)) return Number(value) * 1000;
  const zoned = RFC3339.exec(value);
  if (zoned) {
    if (!validParts(zoned)) return undefined;
    const ms = Date.parse(value.replace(" ", "T"));
    return Number.isNaN(ms) ? undefined : ms;
  }
  const local = LOCAL.exec(value);
  if (!local || !validParts(local)) return undefined;
  const [year, month, day] = [Number(local[1]), Number(local[2]) - 1, Number(local[3])];
  if (local[4] === undefined) {
    return end
      ? new Date(year, month, day, 23, 59, 59).getTime()
      : new Date(year, month, day).getTime();
  }
  return new Date(year, month, day, Number(local[4]), Number(local[5]), Number(local[6] ?? 0))
    .getTime();
}

function validParts(m: RegExpExecArray): boolean {
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return false;
  return m[6] === undefined || Number(m[6]) <= 59;
}

/**
 * Turns a raw value into a typed one, checking it against the parameter's type and allowed set;
 * a `file` is read (and must be non-empty text) now, before anything is sent.
 *
 * @param ctx the context (clock, files)
 * @param spec the parameter
 * @param raw the value: a string from a flag, stdin or the environment, or any JSON value from
 *   `--input`
 * @param source where it came from, for the message (`--start`, `HARK_IM_CHAT_ID`, `--input`)
 * @throws {ValidationError} naming the flag, the source and the bad value
 */
export async function parseParamValue(
  ctx: Context,
  spec: ParamSpec,
  raw: unknown,
  source = flagOf(spec),
): Promise<ParamValue> {
  const flag = flagOf(spec);
  const shown = typeof raw === "string" ? JSON.stringify(raw) : JSON.stringify(raw) ?? String(raw);
  const from = source === flag ? flag : `${flag} (from ${source})`;
  const bad = (expected: string, cause?: unknown) =>
    new ValidationError(`Invalid value ${shown} for ${from}: expected ${expected}`, {
      param: flag,
      cause,
    });
  switch (spec.type) {
    case "string": {
      if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
      if (typeof raw !== "string") throw bad("text");
      return raw;
    }
    case "int": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && /^\s*[+-]?\d+\s*$/.test(raw)
        ? Number(raw)
        : NaN;
      if (!Number.isSafeInteger(n)) throw bad("a whole number");
      return n;
    }
    case "bool": {
      if (typeof raw === "boolean") return raw;
      const text = typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (["true", "1", "yes", "on"].includes(text)) return true;
      if (["false", "0", "no", "off"].includes(text)) return false;
      throw bad("true or false");
    }
    case "enum": {
      const allowed = spec.allowed ?? [];
      if (typeof raw !== "string" || !allowed.includes(raw)) {
        throw bad(`one of ${allowed.map((a) => `"${a}"`).join(", ")}`);
      }
      return raw;
    }
    case "datetime": {
      const text = typeof raw === "number" ? String(raw) : raw;
      const ms = typeof text === "string"
        ? parseDateTime(text, { dayEdge: spec.dayEdge, now: ctx.now() })
        : undefined;
      if (ms === undefined) {
        throw bad("RFC 3339 (2026-11-21T09:00:00Z), YYYY-MM-DD, YYYY-MM-DD HH:MM or Unix seconds");
      }
      return ms;
    }
    case "file": {
      if (typeof raw !== "string" || raw.trim() === "") throw bad("a file path");
      let text: string;
      try {
        text = await ctx.fs.readTextFile(raw);
      } catch (error) {
        throw new ValidationError(
          `Cannot read file ${JSON.stringify(raw)} for ${from}: ${(error as Error).message}`,
          { param: flag, cause: error },
        );
      }
      if (text.trim() === "") {
        throw new ValidationError(`File ${JSON.stringify(raw)} for ${from} is empty`, {
          param: flag,
        });
      }
      return { path: raw, text };
    }
  }
}

/**
 * A time as local `YYYY-MM-DD HH:MM`.
 *
 * @param ms epoch milliseconds
 */
export function formatLocalDateTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A time as RFC 3339 in UTC without fractions: `2026-11-21T09:00:00Z`.
 *
 * @param ms epoch milliseconds
 */
export function formatRfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
