/**
 * `hark config init`: create or replace an app profile, keeping the app secret in the keychain
 * and only a reference to it in the config file.
 *
 * @module
 */

import {
  adoptKeychainNamespace,
  checkProfileName,
  claimKeychainNamespace,
  DEFAULT_BASE_URL,
  namespaceFor,
  OUTPUT_FORMATS,
  type OutputFormat,
  refersTo,
  storedAppSecretText,
  updateConfig,
} from "../../config/mod.ts";
import { findKeySpec } from "../../config/config_keys.ts";
import { ValidationError } from "../../errors/mod.ts";
import { isOneOf } from "../../json/is_one_of.ts";
import { keychainPath } from "../../keychain/keychain.ts";
import { writeData } from "../../output/output.ts";
import { askChoice, askSecret, askText, canPrompt, confirm } from "../prompt.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { INIT_FLAGS } from "./config.ts";
import { openSession, type Session } from "../../session/session.ts";

/** Well-known service addresses by alias. */
export const BASE_URL_ALIASES: Record<string, string> = {
  lark: DEFAULT_BASE_URL,
  feishu: "https://open.feishu.cn",
};

/**
 * Runs `config init`.
 *
 * @param call the parsed command line
 */
export async function runConfigInit(
  call: CommandCall<FlagValuesOf<typeof INIT_FLAGS>>,
): Promise<void> {
  const { flags } = call;
  const options: ConfigInitOptions = {
    nonInteractive: flags["non-interactive"] === true,
    appId: flags["app-id"],
    appSecret: flags["app-secret"],
    appSecretStdin: flags["app-secret-stdin"] === true,
    baseUrl: flags["base-url"],
    outputFormat: flags["output-format"],
    force: flags.force === true,
  };
  if (options.appSecret !== undefined && options.appSecretStdin) {
    throw new ValidationError("Give either --app-secret or --app-secret-stdin, not both", {
      param: "--app-secret-stdin",
    });
  }
  await configInit(await openSession(call.ctx, call.globals, { profile: "create" }), options);
}

/** Options of {@link configInit}, as given on the command line. */
export interface ConfigInitOptions {
  /** Never prompt. */
  nonInteractive: boolean;
  /** The app id. */
  appId?: string;
  /** The app secret, from argv. */
  appSecret?: string;
  /** Read the app secret from stdin. */
  appSecretStdin: boolean;
  /** The base URL, or `lark` / `feishu`. */
  baseUrl?: string;
  /** The default output format to store in preferences; `auto` removes the preference. */
  outputFormat?: string;
  /** Replace an existing profile without asking. */
  force: boolean;
}

