/**
 * Issue 12, item 9: after a write whose answer was lost (the sandbox applies it, then drops the
 * connection), hark says it may have been applied and prints the command that retries it with
 * the same idempotency key; running that command leaves exactly one message or event.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, type ShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import type { HarkRun } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

/** The words of a command line quoted for a POSIX shell (bare and single-quoted words). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /\s*((?:'[^']*'|\\'|[^\s'\\]+)+)/gy;
  for (let m = pattern.exec(command); m; m = pattern.exec(command)) {
    words.push(m[1].replace(/'([^']*)'|\\(')/g, (_, quoted, escaped) => quoted ?? escaped));
  }
  return words;
}

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

async function lostAnswer(
  env: ShortcutEnv,
  route: string,
  args: string[],
): Promise<{ error: { recovery: { command: string; suggestion: string } }; key: string }> {
  await env.post("/sandbox/faults", [{ route, kind: "drop", stage: "after" }]);
  // In process, on a clock that does not wait: the four attempts' back-off (3.5 s of real time)
  // is src/http/retry_test.ts's rule. The printed retry then runs as a real hark process.
  const run = await runInProcess(env.hark, [...args, "--json"], {
    env: { HARK_USER_ACCESS_TOKEN: env.token },
  });
  await fetch(`${env.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
    r.body?.cancel()
  );
  assert.equal(run.code, 4, run.stderr);
  const error = envelope(run);
  assert.match(error.recovery.suggestion, /may have been applied/);
  const key = /--idempotency-key (\S+)$/.exec(error.recovery.command)?.[1];
  assert.ok(key, error.recovery.command);
  return { error, key };
}

Deno.test("im +send after a lost answer: the printed retry sends the message once", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const chat = env.sb.chats[0].chat_id;
    const text = `Deploy finished ${crypto.randomUUID().slice(0, 8)}`;
    const { error, key } = await lostAnswer(env, "POST /open-apis/im/v1/messages", [
      "im",
      "+send",
      "--chat-id",
      chat,
      "--text",
      text,
    ]);
    assert.equal(
      error.recovery.command,
      `hark im +send --chat-id ${chat} --text '${text}' --idempotency-key ${key}`,
    );
    const sent = async () =>
      (await env.get<{ body: { content: string; uuid?: string } }[]>("/sandbox/messages"))
        .filter((m) => m.body.content.includes(text));
    assert.equal((await sent()).length, 1, "the lost send was applied");

    const retry = await env.runProcess([...shellWords(error.recovery.command).slice(1), "--json"]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.equal((await sent()).length, 1, "the retry did not send it twice");
  } finally {
    await env.close();
  }
});

Deno.test("calendar +create after a lost answer: the printed retry creates the event once", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const summary = `Design review ${crypto.randomUUID().slice(0, 8)}`;
    const { error } = await lostAnswer(
      env,
      "POST /open-apis/calendar/v4/calendars/primary/events",
      [
        "calendar",
        "+create",
        "--summary",
        summary,
        "--start",
        "2026-11-25 14:00",
        "--end",
        "2026-11-25 15:00",
      ],
    );
    assert.match(error.recovery.command, /^hark calendar \+create --summary '[^']+' --start /);
    const made = async () =>
      (await env.get<{ summary?: string; event?: { summary?: string } }[]>("/sandbox/events"))
        .filter((e) => (e.summary ?? e.event?.summary) === summary);
    assert.equal((await made()).length, 1, "the lost create was applied");

    const retry = await env.runProcess([...shellWords(error.recovery.command).slice(1), "--json"]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.equal(JSON.parse(retry.stdout).summary, summary);
    assert.equal((await made()).length, 1, "the retry did not create it twice");
  } finally {
    await env.close();
  }
});

Deno.test("hark api refuses percent-encoded dot segments before sending anything", async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    await env.clearRequests();
    // Each would resolve to /open-apis/authen/v1/user_info, a real route.
    for (
      const path of [
        "/open-apis/calendar/%2e%2e/authen/v1/user_info",
        "/open-apis/calendar/%2E./authen/v1/user_info",
        "calendar/.%2e/authen/v1/user_info",
      ]
    ) {
      const run = await env.runProcess(["api", "GET", path, "--json"]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(envelope(run).message, /Invalid path/);
    }
    assert.deepEqual(await env.requests(), []);
  } finally {
    await env.close();
  }
});

/** The words a real bash makes of a printed command line. */
async function bashWords(command: string): Promise<string[]> {
  const output = await new Deno.Command("bash", {
    args: ["-c", `printf '%s\\0' ${command}`],
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout).split("\0").slice(0, -1);
}

Deno.test({
  name: "a retry command holding control characters sends the same text when bash runs it",
  ignore: Deno.build.os === "windows", // no bash to run the printed command
}, async () => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const chat = env.sb.chats[0].chat_id;
    const text = `line one ${crypto.randomUUID().slice(0, 8)}\nline\ttwo \x1b[31mred\u202e`;
    await env.post("/sandbox/faults", [{
      route: "POST /open-apis/im/v1/messages",
      kind: "drop",
      stage: "after",
    }]);
    const lost = await env.runProcess(["im", "+send", "--chat-id", chat, "--text", text]);
    await fetch(`${env.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );
    assert.equal(lost.code, 4, lost.stderr);
    // The printed command is terminal-safe: no raw control or bidi character.
    assert.ok(!lost.stderr.includes("\x1b") && !lost.stderr.includes("\u202e"), lost.stderr);
    const command = /^ {2}Run: (.*)$/m.exec(lost.stderr)?.[1];
    assert.ok(command, lost.stderr);
    assert.match(command, /--text \$'line one [^']*\\nline\\ttwo \\x1b\[31mred\\xe2\\x80\\xae'/);
    const words = await bashWords(command);
    assert.equal(words[words.indexOf("--text") + 1], text);

    const retry = await env.run([...words.slice(1), "--json"]);
    assert.equal(retry.code, 0, retry.stderr);
    const sent = (await env.get<{ body: { content: string } }[]>("/sandbox/messages"))
      .filter((m) => m.body.content === JSON.stringify({ text }));
    assert.equal(sent.length, 1, "sent once, with the exact text");
  } finally {
    await env.close();
  }
});
