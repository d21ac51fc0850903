/**
 * Progress of a long listing, as a person sees it: `im +messages --page-all` against a slow
 * sandbox (every page delayed) shows "… messages read (N pages)" on the status line of a
 * real terminal (tmux), which is gone once the table is written; piped, stderr stays empty. A
 * rate-limit wait that starts in the first second shows its line once that second is over. An
 * empty listing on a terminal says "No results" (on stderr) instead of a lone header row.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { requires } from "../support/requires.ts";
import { Terminal, terminalScript } from "../support/terminal.ts";
import { createShortcutEnv, type ShortcutEnv } from "./_shortcut_env.ts";

/**
 * A listing of several pages under --page-all: a chat's 60 seeded messages, 50 a page (Lark's
 * most; +search-user asks for 200 a page, more than the sandbox's users).
 */
const listing = (
  env: ShortcutEnv,
) => ["im", "+messages", "--chat-id", env.sb.chats[0].chat_id, "--page-all"];

/**
 * A test that runs `line` in a real terminal (tmux, 80 columns) against a fresh sandbox: `before`
 * prepares the sandbox, `watch` reads the screen while it runs, `after` checks more once it is
 * closed.
 */
function onTerminal(
  name: string,
  line: (env: ShortcutEnv) => string,
  steps: {
    before?: (env: ShortcutEnv) => Promise<unknown>;
    watch: (terminal: Terminal) => Promise<void>;
    after?: (env: ShortcutEnv) => Promise<void>;
  },
): Deno.TestDefinition {
  return requires(["tmux"], {
    name,
    ignore: Deno.build.os !== "linux",
    async fn() {
      const env = await createShortcutEnv();
      try {
        await steps.before?.(env);
        const script = await terminalScript(
          env.hark.dir,
          // No pager: these are about the status line, and a long listing would wait in less.
          {
            ...env.hark.env,
            TZ: "UTC",
            TERM: "xterm-256color",
            HARK_USER_ACCESS_TOKEN: env.token,
            HARK_PAGER: "",
          },
          [line(env)],
        );
        const terminal = await Terminal.start(script, { columns: 80, rows: 60 });
        try {
          await steps.watch(terminal);
        } finally {
          await terminal.close();
        }
        await steps.after?.(env);
      } finally {
        await env.close();
      }
    },
  });
}

Deno.test(onTerminal(
  "--page-all shows pages read on a terminal's status line, and nothing when piped",
  (env) => `hark ${listing(env).join(" ")}`,
  {
    before: (env) =>
      env.post("/sandbox/faults", { route: "/open-apis/im/v1/messages", kind: "latency", ms: 800 }),
    async watch(terminal) {
      const during = await terminal.waitFor(/messages read \(\d+ pages\)/, 30_000);
      assert.match(during, /^\d+ messages read \(\d+ pages\)\s*$/m, "one status line");
      const after = await terminal.waitFor(/EXIT=\d/, 60_000);
      assert.match(after, /EXIT=0/);
      assert.match(after, / · om_\w+/, "the conversation");
      assert.doesNotMatch(after, /messages read/, "the status line is cleared");
    },
    async after(env) {
      const piped = await env.run(listing(env));
      assert.equal(piped.code, 0, piped.stderr);
      // One message a line (NDJSON).
      const lines = piped.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
      assert.ok(lines.length > 3, "several pages were read");
      assert.equal(piped.stderr, "", "nothing but data when not a terminal");
    },
  },
));

Deno.test(onTerminal(
  "a rate-limit wait that starts at once shows its status line after the first second",
  () => "hark contact +search-user --query a",
  {
    before: (env) =>
      env.post("/sandbox/faults", {
        route: "/open-apis/search",
        kind: "status",
        status: 429,
        retry_after: 4,
        times: 1,
      }),
    async watch(terminal) {
      // The only status line of the run is sent at once, within the first second.
      const during = await terminal.waitFor(/Rate limited|EXIT=\d/, 30_000);
      assert.match(during, /^Rate limited, retrying in 4 s \(attempt 2 of 4\)\s*$/m);
      const after = await terminal.waitFor(/EXIT=\d/, 60_000);
      assert.match(after, /EXIT=0/);
      assert.match(after, /NAME/, "the table");
      assert.doesNotMatch(after, /Rate limited/, "the status line is cleared");
    },
  },
));

Deno.test(onTerminal(
  "an empty listing on a terminal says No results on stderr and writes no header",
  (env) => `hark contact +search-user --query zzzz-nobody 2>'${join(env.hark.dir, "stderr.txt")}'`,
  {
    async watch(terminal) {
      const after = await terminal.waitFor(/EXIT=\d/, 60_000);
      assert.match(after, /EXIT=0/);
      assert.doesNotMatch(after, /NAME|OPEN ID/, "no header on stdout");
    },
    async after(env) {
      assert.equal(await Deno.readTextFile(join(env.hark.dir, "stderr.txt")), "No results\n");
      const piped = await env.run(["contact", "+search-user", "--query", "zzzz-nobody"]);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout, "", "no record, no line");
      assert.equal(piped.stderr, "");
    },
  },
));
