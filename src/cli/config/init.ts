/**
 * `hark config init`: create or replace an app profile, keeping the app secret in the keychain
 * and only a reference to it in the config file.
 *
 * @module
 */

import {
  adoptKeychainNamespace,
  claimKeychainNamespace,
  namespaceFor,
  refersTo,
  storedAppSecretText,
  updateConfig,
} from "../../config/mod.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { keychainPath } from "../../keychain/keychain.ts";
import { writeData } from "../../output/output.ts";
import { canPrompt, confirm } from "../prompt.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { INIT_FLAGS } from "./config.ts";
import { openSession, type Session } from "../../session/session.ts";
import { type Answers, ask, AUTO, fromFlags } from "./init_answers.ts";
import { settleKeychain } from "./init_keychain.ts";
import { shellCommand } from "../../errors/shell_quote.ts";

export { BASE_URL_ALIASES } from "./init_answers.ts";

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
    namedProfile: call.globals.profile ?? call.ctx.env.get("HARK_PROFILE"),
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
  /**
   * Replace an existing profile without asking: at a prompt, only the profile named by
   * `--profile` or `HARK_PROFILE` (another name typed or accepted there is asked about).
   */
  force: boolean;
  /** The profile named by `--profile` or `HARK_PROFILE`, if any. */
  namedProfile?: string;
}

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
  // Before the first question: a keychain that cannot be used is known now, not after six answers.
  const keychain = await settleKeychain(session, interactive);
  if (keychain === undefined) return;
  const answers = interactive ? await ask(session, options) : await fromFlags(session, options);
  const plan = { ...planOf(session, options, answers, interactive), keychain: keychain.remember };
  if (session.previewChange(plan.preview)) return;
  const previous = await session.ctx.keychain.get(plan.secretPath);
  if (!(await mayReplaceSecret(session, options, plan, previous, interactive))) return;
  if (!(await mayReplaceProfile(session, options, plan, interactive))) return;
  const settled = await settleNamespace(session, plan, previous);
  await save(session, answers, settled.plan, settled.previous);
  await report(session, answers, settled.plan.secretPath);
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
  /** Whether a complete profile (one with an app secret) exists already. */
  replaces: boolean;
  /** The keychain backend to remember in `preferences.keychain`, chosen at the prompt. */
  keychain?: "file";
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
  // A profile saved without its secret (the keychain failed last time) holds only answers to
  // complete: nothing to lose.
  const replaces = session.config.apps?.[answers.profile]?.app_secret !== undefined;
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

/**
 * Whether an existing profile may be replaced: when the person says yes, or with `--force`
 * without a prompt or for the profile `--profile` / `HARK_PROFILE` named. `--force` never
 * replaces a profile only accepted at the "Profile name" prompt: Enter there would replace
 * `default` when another profile was meant.
 */
async function mayReplaceProfile(
  session: Session,
  options: ConfigInitOptions,
  plan: Plan,
  interactive: boolean,
): Promise<boolean> {
  if (!plan.replaces) return true;
  if (options.force && (!interactive || plan.profile === options.namedProfile)) return true;
  const { ctx } = session;
  const question = `Profile "${plan.profile}" exists${
    options.force ? " and --force named no profile (--profile)" : ""
  }. Replace it?`;
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
  try {
    // The secret goes only to the service it is stored for (and that service's sign-in host).
    await ctx.keychain.set(
      secretPath,
      storedAppSecretText(answers.appSecret, new URL(answers.baseUrl).origin),
    );
  } catch (error) {
    throw await keepAnswers(session, answers, plan, error);
  }
  try {
    await updateConfig(ctx, (config) => {
      adoptKeychainNamespace(config, namespace);
      if (plan.keychain) config.preferences = { ...config.preferences, keychain: plan.keychain };
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
 * The answers kept when the keychain refused the secret: a new profile is written without it
 * (app id, service, output format, the keychain chosen), and the error names the command that
 * adds the secret, with those answers on it. A profile being replaced is left as it was.
 *
 * @returns the error to throw: the keychain's, with that recovery
 */
async function keepAnswers(
  session: Session,
  answers: Answers,
  plan: Plan,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof HarkError) || error.type !== "keychain" || plan.replaces) return error;
  await updateConfig(session.ctx, (config) => {
    config.apps ??= {};
    config.apps[answers.profile] = { app_id: answers.appId, base_url: answers.baseUrl };
    if (plan.keychain) config.preferences = { ...config.preferences, keychain: plan.keychain };
    if (answers.outputFormat && answers.outputFormat !== AUTO) {
      config.preferences = { ...config.preferences, output_format: answers.outputFormat };
    }
  }, session.configPath);
  const profile = answers.profile === "default" ? [] : ["--profile", answers.profile];
  return error.withRecovery({
    suggestion: `${error.recovery.suggestion}. Profile "${answers.profile}" was saved without ` +
      "its app secret: run the command to add it, with your other answers on it",
    command: shellCommand([
      "hark",
      "config",
      "init",
      ...profile,
      "--app-id",
      answers.appId,
      "--base-url",
      answers.baseUrl,
    ]),
  });
}

/**
 * Reports the saved profile: the result for machines on stdout in JSON mode; the same news for
 * people on stderr always, with the next step.
 */
async function report(session: Session, answers: Answers, secretPath: string): Promise<void> {
  const { ctx } = session;
  const result = {
    profile: answers.profile,
    app_id: answers.appId,
    app_secret: `@keychain:${secretPath}`,
    base_url: answers.baseUrl,
    keychain: ctx.keychain.backend,
    config: session.configPath,
  };
  if (session.wantsJson()) await writeData(ctx, session.output, result);
  ctx.stderr.write(
    `Saved profile "${answers.profile}" (app ${answers.appId}, ${answers.baseUrl}) to ` +
      `${session.configPath}\nThe app secret is in the ${ctx.keychain.backend} keychain at ` +
      `${secretPath}\nNext: hark auth login${
        answers.profile === "default" ? "" : ` --profile ${answers.profile}`
      }\n`,
  );
}
