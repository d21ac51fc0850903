/**
 * `hark config init` on a machine without a Secret Service (no `secret-tool` on PATH), in a real
 * terminal at 80x24: the keychain is checked before the first question, the file keychain is
 * offered, its new password asked twice (again when the two differ), the choice remembered, and
 * the next command asks for the password to read the secret.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../../sandbox/mod.ts";
import { createHarkEnv } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";
import { Terminal, terminalScript } from "../support/terminal.ts";

Deno.test(requires(["tmux"], {
  name: "config init without a Secret Service offers the file keychain first and remembers it",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sb = await startSandbox({ quiet: true });
    const home = await createHarkEnv();
    try {
      // A PATH with no secret-tool: only what the script itself runs.
      const bin = join(home.dir, "bin");
      await Deno.mkdir(bin);
      await Deno.symlink(
        await Deno.realPath("/bin/sleep").catch(() => "/usr/bin/sleep"),
        join(bin, "sleep"),
      );
      const { HARK_KEYCHAIN: _k, HARK_KEYCHAIN_PASSWORD: _p, ...env } = home.env;
      const script = await terminalScript(home.dir, { ...env, PATH: bin, TERM: "xterm" }, [
        "hark config init",
        "hark auth login --no-wait --json",
      ]);
      const password = "correct horse battery";
      const terminal = await Terminal.start(script, { columns: 80, rows: 24 });
      try {
        const first = await terminal.waitFor(/Where should hark keep secrets\?/);
        assert.match(first, /The linux keychain cannot be used here/);
        assert.doesNotMatch(first, /Profile name/, "asked before the keychain was settled");
        await terminal.type("Enter"); // the encrypted file
        await terminal.waitFor(/Profile name/);
        await terminal.type("Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type(sb.appId, "Enter");
        await terminal.waitFor(/App secret/);
        await terminal.type(sb.appSecret, "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Down", "Down", "Enter");
        await terminal.waitFor(/Base URL/);
        await terminal.type(sb.baseUrl, "Enter");
        await terminal.waitFor(/Default output format/);
        await terminal.type("Enter");
        await terminal.waitFor(/New password for hark's file keychain/);
        await terminal.type(password, "Enter");
        await terminal.waitFor(/The same password again/);
        await terminal.type("not the same", "Enter");
        await terminal.waitFor(/The two passwords differ/);
        await terminal.waitFor(/New password for hark's file keychain.*\n(.*\n)*.*New password/);
        await terminal.type(password, "Enter");
        await terminal.waitFor(/The same password again(.*\n)*.*The same password again/);
        await terminal.type(password, "Enter");
        const saved = await terminal.waitFor(/EXIT=\d/);
        assert.match(saved, /EXIT=0/);
        assert.doesNotMatch(saved, new RegExp(password), "the password was echoed");

        // The next command uses the remembered file keychain and asks for its password.
        await terminal.waitFor(/Keychain password/);
        await terminal.type(password, "Enter");
        const login = await terminal.waitFor(/EXIT=\d(.*\n)*.*EXIT=\d/);
        assert.match(login, /"device_code"/);
      } finally {
        await terminal.close();
      }
      const config = await home.readConfig() as {
        preferences: { keychain: string };
        apps: { default: { app_secret: string } };
      };
      assert.equal(config.preferences.keychain, "file");
      assert.match(config.apps.default.app_secret, /^@keychain:hark\/.*default\/app_secret$/);
      assert.ok(!JSON.stringify(config).includes(sb.appSecret));
    } finally {
      await home.cleanup();
      await sb.close();
    }
  },
}));
