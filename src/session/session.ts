/**
 * What every command's work starts from, gh's "factory": the global flags, the loaded config, the
 * chosen profile, and lazily built token sources and API clients (one per identity, shared by
 * everything the command does). Commands open a session only after their flags are checked, so
 * `--help` and a bad flag never read the config. The MCP server opens one for all its calls: the
 * session sits below both front ends (`src/cli`, `src/mcp`).
 *
 * @module
 */

import type { Context } from "../context.ts";
import { createTokenSource } from "../auth/create_token_source.ts";
import type { Identity } from "../auth/identity.ts";
import type { TokenSource } from "../auth/token_source.ts";
import {
  type Config,
  insecureWarning,
  loadConfig,
  notConfigured,
  ownedNamespace,
  requireKnownProfile,
  resolveConfigPath,
  resolveServiceAddress,
  secretWarnings,
  selectProfile,
  type ServiceAddress,
} from "../config/mod.ts";
import { checkConfigValues } from "../config/config_keys.ts";
import { keychainBackendName } from "../keychain/backend_name.ts";
import { keychainPath } from "../keychain/keychain.ts";
import { ApiClient } from "../http/api_client.ts";
import { formatJson, type OutputOptions, resolveFormat } from "../output/output.ts";
import { type GlobalOptions, outputOptions } from "./global_options.ts";
import { withDebug } from "./with_debug.ts";

/** The state of one command invocation. */
export class Session {
  /** The context. */
  readonly ctx: Context;
  /** The global flags. */
  readonly globals: GlobalOptions;
  /** The config file's path. */
  readonly configPath: string;
  /** The config as loaded at the start. */
  readonly config: Config;
  /** The profile in use. */
  readonly profile: string;
  /** Whether the profile was named (`--profile`, `$HARK_PROFILE`, `active_profile`). */
  readonly profileExplicit: boolean;
  /** How to write data. */
  readonly output: OutputOptions;
  /** `--allow-insecure-http`: plain HTTP to a service on another machine. */
  readonly allowInsecureHttp: boolean;
  readonly #tokens = new Map<Identity, TokenSource>();
  readonly #clients = new Map<Identity, ApiClient>();
  #service: ServiceAddress | undefined;

  /**
   * @param ctx the context
   * @param globals the global flags
   * @param configPath the config file's path
   * @param config the loaded config
   */
  constructor(ctx: Context, globals: GlobalOptions, configPath: string, config: Config) {
    this.ctx = ctx;
    this.globals = globals;
    this.configPath = configPath;
    this.config = config;
    this.profile = selectProfile(ctx, config, globals.profile);
    this.profileExplicit = globals.profile !== undefined || !!ctx.env.get("HARK_PROFILE") ||
      config.active_profile !== undefined;
    this.output = outputOptions(globals, config);
    this.allowInsecureHttp = globals.allowInsecureHttp === true;
  }

  /** The identity asked for with `--as`, else `user`. */
  get identity(): Identity {
    return this.globals.as ?? "user";
  }

  /**
   * The token source of an identity, built on first use (nothing is resolved until asked).
   *
   * @param identity the identity; default {@link Session.identity}
   * @throws {ValidationError} when nothing could give a token (see {@link Session.requireSetup}),
   *   or for a service address {@link Session.service} refuses
   */
  tokens(identity: Identity = this.identity): TokenSource {
    let source = this.#tokens.get(identity);
    if (!source) {
      this.requireSetup(identity);
      this.service();
      source = createTokenSource(this.ctx, {
        config: this.config,
        profile: this.profile,
        configPath: this.configPath,
        identity,
        allowInsecureHttp: this.allowInsecureHttp,
      });
      this.#tokens.set(identity, source);
    }
    return source;
  }

  /**
   * The API client of an identity, built on first use and shared.
   *
   * @param identity the identity; default {@link Session.identity}
   * @throws {ValidationError} when an explicitly named profile does not exist
   */
  client(identity: Identity = this.identity): ApiClient {
    let client = this.#clients.get(identity);
    if (!client) {
      const base = this.baseUrl();
      client = new ApiClient(this.ctx, {
        baseUrl: base,
        tokens: this.tokens(identity),
        caller: {
          identity,
          profile: this.profile,
          appId: this.ctx.env.get("HARK_APP_ID") || this.config.apps?.[this.profile]?.app_id,
          serviceOrigin: new URL(base).origin,
        },
      });
      this.#clients.set(identity, client);
    }
    return client;
  }

