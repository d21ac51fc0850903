/**
 * `deno task test`: sets up what the tests need, then runs `deno test --allow-all --parallel
 * --no-check` (four files at once unless `DENO_JOBS` says otherwise) with the task's arguments (`deno task test tests/cli --filter init`) while
 * `deno check` type-checks the same code beside it: the tests need not wait for the type check
 * (about 20 s of one core, single-threaded), and a type error still fails the task, reported
 * after the tests. With no path, the check has exactly the roots of `deno task check`, so after
 * that task (as in `.ci/run`) it is answered from Deno's check cache at once. A `--no-check`
 * among the arguments skips the check too.
 *
 * Some tests run programs from the Debian packages of `scripts/test_packages.txt` (shells, tmux,
 * the Secret Service). When one of those programs is missing and this runs as root on Linux with
 * apt-get, it installs the missing packages with `scripts/install_test_packages.sh`, unless
 * `HARK_TEST_NO_INSTALL=1`. Whatever is still missing, it says before the run: each test that
 * cannot run (the test run reports it as ignored) and the one command that installs what they
 * need.
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  aptInstallCommand,
  findProgram,
  INSTALL_SCRIPT,
  packageOf,
  readTestPackages,
  type TestPackage,
} from "./test_packages.ts";
import { declaredRequirements, type Requirement } from "../tests/support/requires.ts";
import { ensureCatalogue } from "./catalogue/ensure.ts";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The file names `deno test` picks up in a folder. */
const TEST_FILE = /(^|[_.])test\.(ts|tsx|mts|js|mjs|jsx)$/;
/** Folders `deno test` never looks into here. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules", "dist"]);

/** A test that cannot run here. */
export interface Skipped extends Requirement {
  /** The test file declaring it, relative to the repository. */
  file: string;
}

/** Whether this process may install Debian packages itself. */
function canInstall(): boolean {
  return Deno.build.os === "linux" && Deno.uid() === 0 &&
    Deno.env.get("HARK_TEST_NO_INSTALL") !== "1" &&
    findProgram("apt-get") !== undefined && findProgram("dpkg-query") !== undefined;
}

function missingPrograms(packages: readonly TestPackage[]): string[] {
  return packages.flatMap((p) => p.programs).filter((program) => !findProgram(program));
}

async function install(): Promise<void> {
  const { code } = await new Deno.Command("bash", {
    args: [INSTALL_SCRIPT],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.log(`Cannot install the test packages: "${INSTALL_SCRIPT}" exited with ${code}`);
  }
}

/** The paths among `deno test` arguments (those naming an existing file or folder). */
function selectedPaths(args: readonly string[]): string[] {
  const paths = args.filter((arg) => {
    if (arg.startsWith("-")) return false;
    try {
      Deno.statSync(resolve(arg));
      return true;
    } catch {
      return false;
    }
  });
  return paths.length > 0 ? paths.map((p) => resolve(p)) : [REPO_ROOT];
}

/**
 * The `--filter` of `deno test` arguments as a predicate on test names: a substring, or a
 * regular expression between slashes.
 */
export function nameFilter(args: readonly string[]): (name: string) => boolean {
  let filter: string | undefined;
  args.forEach((arg, i) => {
    if (arg === "--filter") filter = args[i + 1];
    else if (arg.startsWith("--filter=")) filter = arg.slice("--filter=".length);
  });
  if (filter === undefined) return () => true;
  const pattern = filter.length > 1 && filter.startsWith("/") && filter.endsWith("/")
    ? new RegExp(filter.slice(1, -1))
    : undefined;
  return (name) => pattern ? pattern.test(name) : name.includes(filter!);
}

/** The test files under `paths` that declare programs through `requires`. */
function declaringFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (path: string) => {
    const info = Deno.statSync(path);
    if (info.isDirectory) {
      const entries = [...Deno.readDirSync(path)].map((e) => e.name).sort();
      for (const name of entries) {
        if (!SKIPPED_FOLDERS.has(name)) visit(resolve(path, name));
      }
    } else if (TEST_FILE.test(path) && /support\/requires\.ts"/.test(Deno.readTextFileSync(path))) {
      files.push(path);
    }
  };
  for (const path of paths) visit(path);
  return [...new Set(files)];
}

/**
 * The tests among those `deno test <args>` would run that cannot run here. Loading a test file
 * outside `deno test` runs no test (`Deno.test` does nothing there) but registers its
 * declarations with the same `requires` module this script imports.
 */
export async function skippedTests(args: readonly string[]): Promise<Skipped[]> {
  const matches = nameFilter(args);
  const skipped: Skipped[] = [];
  for (const file of declaringFiles(selectedPaths(args))) {
    const before = declaredRequirements().length;
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      console.log(`Cannot list the tests of "${relative(REPO_ROOT, file)}": ${error}`);
      continue;
    }
    for (const requirement of declaredRequirements().slice(before)) {
      if (requirement.missing.length > 0 && matches(requirement.name)) {
        skipped.push({ ...requirement, file: relative(REPO_ROOT, file) });
      }
    }
  }
  return skipped;
}

