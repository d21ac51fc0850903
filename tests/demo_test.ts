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
