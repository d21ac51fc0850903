/**
 * Command-line parsing for `deno task sandbox`.
 *
 * @module
 */

import type { SandboxOptions } from "./start_sandbox.ts";
import { type FaultSpec, validateFault } from "./operations/fault_registry.ts";

/** Parsed command line: sandbox options plus output flags. */
export interface SandboxCliOptions {
  options: SandboxOptions;
  /** Print one JSON line instead of text. */
  json: boolean;
  /** Print usage and exit. */
  help: boolean;
}

/** Usage text for `--help`. */
export const SANDBOX_USAGE = `Usage: deno task sandbox [options]

Runs the hark sandbox, a local Lark-compatible service, on 127.0.0.1 and prints its base URL.

Options:
  --port N                   TCP port (default 0: pick a free port)
  --seed S                   seed of the generated users, chats and events (default 1)
  --auto-approve-after N     approve a device code after N polls (default: never)
  --app-id X                 app id to accept (default cli_sandbox)
  --app-secret Y             app secret to accept (default sandbox-secret)
  --access-token-ttl S       access-token lifetime in seconds (default 7200)
  --refresh-token-ttl S      refresh-token lifetime in seconds (default 2592000)
  --tenant-token-ttl S       tenant-token lifetime in seconds (default 7200)
  --device-code-ttl S        device-code lifetime in seconds (default 600)
  --interval S               device poll interval in seconds (default 5)
  --events-per-day N         extra seeded events per day, for load tests (default 0)
  --messages-per-chat N      messages in each seeded chat's history (default 60)
  --seed-messages N          messages in the first chat's history instead, e.g. 50000 for the
                             memory benchmark (generated lazily; default: --messages-per-chat)
  --start-day YYYY-MM-DD     anchor day of the seeded events (default today, UTC)
  --faults <json|@file>      startup fault profile: a FaultSpec or a list of them
  --app-scopes a,b,...       scopes the app has enabled (default: every scope Lark knows)
  --json                     print {"base_url","app_id","app_secret"} as one JSON line
  --quiet                    do not log requests to stderr
  -h, --help                 show this help
`;

const NUMBER_FLAGS: Record<string, keyof SandboxOptions> = {
  "--port": "port",
  "--seed": "seed",
  "--auto-approve-after": "autoApproveAfter",
  "--access-token-ttl": "accessTokenTtl",
  "--refresh-token-ttl": "refreshTokenTtl",
  "--tenant-token-ttl": "tenantTokenTtl",
  "--device-code-ttl": "deviceCodeTtl",
  "--interval": "interval",
  "--events-per-day": "eventsPerDay",
  "--messages-per-chat": "messagesPerChat",
  "--seed-messages": "largeChatMessages",
};
const INTEGER_FLAGS = new Set([
  "--port",
  "--seed",
  "--auto-approve-after",
  "--events-per-day",
  "--messages-per-chat",
  "--seed-messages",
]);
const STRING_FLAGS: Record<string, "appId" | "appSecret" | "startDay"> = {
  "--app-id": "appId",
  "--app-secret": "appSecret",
  "--start-day": "startDay",
};

/**
 * Parses the sandbox's command line.
 *
 * @param args the arguments after the script name
 * @param readFile reads the file of `--faults @file`
 * @throws {Error} naming the offending flag or value
 */
export function parseSandboxArgs(
  args: string[],
  readFile: (path: string) => string = Deno.readTextFileSync,
): SandboxCliOptions {
  const result: SandboxCliOptions = { options: { quiet: false }, json: false, help: false };
  const options = result.options as Record<string, unknown>;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      if (flag !== arg) return arg.slice(eq + 1);
      const next = args[++i];
      if (next === undefined) throw new Error(`Missing value for "${flag}"`);
      return next;
    };
    if (flag === "--help" || flag === "-h") result.help = true;
    else if (flag === "--json") result.json = true;
    else if (flag === "--quiet") options.quiet = true;
    else if (flag in NUMBER_FLAGS) {
      const text = value();
      const n = Number(text);
      const integer = INTEGER_FLAGS.has(flag);
      if (text.trim() === "" || !Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
        throw new Error(
          `Invalid value "${text}" for "${flag}": expected a non-negative ${
            integer ? "integer" : "number"
          }`,
        );
      }
      if (flag === "--port" && n > 65535) throw new Error(`Invalid value "${text}" for "--port"`);
      options[NUMBER_FLAGS[flag]] = n;
    } else if (flag in STRING_FLAGS) {
      options[STRING_FLAGS[flag]] = value();
    } else if (flag === "--faults") {
      result.options.faults = parseFaults(value(), readFile);
    } else if (flag === "--app-scopes") {
      result.options.appScopes = value().split(/[\s,]+/).filter((s) => s !== "");
    } else {
      throw new Error(`Unknown option "${arg}"; see --help`);
    }
  }
  return result;
}

function parseFaults(text: string, readFile: (path: string) => string): FaultSpec[] {
  let source = text;
  if (text.startsWith("@")) {
    try {
      source = readFile(text.slice(1));
    } catch (error) {
      throw new Error(`Cannot read faults file "${text.slice(1)}"`, { cause: error });
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new Error(`Cannot parse "--faults": not valid JSON`, { cause: error });
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map(validateFault);
}
