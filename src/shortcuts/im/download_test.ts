import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../../errors/mod.ts";
import { FileThereError } from "../../http/download.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { download, resourceOf, targetOf } from "./download.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hark-download-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const param = (p: string, pattern = /./) => (e: unknown) =>
  e instanceof ValidationError && e.param === p && pattern.test(e.message);

Deno.test("resourceOf() takes the type from --type, else from the key", () => {
  assert.deepEqual(resourceOf(inputOf({ key: "img_v3_1" })), { key: "img_v3_1", type: "image" });
  assert.deepEqual(resourceOf(inputOf({ key: "file_v3_1" })), { key: "file_v3_1", type: "file" });
  assert.deepEqual(resourceOf(inputOf({ key: "abc", type: "file" })), { key: "abc", type: "file" });
  assert.throws(() => resourceOf(inputOf({ key: "abc" })), param("--type"));
  assert.throws(() => resourceOf(inputOf({ key: "img 1" })), param("--key"));
});

Deno.test("targetOf() guards --output: no silent overwrite, folders end with / or exist", async () => {
  await withDir(async (dir) => {
    const existing = join(dir, "a.pdf");
    await Deno.writeTextFile(existing, "old");
    const target = (output: string, force = false) =>
      targetOf(inputOf({ key: "file_1", output, force }));
    assert.deepEqual(await target(join(dir, "new.pdf")), {
      path: join(dir, "new.pdf"),
      overwrite: false,
    });
    await assert.rejects(target(existing), param("--output", /already there/));
    assert.deepEqual(await target(existing, true), { path: existing, overwrite: true });
    assert.deepEqual(await target(dir), {
      path: dir,
      folder: true,
      fallbackName: "file_1",
      overwrite: false,
    });
    await assert.rejects(target(join(dir, "nope") + "/"), param("--output", /does not exist/));
    await assert.rejects(target(join(dir, "nope", "x.pdf")), param("--output", /does not exist/));
    await assert.rejects(target(""), param("--output"));
  });
});

Deno.test({
  name: "targetOf() never replaces a device or a pipe, --force or not, and says so without --force",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withDir(async (dir) => {
      const fifo = join(dir, "out.fifo");
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      for (const output of ["/dev/null", fifo]) {
        for (const force of [false, true]) {
          await assert.rejects(
            targetOf(inputOf({ key: "file_1", output, force })),
            (e: unknown) =>
              param("--output", /it is not a regular file \(a device, a pipe or a socket\)/)(e) &&
              e instanceof ValidationError && !/--force/.test(e.recovery.suggestion),
            `${output} ${force}`,
          );
        }
      }
    });
  },
});

Deno.test("targetOf() refuses a path too long to look at, quoting only its start", async () => {
  const output = `/tmp/${"a".repeat(131_000)}`;
  const error = await targetOf(inputOf({ key: "file_1", output, force: false })).catch((e) => e);
  assert.ok(param("--output", /the path is too long \(131005 characters\)/)(error), String(error));
  assert.ok(error.message.length < 300, "the message quotes the start of the path only");
});

Deno.test("+download asks for the resource by type and reports where it went", async () => {
  await withDir(async (dir) => {
    const client = new FakeClient(
      () => {
        throw new Error("no JSON call expected");
      },
      (_request, target) => ({ path: target.path, bytes: 42, contentType: "application/pdf" }),
    );
    const output = join(dir, "r.pdf");
    const input = inputOf({ "message-id": "om_1", key: "file_v3_9", output, force: false });
    await download.validate!(input);
    assert.deepEqual(await download.run!(input, client), {
      message_id: "om_1",
      key: "file_v3_9",
      type: "file",
      path: output,
      bytes: 42,
      content_type: "application/pdf",
    });
    assert.equal(client.requests[0].path, "/open-apis/im/v1/messages/om_1/resources/file_v3_9");
    assert.deepEqual(client.requests[0].query, { type: "file" });
    assert.deepEqual(client.targets, [{ path: output, overwrite: false }]);
  });
});

Deno.test("+download turns a file that appeared meanwhile into a --force hint", async () => {
  await withDir(async (dir) => {
    const client = new FakeClient(() => ({}), () => {
      throw new Deno.errors.AlreadyExists("File exists");
    });
    const input = inputOf({ "message-id": "om_1", key: "img_1", output: join(dir, "x.png") });
    await assert.rejects(
      download.run!(input, client),
      (e: unknown) =>
        param("--output", /already there/)(e) &&
        /--force/.test((e as ValidationError).recovery.suggestion),
    );
  });
});

Deno.test("+download into a folder names the file already there, not the folder", async () => {
  await withDir(async (dir) => {
    const there = join(dir, "report.pdf");
    const client = new FakeClient(() => ({}), () => {
      throw new FileThereError(there, new Deno.errors.AlreadyExists("File exists"));
    });
    const input = inputOf({ "message-id": "om_1", key: "file_v3_1", output: `${dir}/` });
    await assert.rejects(download.run!(input, client), (e: unknown) => {
      assert.ok(e instanceof ValidationError, String(e));
      assert.equal(
        e.message,
        `Cannot save to ${JSON.stringify(there)} (--output): a file is already there`,
      );
      return true;
    });
  });
});
