/**
 * A throwaway home for running the real CLI as a subprocess: its own HOME, config file and
 * encrypted-file keychain in a temp folder, so no test touches the user's real ones.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FROM_SOURCE_FLAGS, HARK_RUN_FLAGS } from "../../scripts/permissions.ts";
import { type LiveProcess, startProcess } from "./subprocess.ts";

export { HARK_RUN_FLAGS };

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The entry point. */
export const MAIN_TS = join(REPO_ROOT, "main.ts");

/** What a run of hark produced. */
export interface HarkRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link HarkEnv.run}. */
export interface RunHarkOptions {
  /** Extra or overriding environment variables; `undefined` values unset a variable. */
  env?: Record<string, string | undefined>;
  /** Text piped to stdin; default none (stdin closed). */
  stdin?: string;
  /** Kill the process after this many ms; default 60 000. */
  timeoutMs?: number;
}

/** A temp home with a config path and a file keychain. */
export interface HarkEnv {
  /** The temp folder holding everything. */
  dir: string;
  /** The config file path (`HARK_CONFIG`). */
  configPath: string;
  /** The environment every run gets. */
  env: Record<string, string>;
  /** Runs `hark <args>` as a subprocess. */
  run(args: string[], options?: RunHarkOptions): Promise<HarkRun>;
  /** Starts `hark <args>` as a subprocess whose stderr can be awaited while it runs. */
  start(args: string[], options?: RunHarkOptions): LiveProcess;
  /** Reads and parses the config file. */
  readConfig(): Promise<Record<string, unknown>>;
  /** Writes the config file (its folder made first). */
  writeConfig(config: unknown): Promise<void>;
  /** Removes the temp folder. */
  cleanup(): Promise<void>;
}

/** The password of the test file keychain. */
export const TEST_KEYCHAIN_PASSWORD = "test-keychain-password";

/**
 * Creates a throwaway environment for the CLI.
 *
 * @param extraEnv variables added to every run
 */
export async function createHarkEnv(extraEnv: Record<string, string> = {}): Promise<HarkEnv> {
  const dir = await Deno.makeTempDir({ prefix: "hark-test-" });
  const home = join(dir, "home");
  await Deno.mkdir(home, { recursive: true });
  const configPath = join(dir, "config", "config.json");
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    HARK_CONFIG: configPath,
    HARK_KEYCHAIN: "file",
    HARK_KEYCHAIN_PASSWORD: TEST_KEYCHAIN_PASSWORD,
    HARK_DATA_DIR: join(dir, "data"),
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    ...denoDirEnv(),
    ...extraEnv,
  };
  return {
    dir,
    configPath,
    env,
    run: (args, options = {}) => runHark(args, { ...options, env: { ...env, ...options.env } }),
    start: (args, options = {}) => startHark(args, { ...options, env: { ...env, ...options.env } }),
    async readConfig() {
      return JSON.parse(await Deno.readTextFile(configPath));
    },
    async writeConfig(config) {
      await Deno.mkdir(join(configPath, ".."), { recursive: true });
      await Deno.writeTextFile(configPath, JSON.stringify(config));
    },
    async cleanup() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * The variables a Deno (or any) child process must keep when a test clears its environment: how
 * to reach and trust the network (the CA and proxy settings of a machine behind a
 * TLS-inspecting proxy, say) and the npm registry.
 */
export const NETWORK_ENV_NAMES: readonly string[] = [
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NPM_CONFIG_REGISTRY",
  ...["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY"].flatMap((n) => [n, n.toLowerCase()]),
];

/**
 * The environment a child Deno needs besides its own variables: the real Deno cache folder, so
 * subprocesses with a temp HOME still find the npm packages, and this process's
 * {@link NETWORK_ENV_NAMES}, so one that downloads (`deno bundle` fetching esbuild) trusts the
 * same certificates and uses the same proxy. Spread it into every `clearEnv: true` child's env.
 */
export function denoDirEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of NETWORK_ENV_NAMES) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const dir = denoDir();
  if (dir !== undefined) env.DENO_DIR = dir;
  return env;
}

/** The Deno cache folder this process uses. */
function denoDir(): string | undefined {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (Deno.build.os === "windows") {
    const local = Deno.env.get("LOCALAPPDATA");
    return local ? join(local, "deno") : undefined;
  }
  if (!home) return undefined;
  if (Deno.build.os === "darwin") return join(home, "Library", "Caches", "deno");
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno");
}

/** The `deno` arguments that run hark from source, before hark's own (as `deno task hark`). */
export const HARK_DENO_ARGS: readonly string[] = [
  "run",
  "--quiet",
  "--no-check",
  ...FROM_SOURCE_FLAGS,
  ...HARK_RUN_FLAGS,
  MAIN_TS,
];

/**
 * Starts `deno run <FROM_SOURCE_FLAGS> <HARK_RUN_FLAGS> main.ts <args>` (as `deno task hark`
 * does) with the given environment and nothing else of this process's but `PATH` and
 * {@link denoDirEnv} (which the given one may override or unset); its stderr can be awaited
 * line by line while it runs.
 *
 * @param args the arguments after `hark`
 * @param options environment, stdin and timeout
 */
export function startHark(args: string[], options: RunHarkOptions = {}): LiveProcess {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    ...denoDirEnv(),
  };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return startProcess(Deno.execPath(), [...HARK_DENO_ARGS, ...args], {
    env,
    cwd: REPO_ROOT,
    stdin: options.stdin,
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Runs hark to its end (see {@link startHark}).
 *
 * @param args the arguments after `hark`
 * @param options environment, stdin and timeout
 */
export async function runHark(args: string[], options: RunHarkOptions = {}): Promise<HarkRun> {
  const { code, stdout, stderr } = await startHark(args, options).done;
  return { code, stdout, stderr };
}