/** What `config init` settles on before writing anything. */
interface Answers {
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
const AUTO = "auto";

/**
 * Creates or replaces a profile. Interactive when stdin and stdout are terminals (unless
 * `--non-interactive`); otherwise every missing value is an error naming its flag.
 *
 * @param session the command's session
 * @param options the flags
 * @throws {ValidationError} for a missing or bad value, or an existing profile without `--force`
 * @throws {KeychainError} when the keychain cannot store the secret
 */
export async function configInit(session: Session, options: ConfigInitOptions): Promise<void> {
  const interactive = !options.nonInteractive && canPrompt(session.ctx);
  const answers = interactive ? await ask(session, options) : await fromFlags(session, options);
  const plan = planOf(session, options, answers, interactive);
  if (session.previewChange(plan.preview)) return;
  const previous = await session.ctx.keychain.get(plan.secretPath);
  if (!(await mayReplaceSecret(session, options, plan, previous, interactive))) return;
  if (!(await mayReplaceProfile(session, options, plan))) return;
  const settled = await settleNamespace(session, plan, previous);
  await save(session, answers, settled.plan, settled.previous);
  report(session, answers, settled.plan.secretPath);
}

/**
 * Records a new keychain namespace in the config before the secret is stored under it: when a
 * concurrent command gave the config one first, the secret goes under that one (and what the
 * keychain holds there is what a failure puts back).
 */
async function settleNamespace(
  session: Session,
  plan: Plan,
  previous: string | undefined,
): Promise<{ plan: Plan; previous: string | undefined }> {
  if (plan.namespace === undefined || session.config.keychain_namespace !== undefined) {
    return { plan, previous };
  }
  const { ctx } = session;
  const namespace = await claimKeychainNamespace(
    ctx,
    session.config,
    session.configPath,
    plan.namespace,
  );
  if (namespace === plan.namespace) return { plan, previous };
  const secretPath = keychainPath(plan.profile, "app_secret", namespace);
  return { plan: { ...plan, namespace, secretPath }, previous: await ctx.keychain.get(secretPath) };
}

/** What `config init` will write, decided before anything is. */
interface Plan {
  /** The profile. */
  profile: string;
  /** Where the app secret goes in the keychain. */
  secretPath: string;
  /** The config's keychain namespace (a new one for a config at another path). */
  namespace?: string;
  /** Whether the profile exists already. */
  replaces: boolean;
  /** The plan as `--dry-run` shows it. */
  preview: Record<string, unknown>;
}

/**
 * Plans the write: where the secret goes (a config at another path than the default one keeps
 * its secrets in its own namespace) and whether a profile is replaced.
 *
 * @throws {ValidationError} for an existing profile without `--force` when nobody can confirm
 */
function planOf(
  session: Session,
  options: ConfigInitOptions,
  answers: Answers,
  interactive: boolean,
): Plan {
  const { ctx } = session;
  const replaces = session.config.apps?.[answers.profile] !== undefined;
  if (replaces && !options.force && !interactive) {
    throw new ValidationError(`Profile "${answers.profile}" already exists`, {
      param: "--force",
      suggestion: "Pass --force to replace it, or choose another name with --profile",
    });
  }
  const { namespace } = namespaceFor(ctx, session.config, session.configPath);
  const secretPath = keychainPath(answers.profile, "app_secret", namespace);
  return {
    profile: answers.profile,
    secretPath,
    namespace,
    replaces,
    preview: {
      action: "config init",
      profile: answers.profile,
      app_id: answers.appId,
      app_secret: `@keychain:${secretPath}`,
      base_url: answers.baseUrl,
      output_format: answers.outputFormat ?? null,
      replaces,
      keychain: ctx.keychain.backend,
      config: session.configPath,
    },
  };
}

/**
 * Whether the secret may go where it is planned (`previous` is what the keychain holds there):
 * an entry this config does not refer to may be another config file's (the default one, or one
 * written before namespaces), so it is replaced only with `--force` or a person's yes.
 *
 * @throws {ValidationError} naming `--force` when nobody can confirm
 */
async function mayReplaceSecret(
  session: Session,
  options: ConfigInitOptions,
  plan: Plan,
  previous: string | undefined,
  interactive: boolean,
): Promise<boolean> {
  const { ctx } = session;
  const { secretPath, profile } = plan;
  if (previous === undefined || refersTo(session.config, secretPath) || options.force) return true;
  const flag = profile === "default" ? "" : ` --profile ${profile}`;
  const state = `the keychain entry "${secretPath}" exists and this config file does not ` +
    "refer to it: another config file may use that secret";
  if (!interactive) {
    throw new ValidationError(`Cannot store the app secret: ${state}`, {
      param: "--force",
      suggestion: "Pass --force to replace it, or use a config file of your own " +
        "(HARK_CONFIG), whose secrets are kept apart",
      command: `hark config init${flag} --force`,
    });
  }
  if (await confirm(ctx, `Careful: ${state}. Replace it?`, "--force")) return true;
  ctx.stderr.write("Nothing changed\n");
  return false;
}

/** Whether an existing profile may be replaced: with `--force`, or when the person says yes. */
async function mayReplaceProfile(
  session: Session,
  options: ConfigInitOptions,
  plan: Plan,
): Promise<boolean> {
  if (!plan.replaces || options.force) return true;
  const { ctx } = session;
  const question = `Profile "${plan.profile}" exists. Replace it?`;
  if (await confirm(ctx, question, "--force")) return true;
  ctx.stderr.write("Nothing changed\n");
  return false;
}

/**
 * Stores the secret in the keychain, then the profile in the config; when the config cannot be
 * written, the keychain is put back as it was (`previous`), so nothing is left half done.
 */
async function save(
  session: Session,
  answers: Answers,
  plan: Plan,
  previous: string | undefined,
): Promise<void> {
  const { ctx } = session;
  const { secretPath, namespace } = plan;
  // The secret goes only to the service it is stored for (and that service's sign-in host).
  await ctx.keychain.set(
    secretPath,
    storedAppSecretText(answers.appSecret, new URL(answers.baseUrl).origin),
  );
  try {
    await updateConfig(ctx, (config) => {
      adoptKeychainNamespace(config, namespace);
      // The first app becomes the active one; adding another never switches under the user.
      const firstApp = Object.keys(config.apps ?? {}).length === 0;
      config.apps ??= {};
      config.apps[answers.profile] = {
        ...(config.apps[answers.profile] ?? {}),
        app_id: answers.appId,
        app_secret: `@keychain:${secretPath}`,
        base_url: answers.baseUrl,
      };
      if (answers.outputFormat === AUTO) {
        if (config.preferences) delete config.preferences.output_format;
      } else if (answers.outputFormat) {
        config.preferences = { ...(config.preferences ?? {}), output_format: answers.outputFormat };
      }
      if (firstApp && !config.active_profile && answers.profile !== "default") {
        config.active_profile = answers.profile;
      }
    }, session.configPath);
  } catch (error) {
    // Leave the keychain as it was: nothing half done.
    if (previous === undefined) await ctx.keychain.delete(secretPath);
    else await ctx.keychain.set(secretPath, previous);
    throw error;
  }
}

/**
 * Reports the saved profile: the result for machines on stdout in JSON mode; the same news for
 * people on stderr always, with the next step.
 */
function report(session: Session, answers: Answers, secretPath: string): void {
  const { ctx } = session;
  const result = {
    profile: answers.profile,
    app_id: answers.appId,
    app_secret: `@keychain:${secretPath}`,
    base_url: answers.baseUrl,
    keychain: ctx.keychain.backend,
    config: session.configPath,
  };
  if (session.wantsJson()) writeData(ctx, session.output, result);
  ctx.stderr.write(
    `Saved profile "${answers.profile}" (app ${answers.appId}, ${answers.baseUrl}) to ` +
      `${session.configPath}\nThe app secret is in the ${ctx.keychain.backend} keychain at ` +
      `${secretPath}\nNext: hark auth login${
        answers.profile === "default" ? "" : ` --profile ${answers.profile}`
      }\n`,
  );
}

const NON_INTERACTIVE_EXAMPLE =
  'printf %s "$APP_SECRET" | hark config init --non-interactive --app-id cli_a1b2c3 --app-secret-stdin';

async function fromFlags(session: Session, options: ConfigInitOptions): Promise<Answers> {
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

async function ask(session: Session, options: ConfigInitOptions): Promise<Answers> {
  const { ctx } = session;
  const profile = await askText(ctx, "Profile name", "--profile", {
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
