/**
 * The Debian packages the tests use and the programs the tests run from each, as listed in
 * `scripts/test_packages.txt` (the one list `deno task test`, `.ci/run` and the CI workflow
 * share), and where those programs are on this machine.
 *
 * @module
 */

import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** A Debian package the tests use. */
export interface TestPackage {
  /** The package name, as `apt-get install` takes it. */
  name: string;
  /** The programs tests run from it; none for a package installed only for what it brings. */
  programs: string[];
}

/** The list file. */
export const TEST_PACKAGES_FILE = fileURLToPath(new URL("./test_packages.txt", import.meta.url));

/** The script that installs the missing packages of the list with apt-get (as root). */
export const INSTALL_SCRIPT = fileURLToPath(new URL("./install_test_packages.sh", import.meta.url));

/**
 * Parses the list: one package a line, followed by the programs tests run from it; `#` starts a
 * comment.
 *
 * @param text the content of `test_packages.txt`
 * @example
 * ```ts
 * parseTestPackages("dbus  dbus-daemon dbus-send # the bus\n");
 * // [{ name: "dbus", programs: ["dbus-daemon", "dbus-send"] }]
 * ```
 */
export function parseTestPackages(text: string): TestPackage[] {
  return text.split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [name, ...programs] = line.split(/\s+/);
      return { name, programs };
    });
}

/** Reads {@link TEST_PACKAGES_FILE}. */
export function readTestPackages(): TestPackage[] {
  return parseTestPackages(Deno.readTextFileSync(TEST_PACKAGES_FILE));
}

/**
 * The package of the list that provides a program.
 *
 * @throws {Error} when no package of the list provides it: add it to `test_packages.txt`
 */
export function packageOf(program: string, packages: readonly TestPackage[]): TestPackage {
  const found = packages.find((p) => p.programs.includes(program));
  if (!found) {
    throw new Error(
      `Cannot find the package of "${program}": no line of "${TEST_PACKAGES_FILE}" lists it`,
    );
  }
  return found;
}

/**
 * The path of an executable file named `program` in one of the folders of `path`, as a shell
 * would find it, or undefined.
 *
 * @param program a program name without a folder
 * @param path the search path; default this process's `PATH`
 */
export function findProgram(
  program: string,
  path: string = Deno.env.get("PATH") ?? "",
): string | undefined {
  const windows = Deno.build.os === "windows";
  const suffixes = windows
    ? ["", ...(Deno.env.get("PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";")]
    : [""];
  for (const folder of path.split(delimiter)) {
    if (folder === "") continue;
    for (const suffix of suffixes) {
      const candidate = join(folder, program + suffix);
      try {
        const info = Deno.statSync(candidate);
        if (info.isFile && (windows || ((info.mode ?? 0) & 0o111) !== 0)) return candidate;
      } catch {
        // Not in this folder.
      }
    }
  }
  return undefined;
}

/**
 * The one command that installs `packages`, as a person would type it.
 *
 * @param packages package names
 * @param root whether the person is root already (no `sudo`)
 */
export function aptInstallCommand(packages: readonly string[], root: boolean): string {
  return `${root ? "" : "sudo "}apt-get install -y ${packages.join(" ")}`;
}
