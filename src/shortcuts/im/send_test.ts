import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { join } from "node:path";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import type { Posted } from "./outgoing.ts";
import { mediaKeyOf, messageOf, receiverOf, send, sentColumns } from "./send.ts";
import { writeData } from "../../output/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";

const invalid = (param: string) => (e: unknown) =>
  e instanceof ValidationError && e.param === param;

Deno.test("send needs exactly one receiver, naming the flags", () => {
  assert.throws(() => receiverOf(inputOf({})), invalid("--chat-id"));
  assert.throws(
    () => receiverOf(inputOf({ "chat-id": "oc_1", email: "a@b.c" })),
    (e: unknown) => invalid("--email")(e) && /--chat-id, --email/.test((e as Error).message),
  );
  assert.deepEqual(receiverOf(inputOf({ "user-id": "ou_1" })), { type: "open_id", id: "ou_1" });
  assert.deepEqual(receiverOf(inputOf({ "user-id": "on_1" })), { type: "union_id", id: "on_1" });
  assert.deepEqual(receiverOf(inputOf({ "user-id": "1a2b" })), { type: "user_id", id: "1a2b" });
  assert.deepEqual(receiverOf(inputOf({ email: "a@b.c" })), { type: "email", id: "a@b.c" });
  assert.deepEqual(receiverOf(inputOf({ "chat-id": " oc_1 " })), { type: "chat_id", id: "oc_1" });
});

Deno.test("send rejects a chat id without oc_ and ids holding spaces or control characters", () => {
  assert.throws(() => receiverOf(inputOf({ "chat-id": "1234" })), invalid("--chat-id"));
  assert.throws(() => receiverOf(inputOf({ "user-id": "ou 1" })), invalid("--user-id"));
  assert.throws(() => receiverOf(inputOf({ "user-id": "ou_\u202e1" })), invalid("--user-id"));
  assert.throws(() => receiverOf(inputOf({ email: "a@b.c\n" + "x" })), invalid("--email"));
});

Deno.test("send checks that --email is a plausible address before sending", () => {
  for (
    const email of [
      "ana",
      "ana@",
      "@example.com",
      "ana@example",
      "ana@@example.com",
      "a@b..c",
      "a@.b.c",
      "a@b.c.",
    ]
  ) {
    assert.throws(
      () => receiverOf(inputOf({ email })),
      (e: unknown) =>
        invalid("--email")(e) && /expected an email address/.test((e as Error).message),
      email,
    );
  }
  for (const email of ["ana@example.com", "ana.lee+tag@mail.example.co.jp", "a@b.c"]) {
    assert.deepEqual(receiverOf(inputOf({ email })), { type: "email", id: email });
  }
});

Deno.test("send builds text, post and raw content", () => {
  assert.deepEqual(messageOf(inputOf({ text: "hi" })), {
    msgType: "text",
    content: '{"text":"hi"}',
  });
  const post = messageOf(inputOf({ markdown: "**b**" }));
  assert.equal(post.msgType, "post");
  assert.deepEqual(JSON.parse(post.content), {
    zh_cn: { title: "", content: [[{ tag: "md", text: "**b**" }]] },
  });
  // Shaped for what Lark's md element renders: a paragraph each, headings scaled.
  const shaped = messageOf(inputOf({ markdown: "# Deployed\n\nAll **green**" }));
  assert.deepEqual(JSON.parse(shaped.content).zh_cn.content, [
    [{ tag: "md", text: "#### Deployed" }],
    [{ tag: "text", text: "\u200b" }],
    [{ tag: "md", text: "All **green**" }],
  ]);
  assert.throws(
    () => messageOf(inputOf({ markdown: "![logo](https://example.com/logo.png)" })),
    invalid("--markdown"),
  );
  assert.deepEqual(messageOf(inputOf({ content: '{ "a": 1 }', "msg-type": "interactive" })), {
    msgType: "interactive",
    content: '{"a":1}',
  });
});

Deno.test("send rejects no body, two bodies, bad content and a stray --msg-type", async () => {
  assert.throws(() => messageOf(inputOf({})), invalid("--text"));
  assert.throws(() => messageOf(inputOf({ text: "a", markdown: "b" })), invalid("--markdown"));
  assert.throws(() => messageOf(inputOf({ content: "{}" })), invalid("--msg-type"));
  assert.throws(() => messageOf(inputOf({ text: "a", "msg-type": "text" })), invalid("--msg-type"));
  assert.throws(
    () => messageOf(inputOf({ content: "nope", "msg-type": "text" })),
    invalid("--content"),
  );
  assert.throws(
    () => messageOf(inputOf({ content: "[1]", "msg-type": "text" })),
    invalid("--content"),
  );
  await assert.rejects(
    async () =>
      await send.validate!(
        inputOf({ "chat-id": "oc_1", text: "a", "idempotency-key": "k".repeat(51) }),
      ),
    invalid("--idempotency-key"),
  );
});

