/**
 * Shared helpers of the benchmarks: the ways to run hark (`deno run main.ts`, and the code-split
 * bundle that `deno task compile` compiles, run with the compile-time permissions), a throwaway
 * home with a file keychain, timed subprocess runs with peak RSS (through the tests' one runner,
 * `tests/support/subprocess.ts`), the Debian programs the benchmarks use, the sandbox's test
 * routes, signing in through the CLI, and summary statistics.
 *
 * Benchmarks are not tests: nothing here asserts a timing. A step that does not work (a command
 * that exits non-zero, a sandbox route that answers an error) throws, so no figure is ever
 * reported for something that did not happen.
 *
 * @module
 */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FROM_SOURCE_FLAGS } from "../scripts/permissions.ts";
import {
  createHarkEnv,
  denoDirEnv,
  HARK_RUN_FLAGS,
  MAIN_TS,
  REPO_ROOT,
} from "../tests/support/hark_env.ts";
import type { LoggedRequest, RequestStats, Sandbox } from "../sandbox/mod.ts";
import { bundleHark } from "../scripts/bundle.ts";
import { findProgram } from "../scripts/test_packages.ts";
import { startProcess } from "../tests/support/subprocess.ts";
import { type PeakRssRun, runWithPeakRss, sampleVmHwm } from "../tests/support/peak_rss.ts";

export { REPO_ROOT };

/** How hark is started: the program, its leading arguments and the folder it runs in. */
export interface HarkTarget {
  /** `deno_run` (source through `deno run --no-check`) or `bundle` (the bundled file). */
  name: string;
  /** Human-readable command line, for RESULTS.md. */
  describe: string;
  /** Arguments before hark's own (`run … main.ts`). */
  args: string[];
  /** Working folder. */
  cwd: string;
  /** The program; default this Deno. */
  program?: string;
}

/** Options every benchmark takes. */
export interface BenchOptions {
  /** Targets to measure (both by default). */
  targets: HarkTarget[];
  /** A scratch folder that is removed after the run. */
  scratch: string;
}

/** One benchmark's result: its name and its figures. */
export interface BenchResult {
  /** The benchmark's name. */
  bench: string;
  [figure: string]: unknown;
}

/**
 * Quotes arguments for display as a shell command line.
 *
 * @param args the arguments
 */
export function shellJoin(args: string[]): string {
  return args.map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)
    .join(" ");
}

/** The 1-, 5- and 15-minute load averages from `/proc/loadavg`, or null off Linux. */
export async function loadAverage(): Promise<number[] | null> {
  try {
    const text = await Deno.readTextFile("/proc/loadavg");
    return text.trim().split(/\s+/).slice(0, 3).map(Number);
  } catch {
    return null;
  }
}

/** Writes a progress line to stderr (stdout carries the JSON figures only). */
export function progress(message: string): void {
  console.error(`[bench] ${message}`);
}

/** hark from source: `deno run --quiet --no-check <permissions> main.ts`, from the repo root. */
export function denoRunTarget(): HarkTarget {
  const args = ["run", "--quiet", "--no-check", ...HARK_RUN_FLAGS, MAIN_TS];
  return {
    name: "deno_run",
    describe: `deno ${args.join(" ").replace(MAIN_TS, "main.ts")}`,
    args,
    cwd: REPO_ROOT,
  };
}

/**
 * The stand-in for the compiled binary, which cannot be built here (`deno compile` downloads its
 * runtime): the code-split bundle that `deno task compile` compiles, built by the same function
 * (`scripts/bundle.ts`), run with the compile-time permissions, without a config file, from its
 * own folder, its dynamic imports loaded when they run (as in the binary).
 *
 * @param dir a scratch folder
 * @throws {Error} when bundling fails
 */
