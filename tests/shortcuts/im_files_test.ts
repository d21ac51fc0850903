/**
 * Files end to end: uploads with `im +send --file`, downloads with `im +download`, a 25 MB round
 * trip with hark's peak memory measured, and every way a download can fail leaving no file.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { CHAT_WITHOUT_BOT } from "../../sandbox/mod.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";
import { runMeasured } from "./_peak_rss.ts";
import { HARK_RUN_FLAGS, MAIN_TS, REPO_ROOT } from "../support/hark_env.ts";

const MB = 1_000_000;

interface Sent {
  message_id: string;
  body: { content: string };
}

interface Saved {
  path: string;
  bytes: number;
  content_type: string;
}

/** A file of `size` pseudo-random bytes (incompressible, like a real attachment). */
async function writeRandom(path: string, size: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const chunk = new Uint8Array(1 << 16);
  for (let written = 0; written < size; written += chunk.length) {
    crypto.getRandomValues(chunk);
    await file.write(chunk.subarray(0, Math.min(chunk.length, size - written)));
  }
  file.close();
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([Deno.readFile(a), Deno.readFile(b)]);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** Sends `path` as a file message to `chat` and returns the message id and file key. */
async function sendFile(env: ShortcutEnv, chat: string, path: string) {
  const sent = jsonOf<Sent>(
    await env.run(["im", "+send", "--chat-id", chat, "--file", path, "--json"]),
  );
  return { messageId: sent.message_id, key: JSON.parse(sent.body.content).file_key as string };
}

Deno.test({
  name: "a 25 MB file goes up and comes back whole, hark's memory far below the file's size",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const env = await createShortcutEnv();
    const chat = env.sb.chats[0].chat_id;
    const dir = join(env.hark.dir, "files");
    await Deno.mkdir(dir);
    try {
      const small = join(dir, "small.bin");
      const big = join(dir, "big.bin");
      await writeRandom(small, 1000);
      await writeRandom(big, 25 * MB);
      const runEnv = { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token };
      const measure = async (path: string) => {
        const up = await runMeasured(
          ["im", "+send", "--chat-id", chat, "--file", path, "--json"],
          runEnv,
        );
        assert.equal(up.code, 0, up.stderr);
        const sent = jsonOf<Sent>(up);
        const out = `${path}.back`;
        const down = await runMeasured([
          "im",
          "+download",
          "--message-id",
          sent.message_id,
          "--key",
          JSON.parse(sent.body.content).file_key,
          "--output",
          out,
          "--json",
        ], runEnv);
        assert.equal(down.code, 0, down.stderr);
        assert.ok(await sameBytes(path, out), `${path} came back changed`);
        return { up: up.peakKiB, down: down.peakKiB, how: up.how, saved: jsonOf<Saved>(down) };
      };
      const base = await measure(small);
      const large = await measure(big);
      assert.equal(large.saved.bytes, 25 * MB);
      const upMB = (large.up - base.up) * 1024 / MB;
      const downMB = (large.down - base.down) * 1024 / MB;
      console.log(
        `peak RSS (${large.how}): upload 1 KB ${Math.round(base.up / 1024)} MiB, 25 MB ` +
          `${Math.round(large.up / 1024)} MiB (+${upMB.toFixed(1)} MB); download 1 KB ` +
          `${Math.round(base.down / 1024)} MiB, 25 MB ${Math.round(large.down / 1024)} MiB ` +
          `(+${downMB.toFixed(1)} MB)`,
      );
      // Holding the file twice (a Blob, then a body) would add 50 MB. The upload streams from
      // disk: it grows only by the chunks the garbage collector has not freed yet (about 20 MB
      // here; the same stream sending 100 MB grows little more), bounded at 1.2 times the file.
      // The download is piped by Deno from socket to file: between -2 and +6 MB over runs (one
      // sample each, so garbage-collector timing shows), never the file: bounded at half of it.
      assert.ok(upMB < 30, `the upload grew hark's memory by ${upMB.toFixed(1)} MB`);
      assert.ok(downMB < 12.5, `the download grew hark's memory by ${downMB.toFixed(1)} MB`);
      const log = await env.requests();
      const upload = log.filter((r) => r.path === "/open-apis/im/v1/files").at(-1)!;
      assert.match(String(upload.body), /multipart\/form-data, 250\d{5} bytes/);
    } finally {
      await env.close();
    }
  },
});