Deno.test("send passes the idempotency key as uuid and to the client", async () => {
  const client = new FakeClient(() => ({ message_id: "om_1" }));
  const result = await send.run!(
    inputOf({ "chat-id": "oc_1", text: "hi", "idempotency-key": "key-1" }),
    client,
  );
  // `run` of a registered shortcut answers `unknown`; +send's is a Posted.
  assert.deepEqual((result as Posted).item, { message_id: "om_1" });
  assert.equal((result as Posted).key, "key-1");
  const [request] = client.requests;
  assert.equal(request.idempotencyKey, "key-1");
  assert.deepEqual(request.query, { receive_id_type: "chat_id" });
  assert.deepEqual(request.body, {
    receive_id: "oc_1",
    msg_type: "text",
    content: '{"text":"hi"}',
    uuid: "key-1",
  });
});

Deno.test("send generates a key when none is given", async () => {
  const client = new FakeClient(() => ({}));
  await send.run!(inputOf({ email: "a@b.c", text: "hi" }), client);
  assert.match(client.requests[0].idempotencyKey!, /^[0-9a-f-]{36}$/);
  assert.equal(
    (client.requests[0].body as { uuid: string }).uuid,
    client.requests[0].idempotencyKey,
  );
});

Deno.test("send --file uploads the file, then sends the key it answered", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-send-test-" });
  try {
    const path = join(dir, "report.pdf");
    await Deno.writeTextFile(path, "%PDF-1.4 report");
    const client = new FakeClient((r) =>
      r.path === "/open-apis/im/v1/files" ? { file_key: "file_9" } : { message_id: "om_9" }
    );
    const input = inputOf({ "chat-id": "oc_1", file: path, "idempotency-key": "k-9" });
    await send.validate!(input);
    assert.deepEqual((await send.run!(input, client) as Posted).item, { message_id: "om_9" });
    const [upload, message] = client.requests;
    assert.equal(upload.method, "POST");
    assert.equal(upload.repeatable, true);
    assert.deepEqual(upload.form?.fields, { file_type: "pdf", file_name: "report.pdf" });
    assert.equal(upload.form?.file.path, path);
    assert.deepEqual(message.body, {
      receive_id: "oc_1",
      msg_type: "file",
      content: '{"file_key":"file_9"}',
      uuid: "k-9",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("send --image previews the upload and a placeholder key, reading no file bytes", () => {
  const requests = send.requests(inputOf({ "chat-id": "oc_1", image: "./chart.png" }));
  assert.deepEqual(requests.map((r) => r.path), [
    "/open-apis/im/v1/images",
    "/open-apis/im/v1/messages",
  ]);
  assert.deepEqual(requests[0].form?.fields, { image_type: "message" });
  assert.deepEqual(JSON.parse((requests[1].body as { content: string }).content), {
    image_key: "<image_key of the upload>",
  });
});

Deno.test("send --image and --file are bodies like --text: exactly one", () => {
  assert.throws(
    () => messageOf(inputOf({ text: "a", image: "x.png" })),
    (e: unknown) => invalid("--image")(e) && /--text, --image/.test((e as Error).message),
  );
  assert.throws(() => messageOf(inputOf({ file: " " })), invalid("--file"));
});

Deno.test("send whose answer holds no message says it was sent, with the key that posts nothing twice", async () => {
  for (const answer of [null, "abc", [], { message_id: 42 }, { create_time: "1795435200000" }]) {
    const client = new FakeClient(() => answer);
    const warnings: string[] = [];
    const input = inputOf({ "chat-id": "oc_1", text: "hi", "idempotency-key": "key-7" }, {
      warnings,
    });
    const row = send.output!(await send.run!(input, client), input);
    assert.deepEqual(row, {
      msg_type: "text",
      body: { content: '{"text":"hi"}' },
      chat_id: "oc_1",
      text: "hi",
    }, JSON.stringify(answer));
    assert.deepEqual(warnings, [
      "The message was sent (the service accepted it), but the service's answer holds no " +
      "message, so its id is unknown; running the command again with --idempotency-key key-7 " +
      "posts nothing new",
    ]);
  }
});

Deno.test("the card of a sent file shows the file key +download needs", async () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, env: { NO_COLOR: "1" } });
  const row = {
    message_id: "om_9",
    chat_id: "oc_1",
    msg_type: "file",
    body: { content: '{"file_key":"file_v3_00ab","file_name":"report.pdf"}' },
  };
  await writeData(ctx, { color: false }, row, sentColumns(inputOf({})));
  assert.match(ctx.stdout.text(), /^FILE KEY: +file_v3_00ab$/m);
  assert.equal(mediaKeyOf({ body: { content: '{"image_key":"img_1"}' } }), "img_1");
  assert.equal(mediaKeyOf({ body: { content: '{"text":"hi"}' } }), "");
  assert.equal(mediaKeyOf({ body: { content: "not json" } }), "");
});
