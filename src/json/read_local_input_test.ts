import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { MAX_INPUT_BYTES, readLocalInput } from "./read_local_input.ts";

const posix = Deno.build.os !== "windows";

function refused(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof ValidationError && error.param === "--data" && pattern.test(error.message);
}

Deno.test("readLocalInput() reads a file and stdin whole, up to the cap", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-input-" });
  try {
    const path = join(dir, "body.json");
    await Deno.writeTextFile(path, '{"a":1}');
    const ctx = createTestContext({ stdin: '{"b":2}' });
    assert.equal(
      new TextDecoder().decode(await readLocalInput(ctx, { path }, "--data")),
      '{"a":1}',
    );
    assert.equal(
      new TextDecoder().decode(await readLocalInput(ctx, { stdin: true }, "--data")),
      '{"b":2}',
    );
    await assert.rejects(readLocalInput(ctx, { path }, "--data", 6), refused(/larger than/));
    await assert.rejects(
      readLocalInput(ctx, { stdin: true }, "--data", 6),
      refused(/^Cannot read --data from stdin: it is larger than /),
    );
    await assert.rejects(
      readLocalInput(ctx, { path: join(dir, "absent") }, "--data"),
      refused(/^Cannot read --data file ".*absent": no such file$/),
    );
    await assert.rejects(readLocalInput(ctx, { path: dir }, "--data"), refused(/it is a folder/));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readLocalInput() stops an endless stdin at the cap", async () => {
  let pulled = 0;
  const ctx = createTestContext();
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(64 * 1024));
    },
  });
  const stdin = { ...ctx.stdin, stream: () => endless };
  await assert.rejects(
    readLocalInput({ fs: ctx.fs, stdin }, { stdin: true }, "--data"),
    refused(/^Cannot read --data from stdin: it is larger than 10 MiB$/),
  );
  assert.ok(pulled * 64 * 1024 <= MAX_INPUT_BYTES + 64 * 1024, `read ${pulled} chunks`);
});

Deno.test({
  name: "readLocalInput() refuses a device or a pipe before opening it, naming - for stdin",
  ignore: !posix,
  async fn() {
    const ctx = createTestContext();
    for (const device of ["/dev/zero", "/dev/null", "/dev/urandom"]) {
      await assert.rejects(
        readLocalInput(ctx, { path: device }, "--data"),
        (error: unknown) =>
          refused(/it is not a regular file \(a pipe, a device or a socket\)$/)(error) &&
          error instanceof ValidationError &&
          error.recovery.suggestion === "Give a file, or pass --data - to read stdin",
        device,
      );
    }
    const dir = await Deno.makeTempDir({ prefix: "hark-input-" });
    try {
      const fifo = join(dir, "fifo");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.equal(made.code, 0);
      // Opening a pipe with no writer would wait forever: it is refused without opening it.
      await assert.rejects(
        readLocalInput(ctx, { path: fifo }, "--data"),
        refused(/not a regular file/),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
