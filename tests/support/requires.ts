/**
 * Tests that run an external program (a shell, tmux, the Secret Service tools) declare it, so a
 * machine without the program reports them as ignored rather than failed, and `deno task test`
 * can list them, with the command that installs what they need, before the run.
 *
 * @module
 */

import { findProgram, packageOf, readTestPackages } from "../../scripts/test_packages.ts";

/** A test that declared the programs it runs. */
export interface Requirement {
  /** The test's name. */
  name: string;
  /** The programs it runs. */
  programs: readonly string[];
  /** Those of them that are not on `PATH`; the test is ignored when any is. */
  missing: readonly string[];
}

const declared: Requirement[] = [];
const packages = readTestPackages();
const found = new Map<string, boolean>();

function onPath(program: string): boolean {
  let here = found.get(program);
  if (here === undefined) {
    here = findProgram(program) !== undefined;
    found.set(program, here);
  }
  return here;
}

/**
 * A test definition (with or without its `fn`) that is ignored when one of `programs` is not on
 * `PATH`. Each program must be listed in `scripts/test_packages.txt`, which names the Debian
 * package providing it. A test ignored for another reason already (`ignore: true`, say on
 * another OS) needs nothing.
 *
 * @param programs the programs the test runs
 * @param test the test
 * @throws {Error} when a program is not in `scripts/test_packages.txt`
 * @example
 * ```ts
 * Deno.test(requires(["zsh"], {
 *   name: "zsh reads the script without errors",
 *   ignore: Deno.build.os !== "linux",
 *   async fn() {},
 * }));
 * Deno.test(requires(["fish"], { name: "fish completes", ignore: false }), async () => {});
 * ```
 */
export function requires<T extends { name: string; ignore?: boolean }>(
  programs: readonly string[],
  test: T,
): T {
  for (const program of programs) packageOf(program, packages);
  if (test.ignore) return test;
  const missing = programs.filter((program) => !onPath(program));
  declared.push({ name: test.name, programs, missing });
  return missing.length > 0 ? { ...test, ignore: true } : test;
}

/** Every test declared so far in this process through {@link requires}, in order. */
export function declaredRequirements(): readonly Requirement[] {
  return declared;
}
