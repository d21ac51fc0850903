/**
 * `hark config init` in a real terminal: tmux runs the CLI in a pseudo-terminal, the test types
 * the answers and reads the screen, as a person would.
 */

import assert from "node:assert/strict";
import { createHarkEnv } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";
import { Terminal, terminalScript } from "../support/terminal.ts";

Deno.test(requires(["tmux"], {
  name: "config init asks for everything in a terminal and masks the secret",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const home = await createHarkEnv();
    try {
      const secret = "typed-secret-value-42";
      const script = await terminalScript(home.dir, { ...home.env, TERM: "xterm" }, [
        "hark config init",
      ]);
      let terminal = await Terminal.start(script);
      try {
        await terminal.waitFor(/Profile name/);
        await terminal.type("C-u", "work", "Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type("cli_typed", "Enter");
        await terminal.waitFor(/App secret/);
        await terminal.type(secret, "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Down", "Enter"); // Feishu
        const offered = await terminal.waitFor(/Default output format/);
        assert.match(offered, /auto \(table on a terminal, JSON when piped\)/);
        await terminal.type("Enter"); // auto, the default
        const screen = await terminal.waitFor(/EXIT=\d/);
        assert.match(screen, /EXIT=0/);
        assert.doesNotMatch(screen, new RegExp(secret), "the secret was echoed");
        assert.match(screen, /App secret \*+/);
        const config = await home.readConfig() as {
          keychain_namespace: string;
          apps: Record<string, { app_id: string; app_secret: string; base_url: string }>;
          preferences?: unknown;
        };
        assert.deepEqual(config.apps.work, {
          app_id: "cli_typed",
          app_secret: `@keychain:hark/${config.keychain_namespace}/work/app_secret`,
          base_url: "https://open.feishu.cn",
        });
        assert.equal(config.preferences, undefined, "auto writes no output format");
      } finally {
        await terminal.close();
      }

      // Again, choosing json and replacing the profile: the preference is written.
      terminal = await Terminal.start(script);
      try {
        await terminal.waitFor(/Profile name/);
        await terminal.type("C-u", "work", "Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type("Enter");
        await terminal.waitFor(/App secret/);
        await terminal.type(secret, "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Down", "Enter"); // Feishu
        await terminal.waitFor(/Default output format/);
        await terminal.type("Down", "Down", "Enter"); // auto, table, json
        await terminal.waitFor(/Replace it\?/);
        await terminal.type("y", "Enter");
        const screen = await terminal.waitFor(/EXIT=\d/);
        assert.match(screen, /EXIT=0/);
        const config = await home.readConfig() as { preferences: { output_format: string } };
        assert.equal(config.preferences.output_format, "json");
      } finally {
        await terminal.close();
      }

      // Running it again over the same profile asks before replacing; "no" changes nothing.
      terminal = await Terminal.start(script);
      try {
        await terminal.waitFor(/Profile name/);
        await terminal.type("C-u", "work", "Enter");
        await terminal.waitFor(/App ID/);
        await terminal.type("Enter"); // keeps the current app id, offered as the default
        await terminal.waitFor(/App secret/);
        await terminal.type("other-secret-value", "Enter");
        await terminal.waitFor(/Service/);
        await terminal.type("Enter");
        await terminal.waitFor(/Default output format/);
        await terminal.type("Enter");
        await terminal.waitFor(/Replace it\?/);
        await terminal.type("n", "Enter");
        const screen = await terminal.waitFor(/EXIT=\d/);
        assert.match(screen, /Nothing changed/);
        assert.match(screen, /EXIT=0/);
        const config = await home.readConfig() as { apps: Record<string, { base_url: string }> };
        assert.equal(config.apps.work.base_url, "https://open.feishu.cn");
      } finally {
        await terminal.close();
      }
    } finally {
      await home.cleanup();
    }
  },
}));

Deno.test(requires(["tmux"], {
  name: "config init --force replaces only the profile named: Enter at the name prompt asks first",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const home = await createHarkEnv();
    try {
      const setUp = (profile: string) =>
        home.run([
          "--profile",
          profile,
          "config",
          "init",
          "--non-interactive",
          "--app-id",
          `cli_${profile}`,
          "--app-secret-stdin",
        ], {
          stdin: `${profile}-secret-value`,
        });
      for (const profile of ["default", "bad"]) assert.equal((await setUp(profile)).code, 0);
      const appIds = async () => {
        const config = await home.readConfig() as { apps: Record<string, { app_id: string }> };
        return Object.fromEntries(Object.entries(config.apps).map(([k, v]) => [k, v.app_id]));
      };

      // The recovery of a bad secret on "bad", typed without --profile: Enter keeps "default",
      // which --force did not name, so it is asked about, and "no" keeps it.
      const answer = async (line: string, replace?: "y" | "n") => {
        const script = await terminalScript(home.dir, { ...home.env, TERM: "xterm" }, [line]);
        const terminal = await Terminal.start(script, { columns: 80, rows: 24 });
        try {
          // A profile named with --profile is not asked for.
          if (!line.includes("--profile")) {
            await terminal.waitFor(/Profile name/);
            await terminal.type("Enter");
          }
          const appId = await terminal.waitFor(/App ID/);
          assert.equal(/Profile name/.test(appId), !line.includes("--profile"));
          await terminal.type("C-u", "cli_new", "Enter");
          await terminal.waitFor(/App secret/);
          await terminal.type("new-secret-value", "Enter");
          await terminal.waitFor(/Service/);
          await terminal.type("Enter");
          await terminal.waitFor(/Default output format/);
          await terminal.type("Enter");
          if (replace) {
            const asked = await terminal.waitFor(/Replace it\?/);
            assert.match(asked, /Profile "default" exists and --force named no profile/);
            await terminal.type(replace, "Enter");
          }
          return await terminal.waitFor(/EXIT=\d/);
        } finally {
          await terminal.close();
        }
      };
      const kept = await answer("hark config init --force", "n");
      assert.match(kept, /Nothing changed/);
      assert.deepEqual(await appIds(), { default: "cli_default", bad: "cli_bad" });

      // Named on the command line, the profile is not asked for and --force replaces it.
      const replaced = await answer("hark config init --force --profile bad");
      assert.match(replaced, /EXIT=0/);
      assert.deepEqual(await appIds(), { default: "cli_default", bad: "cli_new" });
    } finally {
      await home.cleanup();
    }
  },
}));