  /**
   * Checks that a token can come from somewhere before anything looks for one: the profile has
   * an app or a signed-in user in the config, or the environment holds a token (or, for the bot,
   * the app credentials). `app` asks for the app credentials themselves, as signing in needs:
   * the profile's app, or `HARK_APP_ID` and `HARK_APP_SECRET`. Without any of them the answer is
   * "run `hark config init` first", given before the keychain is touched (on a headless Linux
   * that would be a D-Bus error).
   *
   * @param need the identity a token is needed for, or `app`
   * @throws {ValidationError} naming `hark config init` when nothing is set up
   */
  requireSetup(need: Identity | "app" = this.identity): void {
    const { config, profile } = this;
    if (config.apps?.[profile] !== undefined) return;
    const env = (name: string) => !!this.ctx.env.get(name)?.trim();
    const appFromEnv = env("HARK_APP_ID") && env("HARK_APP_SECRET");
    const ready = need === "app" ? appFromEnv : config.users?.[profile] !== undefined ||
      (need === "user" ? env("HARK_USER_ACCESS_TOKEN") : env("HARK_TENANT_ACCESS_TOKEN")) ||
      (need === "bot" && appFromEnv);
    if (ready) return;
    throw notConfigured(
      profile,
      need === "user"
        ? "HARK_USER_ACCESS_TOKEN"
        : need === "bot"
        ? "HARK_TENANT_ACCESS_TOKEN, or HARK_APP_ID and HARK_APP_SECRET"
        : "HARK_APP_ID and HARK_APP_SECRET",
    );
  }

  /**
   * The checked service address of the profile (`HARK_BASE_URL`, else the profile's `base_url`,
   * else Lark's). The first call on a plain-HTTP address of another machine (allowed by
   * `--allow-insecure-http` or `allow_insecure_http`) prints the warning; every command that
   * reaches the service calls it, so the warning shows every time.
   *
   * @throws {ValidationError} for an address that is not an http(s) URL, or plain HTTP to
   *   another machine without the allowance
   */
  service(): ServiceAddress {
    if (!this.#service) {
      this.#service = resolveServiceAddress(this.ctx.env, this.config, this.profile, {
        allowInsecureHttp: this.allowInsecureHttp,
      });
      if (this.#service.insecure) {
        this.ctx.stderr.write(`warning: ${insecureWarning(this.#service)}\n`);
      }
    }
    return this.#service;
  }

  /**
   * The service address of the profile ({@link Session.service}). Without a config the default
   * address serves (a CI job with an environment token needs no config), but a profile named by
   * `--profile`, `$HARK_PROFILE` or `active_profile` must exist: a typo must not send a token to
   * the public service.
   *
   * @throws {ValidationError} listing the known profiles when an explicitly named one is
   *   unknown, or for an address {@link Session.service} refuses
   */
  baseUrl(): string {
    const app = this.config.apps?.[this.profile];
    if (!app && this.profileExplicit) {
      requireKnownProfile(this.config, this.profile, profileSource(this.ctx, this.globals));
    }
    return this.service().baseUrl;
  }

  /**
   * Whether the command's result is JSON (a document or one record per line): `--json`,
   * `--format json` or `ndjson`, else `preferences.output_format`, else whether stdout is piped.
   */
  wantsJson(): boolean {
    const format = resolveFormat(this.ctx, this.output);
    return format === "json" || format === "ndjson";
  }

  /**
   * `--dry-run` for commands that change something: prints the change they would make, as JSON
   * on stdout with `"dry_run": true`, and answers whether the caller must stop there. Secrets in
   * the plan must already be references or masks.
   *
   * @param plan what the command would do, such as `{ action: "profile use", profile: "work" }`
   * @returns true when `--dry-run` was given and the plan was printed
   */
  previewChange(plan: Record<string, unknown>): boolean {
    if (!this.globals.dryRun) return false;
    this.ctx.stdout.write(
      formatJson({ dry_run: true, ...plan }, this.ctx.stdout.isTerminal) + "\n",
    );
    return true;
  }
}

