/**
 * The install step on a machine where apt-get and dpkg-query are stand-ins: one records its
 * arguments, the other says which packages are installed. Nothing is installed for real.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDirEnv, REPO_ROOT } from "../tests/support/hark_env.ts";
import { findProgram, INSTALL_SCRIPT } from "./test_packages.ts";

const LINUX = Deno.build.os === "linux";

/** A folder to use as the whole PATH: stand-in apt-get and dpkg-query, and the real `tools`. */
async function fakeApt(
  tools: string[],
): Promise<{ bin: string; log: string; cleanup(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "hark-fake-apt-" });
  const bin = join(dir, "bin");
  const log = join(dir, "apt.log");
  await Deno.mkdir(bin);
  for (const tool of tools) await Deno.symlink(findProgram(tool)!, join(bin, tool));
  await Deno.writeTextFile(
    join(bin, "apt-get"),
    `#!/bin/sh\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> '${log}'\n`,
    { mode: 0o755 },
  );
  // `dpkg-query -W -f=… <package>`: installed when $INSTALLED names it.
  const query = [
    "#!/bin/sh",
    'for p in $INSTALLED; do [ "$p" = "$3" ] && { printf "install ok installed"; exit 0; }; done',
    "exit 1",
  ];
  await Deno.writeTextFile(join(bin, "dpkg-query"), query.join("\n") + "\n", { mode: 0o755 });
  return { bin, log, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

const SCRIPT_TOOLS = ["bash", "sh", "dirname", "sed", "awk", "grep"];

Deno.test({
  name: "install_test_packages.sh installs exactly the packages that are missing",
  ignore: !LINUX,
  async fn() {
    const apt = await fakeApt(SCRIPT_TOOLS);
    try {
      const run = (installed: string) =>
        new Deno.Command(join(apt.bin, "bash"), {
          args: [INSTALL_SCRIPT],
          clearEnv: true,
          env: { PATH: apt.bin, INSTALLED: installed },
          stdout: "piped",
          stderr: "piped",
        }).output();
      const some = await run("libsecret-tools gnome-keyring dbus dbus-x11 tmux");
      assert.equal(some.code, 0, new TextDecoder().decode(some.stderr));
      assert.equal(new TextDecoder().decode(some.stdout), "::: installing zsh fish\n");
      assert.equal(
        await Deno.readTextFile(apt.log),
        "DEBIAN_FRONTEND= update -qq\nDEBIAN_FRONTEND=noninteractive install -y -qq zsh fish\n",
      );
      await Deno.writeTextFile(apt.log, "");
      const all = await run("libsecret-tools gnome-keyring dbus dbus-x11 zsh fish tmux");
      assert.equal(all.code, 0);
      assert.equal(new TextDecoder().decode(all.stdout), "");
      assert.equal(await Deno.readTextFile(apt.log), "", "apt-get ran with nothing missing");
    } finally {
      await apt.cleanup();
    }
  },
});

Deno.test({
  name: "deno task test as root installs the missing packages before it lists what it skips",
  ignore: !LINUX || Deno.uid() !== 0,
  async fn() {
    const apt = await fakeApt(SCRIPT_TOOLS);
    try {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "test", "--no-check", "tests/completion/shells_test.ts"],
        cwd: REPO_ROOT,
        clearEnv: true,
        env: { ...denoDirEnv(), PATH: apt.bin, HOME: apt.bin, INSTALLED: "", NO_COLOR: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, stdout + new TextDecoder().decode(output.stderr));
      assert.match(
        await Deno.readTextFile(apt.log),
        /install -y -qq libsecret-tools gnome-keyring dbus dbus-x11 zsh fish tmux\n$/,
      );
      // The stand-in installed nothing: the shell tests are still listed, then ignored.
      assert.match(stdout, /^::: installing libsecret-tools .* tmux\n6 tests cannot run here/);
      assert.match(stdout, /install what they need: apt-get install -y zsh fish\n/);
      assert.match(stdout, /ok \| 2 passed \| 0 failed \| 6 ignored/);
    } finally {
      await apt.cleanup();
    }
  },
});
