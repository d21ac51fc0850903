/**
 * The README's first command: `deno task demo` runs every step against the sandbox, exits 0,
 * and leaves nothing behind.
 */

import assert from "node:assert/strict";
import { denoDirEnv, REPO_ROOT } from "./support/hark_env.ts";

Deno.test("deno task demo runs every step, exits 0 and cleans up", async () => {
  const home = await Deno.makeTempDir({ prefix: "hark-demo-test-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "demo"],
      cwd: REPO_ROOT,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: home, NO_COLOR: "1", ...denoDirEnv() },
      clearEnv: true,
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stdout + stderr);
    // The first screen is hark's: no warning from Deno before it.
    assert.match(
      stdout,
      /^hark demo — the real CLI against a local sandbox at http:\/\/127\.0\.0\.1:\d+\n/,
    );
    assert.doesNotMatch(stderr, /Ignored build scripts|lifecycle scripts/i);
    for (
      const step of [
        "hark config init",
        "hark auth login",
        "hark auth status",
        "hark calendar +agenda",
        "hark calendar +create",
        "hark calendar +freebusy",
        "hark calendar +find-time",
        "hark calendar +rsvp",
        "hark calendar +get",
        "hark calendar +update",
        "hark calendar +delete",
        "hark contact +search-user",
        "--dry-run",
        "hark auth login --scope im:message.send_as_user",
        "hark im +chats --query",
        "hark im +messages --chat-id",
        "--in-thread",
        "hark im +thread --message-id",
        "hark im +send --chat-id",
        "hark im +download --message-id",
        "(the file came back byte for byte)",
        "hark calendar +room-find --slot",
        "--rrule 'FREQ=WEEKLY;COUNT=4'",
        "hark contact +get-user --user-id",
        "hark im +messages-search --query",
        "hark im +reaction-add --message-id",
        "hark im +reactions --message-id",
        "hark mcp",
        "tools/call calendar_agenda",
        "Dry run of hark im +send: nothing was sent",
        "hark im +send: done (",
        "hark auth logout",
        "Demo finished",
      ]
    ) {
      assert.ok(stdout.includes(step), `the demo did not show "${step}"`);
    }
    assert.match(stdout, /4 instance_view requests/);
    assert.match(stdout, /booked the first free slot/);
    assert.match(stdout, /"after":"hark demo review \(moved\)","before":"hark demo review"/);
    // The reply shows in the thread it started, under the message it answers.
    assert.match(
      stdout,
      /\$ hark im \+thread[^\n]*\n[^\n]*\n[^\n]*omt_\w+\n[^\n]*Looking into it now/,
    );
    // The search finds the reply; the reaction is listed with who added it.
    assert.match(
      stdout,
      /\$ hark im \+messages-search[^\n]*\n(?:[^\n]*\n)*?[^\n]*Deploy finished/,
    );
    assert.match(stdout, /\$ hark im \+reactions[^\n]*\n[^\n]*\n[^\n]*THUMBSUP/);
    assert.match(stderr, /enter the code: [A-Z]{4}-[A-Z]{4}/);
    assert.match(stderr, /"command":"hark auth login --scope im:message\.send_as_user\b/);
    const dir = /keychain in (\S+)/.exec(stdout)?.[1];
    assert.ok(dir, "the demo did not say where its throwaway files are");
    await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
    assert.doesNotMatch(stdout + stderr, /\s{4}at /);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("every npm package with install scripts is denied them in deno.json, so Deno never warns", async () => {
  // Deno warns "Ignored build scripts" (before the demo's first line) when it sets up a package
  // whose install scripts it did not run, unless deno.json decides them (`allowScripts`). hark
  // runs none: protobufjs's only checks its version, keytar (lark-mcp's, never loaded) builds an
  // addon nothing here uses. The lockfile marks each package that has scripts.
  const lock = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.lock`));
  const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
  const decided = new Set<string>([
    ...(config.allowScripts?.deny ?? []),
    ...(config.allowScripts?.allow ?? []),
  ]);
  const withScripts = Object.entries(lock.npm ?? {})
    .filter(([, entry]) => (entry as { scripts?: boolean }).scripts === true)
    .map(([key]) => `npm:${key.replace(/^(@?[^@]+)@.*$/, "$1")}`);
  assert.ok(withScripts.length > 0, "the lockfile marks no package with scripts");
  assert.deepEqual(withScripts.filter((name) => !decided.has(name)), []);
});
