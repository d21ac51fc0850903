/**
 * Shortcut parameters: help text, and turning raw values (flags, `--input` JSON, stdin,
 * environment) into typed ones, with a {@link ValidationError} naming the flag and the value.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/hark_error.ts";
import { parseTimeInput, TIME_INPUT_FORMS } from "../time/mod.ts";
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
    facts[0] = "datetime: YYYY-MM-DD, YYYY-MM-DD HH:MM, RFC 3339, Unix s, today, +2d, " +
      "tomorrow 3pm, next mon";
  }
  if (spec.required) facts.push("required");
  if (spec.requiredUnless) {
    facts.push(`required unless ${spec.requiredUnless.map((name) => `--${name}`).join(" or ")}`);
  }
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
  if (spec.type === "int" || spec.type === "number") return "<n>";
  if (spec.type === "datetime") return "<time>";
  return "<text>";
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
 * @param timeZone the zone a `datetime` is read in; default the user's (looked up only for a
 *   `datetime`: asking the system for its zone costs about 1 ms of CPU)
 * @throws {ValidationError} naming the flag, the source and the bad value
 */
export async function parseParamValue(
  ctx: Context,
  spec: ParamSpec,
  raw: unknown,
  source = flagOf(spec),
  timeZone?: string,
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
    case "number": {
      const n = typeof raw === "number"
        ? raw
        // One way to match each text, so a long one costs linear time.
        : typeof raw === "string" && /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(raw)
        ? Number(raw)
        : NaN;
      if (!Number.isFinite(n)) throw bad("a number");
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
      if (typeof text !== "string") throw bad(TIME_INPUT_FORMS);
      return parseTimeInput(text, {
        param: flag,
        source: source === flag ? undefined : source,
        now: ctx.now(),
        timeZone: timeZone ?? ctx.timeZone,
      });
    }
    case "file": {
      if (typeof raw !== "string" || raw.trim() === "") throw bad("a file path");
      let text: string;
      try {
        // Through openRead, as every file a user names is read (hark mcp checks it there).
        text = await new Response((await ctx.fs.openRead(raw)).stream).text();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ValidationError(
          `Cannot read file ${JSON.stringify(raw)} for ${from}: ${reason}`,
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
