import assert from "node:assert/strict";
import {
  fileForm,
  IM_USER_SCOPES,
  imageForm,
  listAll,
  postForm,
  sendMessage,
  START_DAY,
} from "./_im_test_support.ts";
import { type TestClient, withSandbox } from "../test_client.ts";
import { CHAT_WITHOUT_FIRST_USER } from "../core/seed_data.ts";
import { makePng } from "./seed_files.ts";

const MIB = 1024 * 1024;

function download(client: TestClient, token: string, messageId: string, key: string, type: string) {
  return fetch(
    `${client.sandbox.baseUrl}/open-apis/im/v1/messages/${messageId}/resources/${key}?type=${type}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
}

/** Deterministic pseudo-random bytes (incompressible, every byte value present). */
function noise(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

async function sha256(bytes: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("image upload returns an image_key that an image message can send and download", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const png = makePng(16, [1, 2, 3], [200, 100, 50]);
    // The app uploads (Lark takes the tenant token only); its user sends the key.
    const bot = await client.tenantToken();
    const uploaded = await postForm(client, "/open-apis/im/v1/images", imageForm(png), bot);
    assert.equal(uploaded.status, 200);
    assert.equal(uploaded.body.code, 0);
    const key = uploaded.body.data.image_key;
    assert.match(key, /^img_v3_/);
    assert.deepEqual(Object.keys(uploaded.body.data), ["image_key"]);
    const sent = await sendMessage(client, token, "chat_id", {
      receive_id: sandbox.chats[0].chat_id,
      msg_type: "image",
      content: JSON.stringify({ image_key: key }),
    });
    assert.equal(sent.body.code, 0);
    const response = await download(client, token, sent.body.data.message_id, key, "image");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.equal(response.headers.get("content-length"), String(png.length));
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), png);
    const logged = (await client.send("GET", "/sandbox/requests")).body.find((r: {
      path: string;
    }) => r.path === "/open-apis/im/v1/images");
    assert.match(logged.body, /^<multipart\/form-data, \d+ bytes>$/, "the log keeps no binary");
  });
});

Deno.test("image upload refuses bad forms with Lark's 234xxx codes", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.tenantToken();
    const png = makePng(4, [0, 0, 0], [9, 9, 9]);
    const post = (form: FormData) => postForm(client, "/open-apis/im/v1/images", form, token);
    const noImage = new FormData();
    noImage.append("image_type", "message");
    const noType = new FormData();
    noType.append("image", new Blob([png]), "a.png");
    const cases: [FormData, number, string][] = [
      [imageForm(png, "sticker"), 234001, "Invalid request param."],
      [noImage, 234001, "Invalid request param."],
      [noType, 234001, "Invalid request param."],
      [imageForm(new Uint8Array(0)), 234010, "File's size can't be 0."],
      [
        imageForm(new TextEncoder().encode("not an image")),
        234011,
        "Can't regonnize the image format.",
      ],
      [imageForm(new Uint8Array(10 * MIB + 1)), 234006, "The file size exceed the max value."],
    ];
    for (const [form, code, msg] of cases) {
      const answer = await post(form);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { code, msg });
    }
    const exactLimit = new Uint8Array(10 * MIB);
    exactLimit.set(png);
    assert.equal((await post(imageForm(exactLimit))).body.code, 0, "10 MB itself is allowed");
    const avatar = await post(imageForm(png, "avatar"));
    assert.equal(avatar.body.code, 0);
    const json = await client.json(
      "POST",
      "/open-apis/im/v1/images",
      { image_type: "message" },
      token,
    );
    assert.deepEqual(json.body, { code: 234001, msg: "Invalid request param." });
    const broken = await client.send("POST", "/open-apis/im/v1/images", {
      token,
      headers: { "content-type": "multipart/form-data; boundary=zz" },
      body: "--zz\r\nno headers here",
    });
    assert.equal(broken.body.code, 234001);
  });
});

Deno.test("file upload checks type, name, duration and the 30 MB limit", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.tenantToken();
    const post = (form: FormData) => postForm(client, "/open-apis/im/v1/files", form, token);
    const bytes = new TextEncoder().encode("a,b\n1,2\n");
    const ok = await post(fileForm(bytes, "data.csv", "stream", { duration: "0" }));
    assert.equal(ok.body.code, 0);
    assert.match(ok.body.data.file_key, /^file_v3_/);
    const noFile = new FormData();
    noFile.append("file_type", "pdf");
    noFile.append("file_name", "a.pdf");
    const cases: [FormData, number][] = [
      [fileForm(bytes, "a.exe", "exe"), 234001],
      [fileForm(bytes, " ", "stream"), 234001],
      [fileForm(bytes, "a.opus", "opus", { duration: "3.5s" }), 234001],
      [noFile, 234001],
      [fileForm(new Uint8Array(0), "empty.pdf", "pdf"), 234010],
      [fileForm(new Uint8Array(30 * MIB + 1), "big.pdf", "pdf"), 234006],
    ];
    for (const [form, code] of cases) assert.equal((await post(form)).body.code, code);
  });
});

Deno.test("a 25 MB file goes up, out in a message and back down byte for byte", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const bytes = noise(25 * MIB);
    const digest = await sha256(bytes);
    const uploaded = await postForm(
      client,
      "/open-apis/im/v1/files",
      fileForm(bytes, "dump 25MB.bin", "stream"),
      await client.tenantToken(),
    );
    assert.equal(uploaded.body.code, 0);
    const key = uploaded.body.data.file_key;
    const sent = await sendMessage(client, token, "chat_id", {
      receive_id: sandbox.chats[0].chat_id,
      msg_type: "file",
      content: JSON.stringify({ file_key: key }),
    });
    assert.equal(sent.body.code, 0);
    const messageId = sent.body.data.message_id;
    const read = await client.send("GET", `/open-apis/im/v1/messages/${messageId}`, { token });
    assert.deepEqual(JSON.parse(read.body.data.items[0].body.content), {
      file_key: key,
      file_name: "dump 25MB.bin",
    });
    const response = await download(client, token, messageId, key, "file");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-length"), String(25 * MIB));
    assert.equal(response.headers.get("content-type"), "application/octet-stream");
    assert.equal(
      response.headers.get("content-disposition"),
      `attachment; filename="dump 25MB.bin"; filename*=UTF-8''dump%2025MB.bin`,
    );
    let received = 0;
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body!) {
      received += chunk.length;
      chunks.push(chunk);
    }
    assert.equal(received, 25 * MIB);
    const whole = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    assert.equal(await sha256(whole), digest);
    const ranged = await fetch(
      `${sandbox.baseUrl}/open-apis/im/v1/messages/${messageId}/resources/${key}?type=file`,
      { headers: { authorization: `Bearer ${token}`, range: "bytes=1048576-2097151" } },
    );
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get("content-range"), `bytes 1048576-2097151/${25 * MIB}`);
    assert.deepEqual(new Uint8Array(await ranged.arrayBuffer()), bytes.subarray(MIB, 2 * MIB));
  });
});

Deno.test("resource download answers Lark's errors for keys, types, members and message kinds", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const items = [];
    for (const chat of sandbox.chats.slice(0, 4)) {
      items.push(
        ...await listAll(client, token, { container_id_type: "chat", container_id: chat.chat_id }),
      );
    }
    const image = items.find((m) => m.msg_type === "image")!;
    const file = items.find((m) =>
      m.msg_type === "file" && JSON.parse(m.body.content).file_name.endsWith(".pdf")
    )!;
    const card = items.find((m) => m.msg_type === "interactive")!;
    const imageKey = JSON.parse(image.body.content).image_key;
    const fileKey = JSON.parse(file.body.content).file_key;
    const got = await download(client, token, file.message_id, fileKey, "file");
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("content-type"), "application/pdf");
    const pdf = new Uint8Array(await got.arrayBuffer());
    assert.equal(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
    const expect = async (response: Response, code: number, msg: string) => {
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { code, msg });
    };
    const refusals: [string, string, string, number, string][] = [
      [image.message_id, fileKey, "file", 234003, "File not in message."],
      [image.message_id, imageKey, "file", 234001, "Invalid request param."],
      [image.message_id, imageKey, "video", 234001, "Invalid request param."],
      ["om_nope", imageKey, "image", 234001, "Invalid request param."],
      [card.message_id, imageKey, "image", 234043, "Unsupported message type."],
    ];
    for (const [messageId, key, type, code, msg] of refusals) {
      await expect(await download(client, token, messageId, key, type), code, msg);
    }
    const bot = await client.tenantToken();
    const outside = await listAll(client, bot, {
      container_id_type: "chat",
      container_id: sandbox.chats[CHAT_WITHOUT_FIRST_USER].chat_id,
    });
    const foreign = outside.find((m) => m.msg_type === "image")!;
    await expect(
      await download(
        client,
        token,
        foreign.message_id,
        JSON.parse(foreign.body.content).image_key,
        "image",
      ),
      234004,
      "App not in chat.",
    );
    const unsatisfiable = await fetch(
      `${sandbox.baseUrl}/open-apis/im/v1/messages/${file.message_id}/resources/${fileKey}?type=file`,
      { headers: { authorization: `Bearer ${token}`, range: "bytes=999999-" } },
    );
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers.get("content-range"), `bytes */${pdf.length}`);
    await unsatisfiable.body?.cancel();
  });
});

Deno.test("file messages need an upload of the app's, of the right type", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const user = await client.userToken(IM_USER_SCOPES);
    const bot = await client.tenantToken();
    const chat = sandbox.chats[0].chat_id;
    const upload = async (name: string, type: string) =>
      (await postForm(
        client,
        "/open-apis/im/v1/files",
        fileForm(new Uint8Array([1, 2, 3]), name, type),
        bot,
      ))
        .body.data.file_key;
    const send = (token: string, msgType: string, content: unknown) =>
      sendMessage(client, token, "chat_id", {
        receive_id: chat,
        msg_type: msgType,
        content: JSON.stringify(content),
      });
    // The app's upload: its bot and its user may both send it.
    const pdf = await upload("r.pdf", "pdf");
    assert.equal((await send(user, "file", { file_key: pdf })).body.code, 0);
    assert.equal((await send(bot, "file", { file_key: pdf })).body.code, 0);
    // A file only another user's message holds is not the bot's to send.
    const seeded = (await listAll(client, user, { container_id_type: "chat", container_id: chat }))
      .map((m) => JSON.parse(m.body.content).file_key)
      .find((key) => typeof key === "string");
    assert.ok(seeded, "the seeded chat holds a file message");
    const notMine = await send(bot, "file", { file_key: seeded });
    assert.deepEqual(notMine.body, { code: 230017, msg: "Bot is NOT the owner of the resource." });
    const video = await upload("clip.mp4", "mp4");
    const asFile = await send(user, "file", { file_key: video });
    assert.equal(asFile.body.code, 230055);
    const cover = (await postForm(
      client,
      "/open-apis/im/v1/images",
      imageForm(makePng(4, [0, 0, 0], [1, 1, 1])),
      bot,
    )).body.data.image_key;
    const asMedia = await send(user, "media", { file_key: video, image_key: cover });
    assert.equal(asMedia.body.code, 0);
    const voice = await upload("note.opus", "opus");
    const asAudio = await send(user, "audio", { file_key: voice });
    assert.equal(asAudio.body.code, 0);
    assert.equal((await send(user, "audio", { file_key: video })).body.code, 230055);
  });
});

Deno.test("uploads take the tenant token only, with im:resource or im:resource:upload", async () => {
  const png = makePng(4, [0, 0, 0], [9, 9, 9]);
  const bytes = new TextEncoder().encode("a,b\n");
  await withSandbox({}, async (_sandbox, client) => {
    // Every user grant, the send and upload scopes included: still refused (Lark's image and
    // file create docs list `tenant_access_token` alone).
    const user = await client.userToken([...IM_USER_SCOPES, "im:resource", "im:resource:upload"]);
    for (
      const [path, form] of [
        ["/open-apis/im/v1/images", imageForm(png)],
        ["/open-apis/im/v1/files", fileForm(bytes, "a.csv", "stream")],
      ] as const
    ) {
      const refused = await postForm(client, path, form, user);
      assert.equal(refused.status, 400, path);
      assert.equal(refused.body.code, 99991679, path);
      assert.deepEqual(
        refused.body.error.permission_violations.map((v: { subject: string }) => v.subject),
        ["im:resource", "im:resource:upload"],
      );
    }
  });
  // The send scopes do not open uploads for the bot: an app without im:resource gets 99991672.
  await withSandbox({ appScopes: ["im:message:send_as_bot", "im:message"] }, async (_s, client) => {
    const bot = await client.tenantToken();
    const refused = await postForm(client, "/open-apis/im/v1/images", imageForm(png), bot);
    assert.equal(refused.body.code, 99991672);
    assert.match(refused.body.msg, /\[im:resource, im:resource:upload\]/);
  });
  await withSandbox({ appScopes: ["im:resource:upload"] }, async (_s, client) => {
    const bot = await client.tenantToken();
    const files = await postForm(
      client,
      "/open-apis/im/v1/files",
      fileForm(bytes, "a.csv", "stream"),
      bot,
    );
    assert.equal(files.body.code, 0, "im:resource:upload is the doc's other choice");
  });
});