export async function bundleTarget(dir: string): Promise<HarkTarget> {
  const folder = join(dir, "bundle");
  const entry = await bundleHark(folder);
  // Lazily, as the compiled binary loads its embedded modules: without the flag, `deno run`
  // reads and parses every chunk a literal import() names (92 files, 3.8 MB, the MCP SDK and
  // jq among them) before the first line runs, which the binary never does.
  const args = [
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    ...FROM_SOURCE_FLAGS,
    ...HARK_RUN_FLAGS,
    entry,
  ];
  return {
    name: "bundle",
    describe: `deno ${args.join(" ").replace(entry, "bundle/main.js")}`,
    args,
    cwd: folder,
  };
}

/**
 * The stand-in of another hark tree that has no `scripts/bundle.ts` (the main branch before the
 * code-split build): `main.ts` bundled into one file, as that tree's bundle test and benchmarks
 * ran it, with the same permissions.
 *
 * @param root the other tree
 * @param dir a scratch folder
 * @param name the target's name, such as `main_bundle`
 * @throws {Error} when bundling fails
 */
export async function singleFileBundleTarget(
  root: string,
  dir: string,
  name: string,
): Promise<HarkTarget> {
  const folder = join(dir, name);
  await Deno.mkdir(folder, { recursive: true });
  const file = join(folder, "hark.js");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform", "deno", "--output", file, "main.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`Cannot bundle "${root}/main.ts": ${new TextDecoder().decode(out.stderr)}`);
  }
  const args = ["run", "--quiet", "--no-prompt", "--no-config", ...await treeFlags(root), file];
  return { name, describe: `deno ${args.join(" ").replace(file, "hark.js")}`, args, cwd: folder };
}

/**
 * The `deno run` flags another hark tree ships with, from its own `scripts/permissions.ts`
 * (`HARK_RUN_FLAGS`, or `HARK_PERMISSIONS` in trees from before V8 flags joined them), so a
 * baseline runs as it shipped.
 *
 * @param root the other tree
 */
export async function treeFlags(root: string): Promise<readonly string[]> {
  const flags = await import(pathToFileURL(join(root, "scripts", "permissions.ts")).href) as {
    HARK_RUN_FLAGS?: readonly string[];
    HARK_PERMISSIONS?: readonly string[];
  };
  const found = flags.HARK_RUN_FLAGS ?? flags.HARK_PERMISSIONS;
  if (!found) throw new Error(`Cannot find the run flags of "${root}" in scripts/permissions.ts`);
  return found;
}

/**
 * Finds a program on `PATH`; when it is missing and this runs as root on Linux with apt-get,
 * installs its Debian package first (`apt-get install -y`, after `apt-get update` if the first
 * attempt fails).
 *
 * @param program the program, such as `gh`
 * @param debianPackage its Debian package, such as `gh`
 * @returns its path, or undefined when it is missing and cannot be installed here
 */
export async function ensureProgram(
  program: string,
  debianPackage: string,
): Promise<string | undefined> {
  const found = findProgram(program);
  if (found) return found;
  const canInstall = Deno.build.os === "linux" && Deno.uid() === 0 && findProgram("apt-get");
  if (!canInstall) return undefined;
  const apt = (...args: string[]) =>
    new Deno.Command("apt-get", {
      args,
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdin: "null",
      stdout: "null",
      stderr: "inherit",
    }).output();
  progress(`installing the Debian package "${debianPackage}" for ${program}`);
  if (!(await apt("install", "-y", "-q", debianPackage)).success) {
    await apt("update", "-q");
    await apt("install", "-y", "-q", debianPackage);
  }
  return findProgram(program);
}

/** A throwaway home: config path, file keychain and data dir in a temp folder. */
export interface BenchHome {
  /** The temp folder. */
  dir: string;
  /** The environment every run of hark gets (nothing else is inherited). */
  env: Record<string, string>;
  /** Removes the folder. */
  cleanup(): Promise<void>;
}

/**
 * The whole environment of a measured child (which starts with a cleared one): `env` over
 * {@link denoDirEnv}, so that whatever a caller passes, the child keeps the Deno cache and the
 * CA and proxy settings of a machine behind a TLS-inspecting proxy.
 *
 * @param env the child's own variables
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return { ...denoDirEnv(), ...env };
}

/** Creates a throwaway home for hark (see `tests/support/hark_env.ts`). */
export async function createBenchHome(): Promise<BenchHome> {
  const home = await createHarkEnv();
  return { dir: home.dir, env: home.env, cleanup: home.cleanup };
}

