import assert from "node:assert/strict";
import { nameFilter, report, type Skipped } from "./test_task.ts";
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
