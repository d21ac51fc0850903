/**
 * `requires` and the test task together, as on a machine without fish: `deno task test` run with
 * a PATH holding no fish names the fish tests before the run, with the command that installs
 * fish, and the run reports exactly those tests as ignored.
 */

import assert from "node:assert/strict";
import { denoDirEnv, REPO_ROOT } from "./hark_env.ts";
import { requires } from "./requires.ts";

Deno.test("requires() leaves a test ignored for another reason as it is", () => {
  const test = { name: "never here", ignore: true, fn() {} };
  assert.equal(requires(["fish"], test), test);
});

Deno.test("requires() refuses a program that scripts/test_packages.txt does not list", () => {
  assert.throws(
    () => requires(["emacs"], { name: "edits", fn() {} }),
    /Cannot find the package of "emacs"/,
  );
});

Deno.test({
  name: "deno task test names the tests it cannot run, then reports them as ignored",
  ignore: Deno.build.os !== "linux", // the shell tests run on Linux only
  async fn() {
    const empty = await Deno.makeTempDir({ prefix: "hark-no-programs-" });
    try {
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "task",
          "--quiet",
          "test",
          "--no-check",
          "tests/completion/shells_test.ts",
          "--filter",
          "fish",
        ],
        cwd: REPO_ROOT,
        clearEnv: true,
        env: {
          ...denoDirEnv(),
          PATH: empty,
          HOME: empty,
          HARK_TEST_NO_INSTALL: "1",
          NO_COLOR: "1",
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(output.stdout);
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 0, stdout + stderr);
      const sudo = Deno.uid() === 0 ? "" : "sudo ";
      const listing = [
        "2 tests cannot run here and will be reported as ignored: fish is not installed.",
        "  tests/completion/shells_test.ts",
        "    fish completes commands, sub-commands, flags and values of the real tree " +
        "(needs fish)",
        "    fish completes awkward names literally, +verbs and file names (needs fish)",
        `To run them, install fish (on Debian or Ubuntu: ${sudo}apt-get install -y fish)`,
      ].join("\n");
      assert.ok(stdout.startsWith(listing), stdout);
      assert.match(stdout, /fish completes awkward names .* \.\.\. ignored/);
      assert.match(stdout, /ok \| 0 passed \| 0 failed \| 2 ignored \| 6 filtered out/);
      assert.doesNotMatch(stdout, /zsh/);
    } finally {
      await Deno.remove(empty, { recursive: true });
    }
  },
});
