import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkArgs,
  DEFAULT_JOBS,
  nameFilter,
  report,
  type Skipped,
  testJobs,
} from "./test_task.ts";
import { denoDirEnv, REPO_ROOT } from "../tests/support/hark_env.ts";
import { runProcess } from "../tests/support/subprocess.ts";
import { readTestPackages } from "./test_packages.ts";

const SKIPPED: Skipped[] = [
  { file: "tests/a_test.ts", name: "zsh works", programs: ["zsh"], missing: ["zsh"] },
  {
    file: "tests/a_test.ts",
    name: "both work",
    programs: ["zsh", "fish", "bash"],
    missing: ["zsh", "fish"],
  },
  {
    file: "tests/b_test.ts",
    name: "keyring",
    programs: ["secret-tool", "dbus-daemon"],
    missing: ["secret-tool", "dbus-daemon"],
  },
];

Deno.test("report() lists each test by file and one command for the missing packages", () => {
  assert.equal(
    report(SKIPPED, readTestPackages(), false, true),
    [
      "3 tests cannot run here and will be reported as ignored: zsh, fish, secret-tool, " +
      "dbus-daemon are not installed.",
      "  tests/a_test.ts",
      "    zsh works (needs zsh)",
      "    both work (needs zsh, fish)",
      "  tests/b_test.ts",
      "    keyring (needs secret-tool, dbus-daemon)",
      "To run them, install what they need: sudo apt-get install -y libsecret-tools dbus zsh fish",
      "",
    ].join("\n"),
  );
});

Deno.test("report() names the programs first where apt-get is not available", () => {
  const text = report(SKIPPED.slice(0, 1), readTestPackages(), true, false);
  assert.match(text, /^1 test cannot run here and will be reported as ignored: zsh is not/);
  assert.match(
    text,
    /\nTo run them, install zsh \(on Debian or Ubuntu: apt-get install -y zsh\)\n$/,
  );
});

Deno.test("nameFilter() reads --filter as deno test does: a substring or /a pattern/", () => {
  const names = ["zsh reads", "fish completes", "zsh completes"];
  assert.deepEqual(names.filter(nameFilter(["tests/cli"])), names);
  assert.deepEqual(names.filter(nameFilter(["--filter", "completes"])), names.slice(1));
  assert.deepEqual(names.filter(nameFilter(["--filter=/^zsh/", "tests"])), [
    "zsh reads",
    "zsh completes",
  ]);
});

Deno.test("testJobs() runs four test files at once unless DENO_JOBS says otherwise", () => {
  const env = (vars: Record<string, string>) => ({ get: (name: string) => vars[name] });
  assert.equal(DEFAULT_JOBS, "4");
  assert.equal(testJobs(env({})), "4");
  assert.equal(testJobs(env({ DENO_JOBS: "" })), "4");
  assert.equal(testJobs(env({ DENO_JOBS: "1" })), "1");
  assert.equal(testJobs(env({ DENO_JOBS: "8" })), "8");
});

Deno.test("checkArgs() checks the paths given, else the roots of deno task check, never with --no-check", () => {
  const task = "deno check main.ts src/ tests/";
  assert.deepEqual(checkArgs([], task), ["check", "--quiet", "main.ts", "src/", "tests/"]);
  assert.deepEqual(
    checkArgs(["tests/cli", "--filter", "init", "--junit-path", "out.xml", "src/x_test.ts"], task),
    ["check", "--quiet", "tests/cli", "src/x_test.ts"],
  );
  assert.deepEqual(checkArgs(["--filter=init", "--reporter", "dot"], task), [
    "check",
    "--quiet",
    "main.ts",
    "src/",
    "tests/",
  ]);
  assert.equal(checkArgs(["--no-check", "tests/cli"], task), undefined);
  assert.throws(() => checkArgs([], "deno lint"), /not a deno check: deno lint/);
});

Deno.test("checkArgs() of this repository has exactly the roots of deno task check", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json")));
  assert.deepEqual(checkArgs([], config.tasks.check), [
    "check",
    "--quiet",
    "main.ts",
    "src/",
    "sandbox/",
    "tests/",
    "scripts/",
    "bench/",
  ]);
});

Deno.test("deno task test runs the tests while it type-checks, and a type error fails it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-test-task-" });
  try {
    const file = join(dir, "typo_test.ts");
    await Deno.writeTextFile(
      file,
      'const n: number = "not a number";\nDeno.test("runs all the same", () => {});\n' +
        "console.log(n);\n",
    );
    const { code, stdout, stderr } = await runProcess(
      Deno.execPath(),
      ["task", "--quiet", "test", file],
      {
        cwd: REPO_ROOT,
        env: { ...denoDirEnv(), PATH: Deno.env.get("PATH") ?? "", HOME: dir, NO_COLOR: "1" },
      },
    );
    assert.notEqual(code, 0, stdout + stderr);
    assert.match(stdout, /runs all the same \.\.\. ok/, "the test ran, not held up by the check");
    assert.match(stderr, /TS2322/, stderr);
    assert.match(stderr, /The type check failed: deno check --quiet /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