/**
 * What to say before the run: the tests that cannot run, by file, and the one command that
 * installs what they need.
 *
 * @param skipped the tests that cannot run (at least one)
 * @param packages the list of test packages
 * @param root whether this runs as root (the command then has no `sudo`)
 * @param apt whether apt-get is available (else the programs are named first)
 */
export function report(
  skipped: readonly Skipped[],
  packages: readonly TestPackage[],
  root: boolean,
  apt: boolean,
): string {
  const programs = [...new Set(skipped.flatMap((s) => s.missing))];
  const providers = new Set(programs.map((p) => packageOf(p, packages)));
  const needed = packages.filter((p) => providers.has(p)).map((p) => p.name);
  const lines = [
    `${skipped.length} ${skipped.length === 1 ? "test" : "tests"} cannot run here and will be ` +
    `reported as ignored: ${programs.join(", ")} ${programs.length === 1 ? "is" : "are"} not ` +
    `installed.`,
  ];
  let file = "";
  for (const test of skipped) {
    if (test.file !== file) lines.push(`  ${(file = test.file)}`);
    lines.push(`    ${test.name} (needs ${test.missing.join(", ")})`);
  }
  const command = aptInstallCommand(needed, root);
  lines.push(
    apt
      ? `To run them, install what they need: ${command}`
      : `To run them, install ${programs.join(", ")} (on Debian or Ubuntu: ${command})`,
  );
  return lines.join("\n") + "\n";
}

/**
 * The arguments of the `deno check` run beside the tests: the paths among `args`, else the roots
 * of `deno task check` (read from `deno.json`, so that the two share one cache entry); undefined
 * when `args` ask for no type check (`--no-check`).
 *
 * @param args the `deno test` arguments
 * @param checkTask the `check` task of `deno.json`, such as `deno check main.ts src/`
 */
export function checkArgs(args: readonly string[], checkTask: string): string[] | undefined {
  if (args.some((arg) => arg === "--no-check" || arg.startsWith("--no-check="))) return undefined;
  const paths = args.filter((arg, i) => !arg.startsWith("-") && !VALUED.has(args[i - 1]));
  if (paths.length > 0) return ["check", "--quiet", ...paths];
  const words = checkTask.trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "check") {
    throw new Error(`The check task of deno.json is not a deno check: ${checkTask}`);
  }
  return ["check", "--quiet", ...words.slice(2)];
}

/**
 * Test files run at once when `DENO_JOBS` is unset: four on the 2-core machines the suite is
 * written for. Many files wait much of their time (subprocesses, the sandbox, device-flow polls,
 * terminals), so with fewer workers a core sat idle whenever the running files all waited.
 * Measured on the whole suite, warm caches, quiet machine, in one sitting: three workers 133.9 s
 * (216 s of CPU), four 118.7 s and 119.5 s (203 s and 216 s of CPU); earlier, six workers took
 * more CPU for no better wall time.
 */
export const DEFAULT_JOBS = "4";

/**
 * The `DENO_JOBS` of the `deno test` run: the caller's, else {@link DEFAULT_JOBS}.
 *
 * @param env this process's variables
 */
export function testJobs(env: { get(name: string): string | undefined }): string {
  const jobs = env.get("DENO_JOBS");
  return jobs === undefined || jobs === "" ? DEFAULT_JOBS : jobs;
}

/** `deno test` flags whose value is the next argument (`--filter init`). */
const VALUED = new Set(["--filter", "--junit-path", "--reporter"]);

/** The `check` task of this repository's `deno.json`. */
function checkTask(): string {
  const config = JSON.parse(Deno.readTextFileSync(resolve(REPO_ROOT, "deno.json")));
  const task = config?.tasks?.check;
  if (typeof task !== "string") throw new Error("deno.json has no check task");
  return task;
}

/** Runs `deno check <args>` with its output held back, so it does not cut into the tests'. */
async function typeCheck(args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

async function main(args: readonly string[]): Promise<number> {
  // The tests type-check and run hark's code, which imports the generated API catalogue.
  const catalogue = await ensureCatalogue({ quiet: true });
  if (catalogue.status === "generated") {
    console.log(`The API catalogue was generated first (${Math.round(catalogue.ms)} ms)`);
  }
  const packages = readTestPackages();
  if (missingPrograms(packages).length > 0 && canInstall()) await install();
  if (missingPrograms(packages).length > 0) {
    const skipped = await skippedTests(args);
    const apt = findProgram("apt-get") !== undefined;
    if (skipped.length > 0) console.log(report(skipped, packages, Deno.uid() === 0, apt));
  }
  // Ctrl-C reaches `deno test` too: wait for its report and its exit code.
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGINT", () => {});
  const check = checkArgs(args, checkTask());
  const checked = check ? typeCheck(check) : undefined;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", "--parallel", ...(check ? ["--no-check"] : []), ...args],
    env: { DENO_JOBS: testJobs(Deno.env) },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const typed = await checked;
  if (typed && typed.code !== 0) {
    console.error(`${typed.output.trimEnd()}\n\nThe type check failed: deno ${check!.join(" ")}`);
    return code !== 0 ? code : typed.code;
  }
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