/** What one timed run produced. */
export interface TimedRun {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** Wall time from spawn to exit with output read, in milliseconds. */
  ms: number;
  /** Peak RSS in KiB from VmHWM sampling, when asked for. */
  peakRssKiB?: number;
  /** How many VmHWM samples were read. */
  rssSamples?: number;
}

/** Options of {@link runTimed}. */
export interface RunOptions {
  /** The environment (exactly; nothing is inherited). */
  env: Record<string, string>;
  /** Text piped to stdin; default stdin is closed. */
  stdin?: string;
  /** Sample `/proc/<pid>/status` VmHWM while the child runs (Linux); default false. */
  sampleRss?: boolean;
  /** Kill the child after this many ms; default 120 000. */
  timeoutMs?: number;
}

/**
 * Runs `deno <target args> <args>` and times it.
 *
 * @param target how to start hark (or any `deno` command line)
 * @param args the arguments after it
 * @param options environment, stdin, RSS sampling
 */
export async function runTimed(
  target: HarkTarget,
  args: string[],
  options: RunOptions,
): Promise<TimedRun> {
  const live = startProcess(target.program ?? Deno.execPath(), [...target.args, ...args], {
    cwd: target.cwd,
    env: childEnv(options.env),
    stdin: options.stdin,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  const sampler = options.sampleRss ? sampleVmHwm(live.pid, live.done) : undefined;
  const run = await live.done;
  const rss = await sampler;
  return { ...run, peakRssKiB: rss?.peakKiB, rssSamples: rss?.samples };
}

/** What {@link measurePeakRss} measured. */
export type RssRun = PeakRssRun;

/**
 * Runs `deno <target args> <args>` and measures its peak resident set: the kernel's maximum RSS
 * at exit through `/usr/bin/time -f %M` when `time` is given, else VmHWM sampled every 2 ms.
 *
 * @param target how to start hark
 * @param args the arguments after it
 * @param options the environment, and the path of GNU time
 */
export function measurePeakRss(
  target: HarkTarget,
  args: string[],
  options: { env: Record<string, string>; time?: string },
): Promise<RssRun> {
  return runWithPeakRss(target.program ?? Deno.execPath(), [...target.args, ...args], {
    cwd: target.cwd,
    env: childEnv(options.env),
    time: options.time,
    timeoutMs: 120_000,
  });
}

/**
 * Like {@link runTimed}, but throws unless the command exits 0.
 *
 * @throws {Error} naming the command, its exit code and its stderr
 */
export async function runOk(
  target: HarkTarget,
  args: string[],
  options: RunOptions,
): Promise<TimedRun> {
  const run = await runTimed(target, args, options);
  if (run.code !== 0) {
    throw new Error(
      `Cannot run "hark ${args.join(" ")}" (${target.name}): exit ${run.code}: ` +
        run.stderr.slice(0, 2000),
    );
  }
  return run;
}

/** Summary statistics of a list of timings, rounded to 0.1 ms. */
export interface Summary {
  /** How many samples. */
  runs: number;
  /** The median. */
  median_ms: number;
  /** The 90th percentile (nearest rank). */
  p90_ms: number;
  /** The smallest. */
  min_ms: number;
  /** The largest. */
  max_ms: number;
  /** The mean. */
  mean_ms: number;
}

/**
 * Summarizes timings.
 *
 * @param samples milliseconds, at least one
 * @throws {Error} when there is no sample
 */
export function summarize(samples: number[]): Summary {
  if (samples.length === 0) throw new Error("Cannot summarize: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const p90 = sorted[Math.min(n - 1, Math.ceil(0.9 * n) - 1)];
  return {
    runs: n,
    median_ms: round1(median),
    p90_ms: round1(p90),
    min_ms: round1(sorted[0]),
    max_ms: round1(sorted[n - 1]),
    mean_ms: round1(sorted.reduce((s, x) => s + x, 0) / n),
  };
}

/** Rounds to one decimal. */
export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Calls a sandbox route from the benchmark process and returns its parsed JSON answer. These
 * calls use /sandbox/ routes, which the sandbox neither logs nor counts.
 *
 * @param sb the sandbox
 * @param method the HTTP method
 * @param path the path, e.g. "/sandbox/stats"
 * @param body a JSON body
 * @throws {Error} when the route answers a non-2xx status
 */
export async function sandboxCall<T>(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sb.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`Cannot call sandbox ${method} ${path}: ${response.status} ${text}`);
  }
  return JSON.parse(text) as T;
}

/** Forgets the sandbox's request log and resets its statistics. */
export async function resetRequests(sb: Sandbox): Promise<void> {
  await sandboxCall(sb, "DELETE", "/sandbox/requests");
}

/** The sandbox's request log. */
export function requestLog(sb: Sandbox): Promise<LoggedRequest[]> {
  return sandboxCall<LoggedRequest[]>(sb, "GET", "/sandbox/requests");
}

/** The sandbox's counters: requests, distinct TCP connections, peak in flight. */
export function requestStats(sb: Sandbox): Promise<RequestStats> {
  return sandboxCall<RequestStats>(sb, "GET", "/sandbox/stats");
}

/**
 * Configures the home for the sandbox and signs in through the CLI's own device flow:
 * `config init` (secret on stdin), `auth login --no-wait --json`, approval on the sandbox, then
 * `auth login --device-code …`, which stores the tokens in the file keychain.
 *
 * @param target how to run hark
 * @param home the throwaway home
 * @param sb the sandbox
 * @throws {Error} when a step fails
 */
export async function signIn(target: HarkTarget, home: BenchHome, sb: Sandbox): Promise<void> {
  const env = home.env;
  await runOk(target, [
    "config",
    "init",
    "--non-interactive",
    "--app-id",
    sb.appId,
    "--app-secret-stdin",
    "--base-url",
    sb.baseUrl,
  ], { env, stdin: sb.appSecret });
  const started = await runOk(target, ["auth", "login", "--no-wait", "--json"], { env });
  const device = JSON.parse(started.stdout) as Record<string, unknown>;
  const found = findField(device, "user_code");
  const deviceCode = findField(device, "device_code");
  if (typeof found !== "string" || typeof deviceCode !== "string") {
    throw new Error(`Cannot sign in: unexpected "auth login --no-wait" output ${started.stdout}`);
  }
  await sandboxCall(sb, "POST", "/sandbox/approve", { user_code: found, decision: "approve" });
  await runOk(target, ["auth", "login", "--device-code", deviceCode, "--json"], { env });
}

function findField(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (key in record) return record[key];
  for (const nested of Object.values(record)) {
    const found = findField(nested, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The arguments of the benchmarks' `im +send`: a text of its own each time, so every send is a
 * new message, and `--json` so the message id can be checked.
 *
 * @param chatId the chat
 * @param n the send's number
 */
export function sendArgs(chatId: string, n: number): string[] {
  return ["im", "+send", "--chat-id", chatId, "--text", `hark bench message ${n}`, "--json"];
}

/**
 * A local date `days` from today as `YYYY-MM-DD` (what `--start`/`--end` take).
 *
 * @param days offset from today; negative for the past
 */
export function localDate(days: number): string {
  const d = new Date();
  d.setHours(12, 0, 0, 0);
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Parses hark's `--json` output of a list command.
 *
 * @param stdout the output
 * @throws {Error} when it is not a JSON array (directly or under `data`)
 */
export function jsonList(stdout: string): unknown[] {
  const parsed = JSON.parse(stdout) as unknown;
  if (Array.isArray(parsed)) return parsed;
  const data = (parsed as Record<string, unknown> | null)?.data;
  if (Array.isArray(data)) return data;
  throw new Error(`Cannot read the output as a list: ${stdout.slice(0, 200)}`);
}
