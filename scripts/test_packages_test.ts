import assert from "node:assert/strict";
import { join } from "node:path";
import {
  aptInstallCommand,
  findProgram,
  packageOf,
  parseTestPackages,
  readTestPackages,
} from "./test_packages.ts";

Deno.test("parseTestPackages() reads a package and its programs a line, skipping comments", () => {
  const text = "# heading\n\ndbus   dbus-daemon dbus-send  # the bus\ndbus-x11\n  zsh zsh\n";
  assert.deepEqual(parseTestPackages(text), [
    { name: "dbus", programs: ["dbus-daemon", "dbus-send"] },
    { name: "dbus-x11", programs: [] },
    { name: "zsh", programs: ["zsh"] },
  ]);
});

Deno.test("the list names the Debian packages the tests use", () => {
  assert.deepEqual(
    readTestPackages().map((p) => p.name),
    ["libsecret-tools", "gnome-keyring", "dbus", "dbus-x11", "zsh", "fish", "tmux"],
  );
});

Deno.test("packageOf() names the package of a program and refuses an unlisted one", () => {
  const packages = readTestPackages();
  assert.equal(packageOf("secret-tool", packages).name, "libsecret-tools");
  assert.equal(packageOf("dbus-send", packages).name, "dbus");
  assert.throws(() => packageOf("emacs", packages), /Cannot find the package of "emacs"/);
});

Deno.test({
  name: "findProgram() finds an executable file in the path's folders, in order",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hark-find-program-" });
    try {
      const [plain, first, second] = ["plain", "first", "second"].map((d) => join(dir, d));
      for (const folder of [plain, first, second]) await Deno.mkdir(folder);
      await Deno.writeTextFile(join(plain, "tool"), "#!/bin/sh\n", { mode: 0o644 });
      await Deno.mkdir(join(plain, "folder-tool"));
      await Deno.writeTextFile(join(first, "tool"), "#!/bin/sh\n", { mode: 0o755 });
      await Deno.writeTextFile(join(second, "tool"), "#!/bin/sh\n", { mode: 0o755 });
      await Deno.writeTextFile(join(second, "folder-tool"), "#!/bin/sh\n", { mode: 0o755 });
      const path = ["", plain, first, second].join(":");
      assert.equal(findProgram("tool", path), join(first, "tool"));
      assert.equal(findProgram("folder-tool", path), join(second, "folder-tool"));
      assert.equal(findProgram("missing", path), undefined);
      assert.equal(findProgram("tool", ""), undefined);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("aptInstallCommand() is one command, with sudo unless already root", () => {
  assert.equal(aptInstallCommand(["zsh", "fish"], true), "apt-get install -y zsh fish");
  assert.equal(aptInstallCommand(["tmux"], false), "sudo apt-get install -y tmux");
});
