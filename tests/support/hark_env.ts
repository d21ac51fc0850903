/**
 * A throwaway home for running the real CLI as a subprocess: its own HOME, config file and
 * encrypted-file keychain in a temp folder, so no test touches the user's real ones.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FROM_SOURCE_FLAGS, HARK_RUN_FLAGS } from "../../scripts/permissions.ts";

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

/**
 * Runs `deno run <FROM_SOURCE_FLAGS> <HARK_RUN_FLAGS> main.ts <args>` (as `deno task hark`
 * does) with the given environment and nothing else of this process's but `PATH` and
 * {@link denoDirEnv} (which the given one may override or unset).
 *
 * @param args the arguments after `hark`
 * @param options environment, stdin and timeout
 */
export async function runHark(args: string[], options: RunHarkOptions = {}): Promise<HarkRun> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    ...denoDirEnv(),
  };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-check",
      ...FROM_SOURCE_FLAGS,
      ...HARK_RUN_FLAGS,
      MAIN_TS,
      ...args,
    ],
    env,
    clearEnv: true,
    cwd: REPO_ROOT,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }, options.timeoutMs ?? 60_000);
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    } catch (error) {
      // hark may stop reading before the end (an input over its cap): what it read is its own.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    }
  }
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
