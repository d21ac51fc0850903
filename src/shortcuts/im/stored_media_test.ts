import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { messageOf, send } from "./send.ts";
import { reply } from "./reply.ts";

const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;
const contentOf = (values: Record<string, string>) =>
  JSON.parse(messageOf(inputOf<Record<string, string>>(values)).content);

Deno.test("--image-key, --file-key and keys for --audio and --video send what Lark holds", () => {
  assert.deepEqual(messageOf(inputOf({ "image-key": " img_v3_1 " })), {
    msgType: "image",
    content: '{"image_key":"img_v3_1"}',
  });
  assert.deepEqual(messageOf(inputOf({ "file-key": "file_v3_1" })).msgType, "file");
  assert.deepEqual(messageOf(inputOf({ audio: "file_v3_a" })), {
    msgType: "audio",
    content: '{"file_key":"file_v3_a"}',
  });
  assert.deepEqual(contentOf({ video: "file_v3_v", cover: "img_v3_c" }), {
    file_key: "file_v3_v",
    image_key: "img_v3_c",
  });
  // No upload is previewed for keys.
  assert.deepEqual(send.requests(inputOf({ "chat-id": "oc_1", "image-key": "img_1" })).length, 1);
});

Deno.test("--mention becomes Lark's <at> in text and an at element in markdown", () => {
  assert.deepEqual(contentOf({ text: "ship it", mention: "ou_1, ou_2" }), {
    text: '<at user_id="ou_1"></at> <at user_id="ou_2"></at> ship it',
  });
  const post = contentOf({ markdown: "**ship** it", mention: "ou_1" });
  assert.deepEqual(post.zh_cn.content[0], [{ tag: "at", user_id: "ou_1" }]);
  assert.equal(post.zh_cn.content.length, 2);
});

Deno.test("the new body flags refuse bad input naming the flag", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ "image-key": "file_1" }, "--image-key"],
    [{ "file-key": "img_1" }, "--file-key"],
    [{ "file-key": "file_1", "image-key": "img_1" }, "--file-key"],
    [{ video: "file_1" }, "--cover"],
    [{ video: "file_1", cover: " " }, "--cover"],
    [{ video: "file_1", cover: "./c.png" }, "--cover"],
    [{ text: "hi", cover: "img_1" }, "--cover"],
    [{ audio: "file_1 x" }, "--audio"],
    [{ image: "./a.png", mention: "ou_1" }, "--mention"],
    [{ text: "hi", mention: "on_1" }, "--mention"],
    [{ text: "hi", mention: Array(51).fill(0).map((_, i) => `ou_${i}`).join() }, "--mention"],
    [{ audio: "./voice.mp3" }, "--audio"],
  ];
  for (const [values, flag] of cases) {
    await assert.rejects(
      (async () => await send.validate!(inputOf({ "chat-id": "oc_1", ...values })))(),
      flagOf(flag),
      `${JSON.stringify(values)} → ${flag}`,
    );
  }
});

Deno.test("--video and --cover upload the mp4 and the image, then send both keys", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-video-test-" });
  try {
    const video = join(dir, "demo.mp4");
    const cover = join(dir, "cover.png");
    await Deno.writeFile(video, new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]));
    await Deno.writeFile(
      cover,
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]),
    );
    const client = new FakeClient((r) =>
      r.path === "/open-apis/im/v1/files"
        ? { file_key: "file_v" }
        : r.path === "/open-apis/im/v1/images"
        ? { image_key: "img_c" }
        : { message_id: "om_9" }
    );
    const input = inputOf({ "message-id": "om_1", "in-thread": false, video, cover });
    await reply.validate!(input);
    assert.equal(reply.requests(input).length, 3, "the preview shows both uploads");
    await reply.run!(input, client);
    const [file, image, message] = client.requests;
    assert.deepEqual(file.form?.fields, { file_type: "mp4", file_name: "demo.mp4" });
    assert.equal(file.form?.file.contentType, "video/mp4");
    assert.deepEqual(image.form?.fields, { image_type: "message" });
    assert.equal(image.form?.file.flag, "--cover");
    assert.deepEqual(message.body, {
      msg_type: "media",
      content: '{"file_key":"file_v","image_key":"img_c"}',
      reply_in_thread: false,
      uuid: (message.body as { uuid: string }).uuid,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
