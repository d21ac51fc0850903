import assert from "node:assert/strict";
import { messageText } from "./message_text.ts";

const text = (msg_type: string, content: unknown, extra: Record<string, unknown> = {}) =>
  messageText({ msg_type, body: { content: JSON.stringify(content) }, ...extra });

Deno.test("messageText() shows text with its mentions as names", () => {
  assert.equal(
    text("text", { text: "@_user_1 and @_user_2, see @_all" }, {
      mentions: [{ key: "@_user_1", id: "ou_1", name: "Ana" }],
    }),
    "@Ana and @_user_2, see @all",
  );
});

Deno.test("messageText() shows a post as its title and lines, received or sent form", () => {
  const received = {
    title: "Weekly update",
    content: [
      [{ tag: "text", text: "Shipped " }, { tag: "a", href: "https://x.test/1", text: "v2" }],
      [{ tag: "at", user_id: "@_user_1", user_name: "Ana" }, { tag: "text", text: " please" }],
      [{ tag: "img", image_key: "img_1" }, { tag: "emotion", emoji_type: "SMILE" }],
      [{ tag: "hr" }],
    ],
  };
  assert.equal(
    text("post", received),
    "Weekly update\nShipped v2 (https://x.test/1)\n@Ana please\n[image img_1]:SMILE:\n---",
  );
  const sent = { zh_cn: { title: "", content: [[{ tag: "md", text: "**Done**" }]] } };
  assert.equal(text("post", sent), "**Done**");
  assert.equal(text("post", { en_us: { title: "T", content: [] } }), "T");
  assert.equal(text("post", { zh_cn: { content: [] } }), "[post]");
});

Deno.test("messageText() summarises cards: received elements or a raw card", () => {
  assert.equal(
    text("interactive", {
      title: "Build passed",
      elements: [[{ tag: "text", text: "Build passed: all 312 tests" }], [
        { tag: "button", text: "Open" },
      ]],
    }),
    "[card] Build passed: all 312 tests",
  );
  assert.equal(
    text("interactive", {
      header: { title: { tag: "plain_text", content: "Deploy" } },
      elements: [{ tag: "div", text: { tag: "lark_md", content: "**prod** is green" } }, {
        tag: "markdown",
        content: "took 4 min",
      }],
    }),
    "[card] Deploy: **prod** is green · took 4 min",
  );
  assert.equal(text("interactive", {}), "[card]");
});

Deno.test("messageText() summarises files, images and the rest; recalled and odd content", () => {
  assert.equal(text("image", { image_key: "img_1" }), "[image img_1]");
  assert.equal(
    text("file", { file_key: "file_1", file_name: "Q3.pdf" }),
    "[file Q3.pdf (file_1)]",
  );
  assert.equal(text("audio", { file_key: "f", duration: 4200 }), "[audio 4 s]");
  assert.equal(text("file", { file_key: "file_1" }), "[file file_1]");
  assert.equal(text("media", { file_key: "f", file_name: "demo.mp4" }), "[video demo.mp4]");
  assert.equal(text("media", { file_key: "f", duration: 3000 }), "[video 3 s]");
  assert.equal(text("share_chat", { chat_id: "oc_1" }), "[shared chat oc_1]");
  assert.equal(text("sticker", { file_key: "f" }), "[sticker]");
  assert.equal(text("vote", {}), "[vote]");
  assert.equal(
    messageText({ msg_type: "text", body: { content: "This message was recalled" } }),
    "This message was recalled",
  );
  assert.equal(text("text", { text: "x" }, { deleted: true }), "[recalled]");
  assert.equal(messageText({ msg_type: "text" }), "");
});

Deno.test("messageText() keeps the service's characters as they are: tables neutralise them", () => {
  assert.equal(text("text", { text: "\u001b[31mALERT\u001b[0m" }), "\u001b[31mALERT\u001b[0m");
});
