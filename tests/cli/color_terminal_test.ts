/**
 * Colour in a real terminal (tmux, its screen read with the colour codes): a table's bold
 * header, the red `error:` label and the bold command after it, and the sign-in spinner's
 * coloured frame all appear by default, and none of them with `preferences.color false` or
 * `TERM=dumb`.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../sandbox/mod.ts";
import { createHarkEnv } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";
import { Terminal, terminalScript } from "../support/terminal.ts";

/** A colour or style code (SGR). */
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/;

Deno.test(requires(["tmux"], {
  name: "preferences.color false and TERM=dumb turn colour off in tables, errors and the spinner",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sb = await startSandbox({ quiet: true });
    const home = await createHarkEnv({
      HARK_TEST_APP_SECRET: sb.appSecret,
      HARK_TRUSTED_ORIGINS: sb.baseUrl,
    });
    try {
      const env: Record<string, string> = { ...home.env, TERM: "xterm-256color" };
      delete env.NO_COLOR;
      const screens = async (preferences: unknown, term: string) => {
        await home.writeConfig({
          apps: {
            default: {
              app_id: sb.appId,
              app_secret: "@env:HARK_TEST_APP_SECRET",
              base_url: sb.baseUrl,
            },
          },
          preferences,
        });
        const script = await terminalScript(home.dir, { ...env, TERM: term }, [
          "hark profile list",
          "hark calendar +agneda",
          "hark auth login",
        ]);
        const terminal = await Terminal.start(script, { columns: 100 });
        try {
          // The spinner draws its line after the instructions; TERM=dumb has no spinner.
          const waiting = term === "dumb"
            ? /Waiting for approval\.\.\./
            : /Waiting for approval in the browser/;
          return await terminal.waitFor(waiting, 20_000, { escapes: true });
        } finally {
          await terminal.close();
        }
      };
      const lineOf = (screen: string, pattern: RegExp) =>
        screen.split("\n").find((line) => pattern.test(line)) ?? "";

      const coloured = await screens({}, "xterm-256color");
      assert.match(lineOf(coloured, /NAME/), SGR, "the table header is bold on a terminal");
      assert.match(lineOf(coloured, /error:/), SGR, "the error label is red");
      assert.match(lineOf(coloured, /Run: /), SGR, "the command to run is bold");
      assert.match(lineOf(coloured, /Waiting for approval in/), SGR, "the spinner is coloured");

      for (
        const [name, preferences, term] of [
          ["preferences.color false", { color: false }, "xterm-256color"],
          ["TERM=dumb", {}, "dumb"],
        ] as const
      ) {
        const plain = await screens(preferences, term);
        assert.match(plain, /NAME/, name);
        assert.match(plain, /error: Unknown command '\+agneda'/, name);
        assert.doesNotMatch(plain, SGR, `${name}: no colour anywhere:\n${JSON.stringify(plain)}`);
      }
    } finally {
      await home.cleanup();
      await sb.close();
    }
  },
}));
