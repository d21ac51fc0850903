/**
 * The `--files` check and the file actually used, raced end to end (issue 21, Medium 7): while a
 * swapper flips a link inside the folder between a target inside and one outside, as fast as it
 * can, hundreds of uploads and downloads through the SDK's client must never read or write
 * anything outside. Each call may succeed or be refused (a validation error); none may escape,
 * and none may fail as an internal error.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createShortcutEnv, jsonOf } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp } from "./_mcp_client.ts";

/** Calls per test: each one a chance for the swapper to win. */
const ATTEMPTS = 200;
/** The most swaps the swapper makes before it stops by itself. */
const MAX_SWAPS = 50_000_000;
/** What lies outside: long, so that an upload of it shows by its size in the sandbox's log. */
const SECRET = `OUTSIDE-SECRET-${"x".repeat(8_000)}`;

/** Starts the swapper on `link` (between `a` and `b`); returns how to stop it. */
function swapLink(link: string, a: string, b: string): () => Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      new URL("./_swap_link.ts", import.meta.url).pathname,
      link,
      a,
      b,
      String(MAX_SWAPS),
    ],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  return async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // It stopped by itself.
    }
    await child.status;
  };
}

/** The names in a folder, sorted. */
async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test(`hark mcp --files: ${ATTEMPTS} uploads raced by a link swapper send nothing from outside`, async () => {
  const env = await createShortcutEnv();
  const root = await Deno.realPath(await Deno.makeTempDir());
  const folder = join(root, "files");
  const outside = join(root, "outside");
  await Deno.mkdir(folder);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(folder, "inside.txt"), "inside content");
  await Deno.writeTextFile(join(outside, "secret.txt"), SECRET);
  const link = join(folder, "x.txt");
  await Deno.symlink(join(folder, "inside.txt"), link);
  const mcp = await connectHarkMcp(
    { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token },
    ["--files", folder],
  );
  const stop = swapLink(link, join(folder, "inside.txt"), join(outside, "secret.txt"));
  const chat = env.sb.chats[0].chat_id;
  let sent = 0;
  try {
    await env.clearRequests();
    for (let i = 0; i < ATTEMPTS; i++) {
      const result = await mcp.client.callTool({
        name: "im_send",
        arguments: { chat_id: chat, file: "x.txt", idempotency_key: `race-${i}` },
      });
      if (result.isError) {
        const { error } = result.structuredContent as { error: { type: string; message: string } };
        assert.equal(error.type, "validation", error.message);
      } else sent++;
    }
    await stop();
    // Without the swapper, the same upload goes through: the refusals above were the race's.
    await Deno.remove(link);
    await Deno.symlink(join(folder, "inside.txt"), link);
    const control = await mcp.client.callTool({
      name: "im_send",
      arguments: { chat_id: chat, file: "x.txt", idempotency_key: "race-control" },
    });
    assert.equal(control.isError, undefined, JSON.stringify(control));
    sent++;
  } finally {
    await stop();
    await mcp.close();
  }
  try {
    // The log shows a multipart body as `<multipart/form-data, N bytes>`.
    const uploads = (await env.requests()).filter((r) => r.path === "/open-apis/im/v1/files")
      .map((r) => Number(/, (\d+) bytes>$/.exec(String(r.body))?.[1]));
    assert.equal(uploads.length, sent);
    assert.ok(uploads.every((bytes) => bytes > 0), "every upload's size is known");
    const escaped = uploads.filter((bytes) => bytes > SECRET.length);
    assert.equal(
      escaped.length,
      0,
      `${escaped.length} of ${uploads.length} uploads sent the secret`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
    await env.close();
  }
});

Deno.test(`hark mcp --files: ${ATTEMPTS} downloads raced by a link swapper write nothing outside`, async () => {
  const env = await createShortcutEnv();
  const root = await Deno.realPath(await Deno.makeTempDir());
  const folder = join(root, "files");
  const outside = join(root, "outside");
  const inner = join(folder, "inner");
  await Deno.mkdir(inner, { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.txt"), SECRET);
  await Deno.writeTextFile(join(root, "posted.txt"), "downloaded content");
  const posted = jsonOf<{ message_id: string }>(
    await env.run([
      "im",
      "+send",
      "--chat-id",
      env.sb.chats[0].chat_id,
      "--file",
      join(root, "posted.txt"),
      "--json",
    ]),
  );
  const message = (await env.get<{ message_id: string; body: { content: string } }[]>(
    "/sandbox/messages",
  )).find((m) => m.message_id === posted.message_id)!;
  const key = JSON.parse(message.body.content).file_key as string;
  const link = join(folder, "sub");
  await Deno.symlink(inner, link);
  const mcp = await connectHarkMcp(
    { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token },
    ["--files", folder],
  );
  const stop = swapLink(link, inner, outside);
  let saved = 0;
  try {
    for (let i = 0; i < ATTEMPTS; i++) {
      const result = await mcp.client.callTool({
        name: "im_download",
        arguments: { message_id: posted.message_id, key, output: `sub/copy-${i}.txt` },
      });
      if (result.isError) {
        const { error } = result.structuredContent as { error: { type: string; message: string } };
        assert.equal(error.type, "validation", error.message);
      } else saved++;
    }
    await stop();
    // Without the swapper, the same download goes through: the refusals above were the race's.
    await Deno.remove(link);
    await Deno.symlink(inner, link);
    const control = await mcp.client.callTool({
      name: "im_download",
      arguments: { message_id: posted.message_id, key, output: "sub/control.txt" },
    });
    assert.equal(control.isError, undefined, JSON.stringify(control));
    saved++;
  } finally {
    await stop();
    await mcp.close();
  }
  try {
    assert.deepEqual(await names(outside), ["secret.txt"], "nothing was written outside");
    assert.equal(await Deno.readTextFile(join(outside, "secret.txt")), SECRET);
    const copies = await names(inner);
    assert.equal(copies.length, saved, "each saved download is inside, and nothing else is");
  } finally {
    await Deno.remove(root, { recursive: true });
    await env.close();
  }
});