/**
 * How a command uses the profile, which decides what {@link openSession} checks:
 * - `use`: it works with the profile (sign-in, tokens, business calls): a profile named by
 *   `--profile`, `HARK_PROFILE` or `active_profile` must exist, and the profile's hand-editable
 *   values (`apps.<profile>.*`, `preferences`) must be valid;
 * - `create`: it creates or replaces the profile (`config init`): the name may be new;
 * - `none`: it works on the config file as a whole (`config get/set`, `profile …`), so that a
 *   broken value or a stray `HARK_PROFILE` can always be fixed.
 */
export type ProfileUse = "use" | "create" | "none";

/**
 * Loads the config and picks the profile for a command, warning about secrets kept in the clear.
 * `HARK_KEYCHAIN` is checked first, before anything could read a secret.
 *
 * @param ctx the context
 * @param globals the global flags
 * @param options how the command uses the profile; default `use`
 * @throws {ValidationError} for a bad `HARK_KEYCHAIN`, a malformed config, a bad profile name,
 *   and (`use`) an unknown profile named explicitly or a bad value in the profile's settings
 */
export async function openSession(
  ctx: Context,
  globals: GlobalOptions,
  options: { profile?: ProfileUse } = {},
): Promise<Session> {
  const context = globals.debug ? withDebug(ctx) : ctx;
  keychainBackendName(context);
  const configPath = resolveConfigPath(context);
  const config = await loadConfig(context, configPath);
  // The keychain the config chose (`hark config init` remembers one), unless HARK_KEYCHAIN says.
  context.configureKeychain?.({ preference: config.preferences?.keychain });
  const session = new Session(context, globals, configPath, config);
  if ((options.profile ?? "use") === "use") {
    if (config.apps?.[session.profile] === undefined && session.profileExplicit) {
      requireKnownProfile(config, session.profile, profileSource(ctx, globals));
    }
    checkConfigValues(config, session.profile, configPath);
  }
  if (readsKeychain(context, globals, config, session.profile, options.profile ?? "use")) {
    // The bus's round trips then overlap with loading the rest of the command, and so does
    // reading the sign-in's token.
    context.keychain.prepare?.(readAhead(context, globals, config, configPath, session.profile));
  }
  for (const warning of secretWarnings(ctx.env, config, session.profile)) {
    ctx.stderr.write(`warning: ${warning}\n`);
  }
  return session;
}

/**
 * Whether a command will read the profile's secrets from the keychain: it works with a profile
 * whose user or app secret is kept there, no environment token stands in, and it is no dry run.
 */
function readsKeychain(
  ctx: Context,
  globals: GlobalOptions,
  config: Config,
  profile: string,
  use: ProfileUse,
): boolean {
  if (use !== "use" || globals.dryRun) return false;
  const env = (name: string) => !!ctx.env.get(name)?.trim();
  if (env("HARK_USER_ACCESS_TOKEN") || env("HARK_TENANT_ACCESS_TOKEN")) return false;
  return config.users?.[profile] !== undefined ||
    !!config.apps?.[profile]?.app_secret?.startsWith("@keychain:");
}

/**
 * The keychain entry a command of a signed-in profile reads first, its user token, unless it
 * acts as the bot: only this config file's own entry (the one the token source accepts), never
 * one its `users.<profile>` names elsewhere.
 */
function readAhead(
  ctx: Context,
  globals: GlobalOptions,
  config: Config,
  configPath: string,
  profile: string,
): string[] {
  if (globals.as === "bot" || config.users?.[profile] === undefined) return [];
  const owned = ownedNamespace(ctx, config, configPath);
  return owned === undefined ? [] : [keychainPath(profile, "user_token", owned.namespace)];
}

/** What named the profile: `--profile`, `HARK_PROFILE` or `active_profile`. */
function profileSource(ctx: Context, globals: GlobalOptions): string {
  if (globals.profile !== undefined) return "--profile";
  return ctx.env.get("HARK_PROFILE") ? "HARK_PROFILE" : "active_profile";
}
