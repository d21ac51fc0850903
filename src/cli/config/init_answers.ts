/**
 * The answers of `hark config init`: from the flags without a terminal, else asked at the
 * terminal, each checked as the config would check it.
 *
 * @module
 */

import {
  checkProfileName,
  DEFAULT_BASE_URL,
  OUTPUT_FORMATS,
  type OutputFormat,
} from "../../config/mod.ts";
import { findKeySpec } from "../../config/config_keys.ts";
import { ValidationError } from "../../errors/mod.ts";
import { isOneOf } from "../../json/is_one_of.ts";
import { askChoice, askSecret, askText } from "../prompt.ts";
import type { Session } from "../../session/session.ts";
import type { ConfigInitOptions } from "./init.ts";

/** Well-known service addresses by alias. */
export const BASE_URL_ALIASES: Record<string, string> = {
  lark: DEFAULT_BASE_URL,
  feishu: "https://open.feishu.cn",
};
/** What `config init` settles on before writing anything. */
export interface Answers {
  profile: string;
  appId: string;
  appSecret: string;
  baseUrl: string;
  /** A format to store, `auto` to remove the preference, or nothing to leave it as it is. */
  outputFormat?: OutputFormat | typeof AUTO;
}

/**
 * The output format that is no preference at all: a table on a terminal, JSON when piped. A
 * stored `table` would break `hark … | jq`, so this is what `config init` offers first.
 */
export const AUTO = "auto";

const NON_INTERACTIVE_EXAMPLE =
  'printf %s "$APP_SECRET" | hark config init --non-interactive --app-id cli_a1b2c3 --app-secret-stdin';

export async function fromFlags(session: Session, options: ConfigInitOptions): Promise<Answers> {
  const profile = checkProfileName(session.profile);
  if (options.appId === undefined) {
    throw new ValidationError("Missing --app-id: the app id is required without a terminal", {
      param: "--app-id",
      suggestion: `Pass the app id and the secret, as in: ${NON_INTERACTIVE_EXAMPLE}`,
      command: "hark config init --help",
    });
  }
  let appSecret = options.appSecret;
  if (options.appSecretStdin) {
    appSecret = new TextDecoder().decode(await session.ctx.stdin.readAll()).replace(/\r?\n$/, "");
    if (appSecret === "") {
      throw new ValidationError("Cannot read the app secret: stdin is empty", {
        param: "--app-secret-stdin",
      });
    }
  }
  if (appSecret === undefined) {
    throw new ValidationError(
      "Missing --app-secret-stdin or --app-secret: the app secret is required without a terminal",
      {
        param: "--app-secret-stdin",
        suggestion: `Pipe the secret in, as in: ${NON_INTERACTIVE_EXAMPLE}`,
        command: "hark config init --help",
      },
    );
  }
  if (options.appSecret !== undefined && !session.ctx.env.get("CI")) {
    session.ctx.stderr.write(
      "warning: --app-secret leaves the secret in your shell history; prefer --app-secret-stdin\n",
    );
  }
  return {
    profile,
    appId: checkAppId(profile, options.appId),
    appSecret: checkSecret(appSecret),
    baseUrl: checkBaseUrl(profile, options.baseUrl ?? DEFAULT_BASE_URL),
    outputFormat: checkFormat(options.outputFormat),
  };
}

export async function ask(session: Session, options: ConfigInitOptions): Promise<Answers> {
  const { ctx } = session;
  // Named with --profile or HARK_PROFILE, like every value given as a flag, it is not asked.
  const profile = options.namedProfile ?? await askText(ctx, "Profile name", "--profile", {
    default: session.profile,
    validate: (v) => validity(() => checkProfileName(v)),
  });
  const appId = options.appId ?? await askText(ctx, "App ID (cli_…)", "--app-id", {
    default: session.config.apps?.[profile]?.app_id,
    validate: (v) => validity(() => checkAppId(profile, v)),
  });
  const appSecret = options.appSecret ?? await askSecret(ctx, "App secret", "--app-secret-stdin");
  let baseUrl = options.baseUrl;
  if (baseUrl === undefined) {
    const choice = await askChoice(ctx, "Service", "--base-url", [
      { name: `Lark (${BASE_URL_ALIASES.lark})`, value: "lark" },
      { name: `Feishu (${BASE_URL_ALIASES.feishu})`, value: "feishu" },
      { name: "A private deployment (enter its URL)", value: "custom" },
    ]);
    baseUrl = choice === "custom"
      ? await askText(ctx, "Base URL", "--base-url", {
        validate: (v) => validity(() => checkBaseUrl(profile, v)),
      })
      : choice;
  }
  const outputFormat = options.outputFormat ?? await askChoice<string>(
    ctx,
    "Default output format",
    "--output-format",
    [
      { name: "auto (table on a terminal, JSON when piped)", value: AUTO },
      ...OUTPUT_FORMATS.map((f) => ({ name: f, value: f })),
    ],
  );
  return {
    profile,
    appId: checkAppId(profile, appId),
    appSecret: checkSecret(appSecret),
    baseUrl: checkBaseUrl(profile, baseUrl),
    outputFormat: checkFormat(outputFormat),
  };
}

function validity(check: () => unknown): string | true {
  try {
    check();
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A value checked by its config key whose parsed form is text (an app id, a base URL).
 *
 * @throws {ValidationError} for a bad value
 * @throws {Error} when the key parses to something other than text: a mistake in hark
 */
function parseText(key: string, value: string, param: string): string {
  const parsed = findKeySpec(key).parse(value, param);
  if (typeof parsed !== "string") {
    throw new Error(`Cannot read "${key}" as text: its parser gave a ${typeof parsed}`);
  }
  return parsed;
}

function checkAppId(profile: string, value: string): string {
  try {
    return parseText(`apps.${profile}.app_id`, value, "--app-id");
  } catch (error) {
    throw withParam(error, "--app-id");
  }
}

function checkBaseUrl(profile: string, value: string): string {
  const url = BASE_URL_ALIASES[value.toLowerCase()] ?? value;
  try {
    return parseText(`apps.${profile}.base_url`, url, "--base-url");
  } catch (error) {
    throw withParam(error, "--base-url");
  }
}

function checkSecret(value: string): string {
  // deno-lint-ignore no-control-regex
  if (value.length === 0 || value.length > 1024 || /[\x00-\x1f\x7f]/.test(value)) {
    throw new ValidationError(
      "Invalid app secret: expected 1 to 1024 printable characters",
      { param: "--app-secret" },
    );
  }
  return value;
}

function checkFormat(value: string | undefined): OutputFormat | typeof AUTO | undefined {
  if (value === undefined || value === AUTO) return value;
  if (isOneOf(OUTPUT_FORMATS, value)) return value;
  throw new ValidationError(
    `Invalid --output-format ${JSON.stringify(value)}: expected one of ${AUTO}, ${
      OUTPUT_FORMATS.join(", ")
    }`,
    { param: "--output-format", command: "hark config init --help" },
  );
}

function withParam(error: unknown, param: string): unknown {
  if (!(error instanceof ValidationError)) return error;
  const { suggestion, command } = error.recovery;
  return new ValidationError(error.message, { param, suggestion, command, cause: error });
}
