/**
 * `--jq` and `--fields` end to end against the sandbox. The rules (projection, jq's output, bad
 * expressions) are tested in `src/output/`; this is the wiring, in process (the same command
 * code, output and network) but for the first run, a real hark process.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "../shortcuts/_shortcut_env.ts";
import { createHarkEnv } from "../support/hark_env.ts";

Deno.test("--jq filters a shortcut's JSON, prints what it made before failing, and a bad expression stops the command before any request", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const search = ["contact", "+search-user", "--query", "a", "--limit", "3"];
    const users = jsonOf<{ name: string }[]>(await env.runProcess([...search, "--json"]));
    const names = await env.run([...search, "--jq", ".[].name"]);
    assert.equal(names.code, 0, names.stderr);
    assert.equal(names.stdout, users.map((u) => `${u.name}\n`).join(""));

    // jq failing part way: what it made first is printed, then its error, exit 2.
    const stopped = await env.run([...search, "--jq", '.[0].name, error("stop here")']);
    assert.equal(stopped.code, 2);
    assert.equal(stopped.stdout, `${users[0].name}\n`);
    const envelope = stopped.stderr.trim().split("\n").at(-1) ?? "";
    assert.match(JSON.parse(envelope).error.message, /failed on the output: .*stop here/);

    await env.clearRequests();
    const bad = await env.run([...search, "--jq", ".[] |"]);
    assert.equal(bad.code, 2);
    const { error } = JSON.parse(bad.stderr);
    assert.equal(error.type, "validation");
    assert.match(error.message, /^Invalid --jq expression "\.\[\] \|": jq: error: syntax error/);
    assert.equal(bad.stdout, "");
    assert.deepEqual(await env.requests(), []);
  } finally {
    await env.close();
  }
});

Deno.test("--fields cuts each record down; an unknown field lists the known ones", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const search = ["contact", "+search-user", "--query", "a", "--limit", "3"];
    const users = jsonOf<Record<string, unknown>[]>(
      await env.run([...search, "--fields", "open_id,name", "--json"]),
    );
    assert.equal(users.length, 3);
    for (const user of users) assert.deepEqual(Object.keys(user), ["name", "open_id"]);
    const csv = await env.run([...search, "--fields", "open_id,name", "--format", "csv"]);
    assert.equal(csv.stdout.split("\r\n")[0], "OPEN_ID,NAME");

    const unknown = await env.run([...search, "--fields", "name,nickname", "--json"]);
    assert.equal(unknown.code, 2);
    assert.match(
      JSON.parse(unknown.stderr).error.message,
      /^Unknown field "nickname" for --fields; known fields: .*\bname\b.*\bopen_id\b/,
    );
  } finally {
    await env.close();
  }
});

/** The CPU time a Linux process has used so far, in seconds (`utime` + `stime`, 100 Hz ticks). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

Deno.test({
  name: "Ctrl-C ends hark at once while jq runs a filter that never ends",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const env = await createHarkEnv();
    try {
      const live = env.start(["skills", "list", "--jq", "last(range(1e15))"], {
        timeoutMs: 60_000,
      });
      // jq runs synchronously, so no signal listener could run: wait until it has been running
      // for a while (the process's CPU time well past its start-up), then press Ctrl-C.
      for (let i = 0; i < 400 && await cpuSeconds(live.pid) < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      Deno.kill(live.pid, "SIGINT");
      const run = await live.done;
      // Ended by the signal (128 + 2), not by the test's SIGKILL a minute later (137).
      assert.equal(run.code, 130, run.stderr);
      assert.equal(run.stdout, "");
    } finally {
      await env.cleanup();
    }
  },
});

Deno.test("jq running out of memory ends in hark's error alone: stderr is one JSON envelope", async () => {
  const env = await createHarkEnv();
  try {
    const run = await env.run(["skills", "list", "--jq", "def f: 1 + f; f", "--json"]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    // jq's runtime prints `Aborted()` on its console; nothing of it may precede the envelope.
    const { error } = JSON.parse(run.stderr);
    assert.equal(error.type, "validation");
    assert.match(error.message, /failed on the output: jq ran out of memory/);
  } finally {
    await env.cleanup();
  }
});