Deno.test("im +download against the sandbox", async (t) => {
  const env = await createShortcutEnv();
  const chat = env.sb.chats[0].chat_id;
  const dir = join(env.hark.dir, "downloads");
  await Deno.mkdir(dir);
  const at = (name: string) => join(dir, name);
  try {
    const source = at("source.pdf");
    await writeRandom(source, 300_000);
    const { messageId, key } = await sendFile(env, chat, source);
    const downloadArgs = (output: string) => [
      "im",
      "+download",
      "--message-id",
      messageId,
      "--key",
      key,
      "--output",
      output,
    ];
    const download = (output: string, ...extra: string[]) =>
      env.run([...downloadArgs(output), ...extra, "--json"]);

    await t.step("saves the file, never over an existing one without --force", async () => {
      const first = jsonOf<Saved>(await download(at("copy.pdf")));
      assert.deepEqual(first, {
        ...first,
        path: at("copy.pdf"),
        bytes: 300_000,
        content_type: "application/pdf",
      });
      await Deno.writeTextFile(at("copy.pdf"), "mine");
      const refused = await download(at("copy.pdf"));
      assert.equal(refused.code, 2);
      const error = JSON.parse(refused.stderr).error;
      assert.match(error.message, /a file is already there/);
      assert.match(error.recovery.suggestion, /--force/);
      assert.equal(await Deno.readTextFile(at("copy.pdf")), "mine");
      const forced = await download(at("copy.pdf"), "--force");
      assert.equal(forced.code, 0, forced.stderr);
      assert.ok(await sameBytes(source, at("copy.pdf")));
    });

    await t.step("into a folder, the file keeps its own name", async () => {
      const sub = at("sub");
      await Deno.mkdir(sub);
      const saved = jsonOf<Saved>(await download(`${sub}/`));
      assert.equal(saved.path, join(sub, "source.pdf"));
      const bare = jsonOf<Saved>(await download(sub, "--force"));
      assert.equal(bare.path, join(sub, "source.pdf"));
      assert.deepEqual(await names(sub), ["source.pdf"]);
      // Without --force, the error names the file that is there, not the folder.
      const again = await download(`${sub}/`);
      assert.equal(again.code, 2);
      assert.equal(
        JSON.parse(again.stderr).error.message,
        `Cannot save to ${
          JSON.stringify(join(sub, "source.pdf"))
        } (--output): a file is already there`,
      );
    });

    await t.step("a body cut short is fetched again, then fails leaving no file", async () => {
      await env.post("/sandbox/faults", {
        route: `GET /open-apis/im/v1/messages/${messageId}/resources/`,
        kind: "truncated",
        times: 1,
      });
      await env.clearRequests();
      const once = await download(at("retried.pdf"));
      assert.equal(once.code, 0, once.stderr);
      assert.equal((await env.requests()).length, 2);
      assert.ok(await sameBytes(source, at("retried.pdf")));
      await env.post("/sandbox/faults", {
        route: `GET /open-apis/im/v1/messages/${messageId}/resources/`,
        kind: "truncated",
      });
      const before = await names(dir);
      const failed = await download(at("broken.pdf"));
      await fetch(`${env.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      assert.equal(failed.code, 1);
      assert.equal(JSON.parse(failed.stderr).error.type, "invalid_response");
      assert.deepEqual(await names(dir), before, "no partial or temporary file");
    });

    await t.step("Ctrl-C while waiting ends the download and leaves nothing", async () => {
      await env.post("/sandbox/faults", {
        route: `GET /open-apis/im/v1/messages/${messageId}/resources/`,
        kind: "latency",
        ms: 5000,
      });
      const before = await names(dir);
      await env.clearRequests();
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--no-check",
          ...HARK_RUN_FLAGS,
          MAIN_TS,
          ...downloadArgs(at("interrupted.pdf")),
          "--json",
        ],
        env: { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token },
        clearEnv: true,
        cwd: REPO_ROOT,
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // Wait until the request reached the sandbox, then press Ctrl-C.
      for (
        let i = 0;
        i < 200 && (await env.requests()).every((r) => !r.path.includes("/resources/"));
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      child.kill("SIGINT");
      const output = await child.output();
      await fetch(`${env.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      assert.equal(output.code, 1);
      assert.equal(JSON.parse(new TextDecoder().decode(output.stderr)).error.type, "cancelled");
      assert.deepEqual(await names(dir), before);
    });

    await t.step("the bot outside the chat gets Lark's answer, explained", async () => {
      const outside = env.sb.chats[CHAT_WITHOUT_BOT].chat_id;
      const there = await sendFile(env, outside, source);
      const run = await env.runBot([
        "im",
        "+download",
        "--message-id",
        there.messageId,
        "--key",
        there.key,
        "--output",
        at("bot.pdf"),
        "--json",
      ]);
      assert.equal(run.code, 1);
      const error = JSON.parse(run.stderr).error;
      assert.match(error.message, /^The app's bot is not a member of the message's chat: .*234004/);
      assert.equal(error.recovery.command, "hark im +chats --as bot");
      assert.equal(await Deno.stat(at("bot.pdf")).catch(() => undefined), undefined);
    });

    await t.step("bad input fails before any request; --dry-run downloads nothing", async () => {
      await env.clearRequests();
      const base = ["im", "+download", "--message-id", messageId];
      const cases: [string[], string][] = [
        [[...base, "--output", at("x")], "--key"],
        [[...base, "--key", key], "--output"],
        [[...base, "--key", "abc", "--output", at("x")], "--type"],
        [[...base, "--key", key, "--type", "video", "--output", at("x")], "--type"],
        [[...base, "--key", key, "--output", ""], "--output"],
        [[...base, "--key", key, "--output", at("missing/x.pdf")], "--output"],
        [[...base, "--key", key, "--output", at("missing/")], "--output"],
        [
          ["im", "+download", "--message-id", "oc_1", "--key", key, "--output", at("x")],
          "--message-id",
        ],
      ];
      for (const [args, flag] of cases) {
        const run = await env.run([...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      const dry = jsonOf<{ url: string }[]>(
        await env.run([...base, "--key", key, "--output", at("dry.pdf"), "--dry-run"], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.match(dry[0].url, /\/resources\/file_[^?]+\?type=file$/);
      assert.deepEqual(await env.requests(), []);
      assert.ok(!(await names(dir)).includes("dry.pdf"));
    });
  } finally {
    await env.close();
  }
});
