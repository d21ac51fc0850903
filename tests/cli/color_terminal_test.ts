/**
 * Colour in a real terminal (tmux, its screen read with the colour codes): a table's bold
 * header, the red `error:` label and the bold command after it, and the sign-in spinner's
 * coloured frame all appear by default, and none of them with `preferences.color false` or
 * `TERM=dumb`.
 */

import assert from "node:assert/strict";
import { requires } from "../support/requires.ts";
import { Terminal, terminalScript } from "../support/terminal.ts";
import { sandboxConfig, startWorld } from "../support/world.ts";

/** A colour or style code (SGR). */
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/;

Deno.test(requires(["tmux"], {
  name: "preferences.color false and TERM=dumb turn colour off in tables, errors and the spinner",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const world = await startWorld({ profiles: [] });
    const { sb, home } = world;
    try {
      const env: Record<string, string> = { ...home.env, TERM: "xterm-256color" };
      delete env.NO_COLOR;
      const screens = async (preferences: unknown, term: string) => {
        await home.writeConfig({ ...sandboxConfig(sb), preferences });
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
      await world.close();
    }
  },
}));
