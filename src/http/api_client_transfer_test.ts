import assert from "node:assert/strict";
import { join } from "node:path";
import { ApiClient } from "./api_client.ts";
import type { ApiRequest } from "./request.ts";
import type { TokenSource } from "../auth/token_source.ts";
import { ApiError, CancelledError, PermissionError, ValidationError } from "../errors/mod.ts";
import {
  createTestContext,
  type ExpectedRequest,
  FetchStub,
  jsonResponse,
  type TestContext,
} from "../../tests/support/test_context.ts";

const BASE = "https://open.example.test";
const RESOURCE = "/open-apis/im/v1/messages/om_1/resources/file_1";

const tokens: TokenSource = {
  getToken: () => Promise.resolve({ token: "u-token", identity: "user", source: "env" }),
  refreshAfterRejection: () => Promise.reject(new Error("no refresh in these tests")),
};

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-transfer-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function setup(expected: ExpectedRequest[], ctxOptions: { debug?: boolean } = {}) {
  const stub = new FetchStub(expected);
  const ctx: TestContext = createTestContext({ fetch: stub.fetch, ...ctxOptions });
  const client = new ApiClient(ctx, { baseUrl: BASE, tokens, retry: { random: () => 0.5 } });
  return { stub, ctx, client };
}

const download: ApiRequest = {
  method: "GET",
  path: RESOURCE,
  query: { type: "file" },
  scopes: ["im:message:readonly"],
};
const getFile = (respond: ExpectedRequest["respond"]): ExpectedRequest => ({
  method: "GET",
  url: `${BASE}${RESOURCE}?type=file`,
  respond,
});
const fileAnswer = (bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) => () =>
  new Response(bytes, {
    headers: {
      "content-type": "application/pdf",
      "content-length": String(bytes.length),
      ...headers,
    },
  });

/** A body that sends `bytes` and then breaks off, as a dropped connection does. */
const brokenAnswer = (bytes: Uint8Array, announced: number) => () => {
  let sent = false;
  return new Response(
    new ReadableStream({
      pull(controller) {
        if (!sent) controller.enqueue(bytes);
        else controller.error(new TypeError("error reading a body from connection"));
        sent = true;
      },
    }),
    { headers: { "content-type": "application/pdf", "content-length": String(announced) } },
  );
};

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("download() streams a file to disk with auth and reports its size and type", async () => {
  await withDir(async (dir) => {
    const content = new Uint8Array(300_000).map((_, i) => i % 256);
    const { client, stub } = setup([getFile((request) => {
      assert.equal(request.headers.get("authorization"), "Bearer u-token");
      return fileAnswer(content)();
    })]);
    const path = join(dir, "report.pdf");
    const saved = await client.download(download, { path });
    stub.verify();
    assert.deepEqual(saved, { path, bytes: 300_000, contentType: "application/pdf" });
    assert.deepEqual(await Deno.readFile(path), content);
    assert.deepEqual(await names(dir), ["report.pdf"]);
  });
});

Deno.test("download() into a folder takes the answer's file name, made safe", async () => {
  await withDir(async (dir) => {
    const { client } = setup([
      getFile(fileAnswer(new Uint8Array([1]), {
        "content-disposition":
          `attachment; filename="x"; filename*=UTF-8''..%2F..%2Fr%C3%A9sum%C3%A9.pdf`,
      })),
      getFile(fileAnswer(new Uint8Array([2]))),
    ]);
    const first = await client.download(download, { path: dir, folder: true });
    assert.equal(first.path, join(dir, "résumé.pdf"));
    const second = await client.download(download, {
      path: dir,
      folder: true,
      fallbackName: "file_1",
    });
    assert.equal(second.path, join(dir, "file_1.pdf"), "named by the key and the answer's type");
    assert.deepEqual(await names(dir), ["file_1.pdf", "résumé.pdf"]);
  });
});

Deno.test("download() starts again after a body cut short, leaving no partial file", async () => {
  await withDir(async (dir) => {
    const content = new Uint8Array(10_000).fill(9);
    const { client, stub, ctx } = setup([
      getFile(brokenAnswer(content.subarray(0, 4000), 10_000)),
      // Fewer bytes than announced, then a clean end: also a broken answer.
      getFile(() =>
        new Response(content.subarray(0, 5000), {
          headers: { "content-type": "application/pdf", "content-length": "10000" },
        })
      ),
      getFile(fileAnswer(content)),
    ]);
    const path = join(dir, "out.pdf");
    const saved = await client.download(download, { path });
    stub.verify();
    assert.equal(saved.bytes, 10_000);
    assert.equal(ctx.sleeps.length, 2);
    assert.deepEqual(await names(dir), ["out.pdf"]);
  });
});

Deno.test("download() gives up after four broken bodies with an invalid_response error", async () => {
  await withDir(async (dir) => {
    const { client, stub } = setup(
      Array.from({ length: 4 }, () => getFile(brokenAnswer(new Uint8Array(10), 100))),
    );
    const error = await client.download(download, { path: join(dir, "x") }).catch((e) => e);
    stub.verify();
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.type, "invalid_response");
    assert.deepEqual(await names(dir), []);
  });
});

Deno.test("download() refuses a file over the cap from its Content-Length, reading nothing", async () => {
  await withDir(async (dir) => {
    const { client } = setup([
      getFile(() =>
        new Response(new Uint8Array(10), {
          headers: { "content-type": "video/mp4", "content-length": String(200 * 1024 * 1024) },
        })
      ),
    ]);
    const error = await client.download(download, { path: join(dir, "x") }).catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.match(error.message, /larger than 100 MiB/);
    assert.deepEqual(await names(dir), []);
  });
});

Deno.test("download() classifies a JSON answer as the service's error", async () => {
  await withDir(async (dir) => {
    const { client } = setup([
      getFile(() =>
        jsonResponse({ code: 234004, msg: "App not in chat." }, 400, { "x-tt-logid": "log-1" })
      ),
      getFile(() =>
        jsonResponse({
          code: 99991679,
          msg: "Unauthorized",
          error: { permission_violations: [{ subject: "im:message:readonly" }] },
        }, 400)
      ),
      getFile(() => jsonResponse({ code: 0, msg: "success", data: {} })),
    ]);
    const notInChat = await client.download(download, { path: join(dir, "a") }).catch((e) => e);
    assert.ok(notInChat instanceof ApiError);
    assert.equal(notInChat.apiCode, 234004);
    assert.equal(notInChat.requestId, "log-1");
    const denied = await client.download(download, { path: join(dir, "b") }).catch((e) => e);
    assert.ok(denied instanceof PermissionError);
    assert.deepEqual(denied.scopes, ["im:message:readonly"]);
    const json = await client.download(download, { path: join(dir, "c") }).catch((e) => e);
    assert.ok(json instanceof ApiError);
    assert.match(json.message, /with JSON, not a file/);
    assert.deepEqual(await names(dir), []);
  });
});

Deno.test("download() never replaces a file unless asked, and leaves the old one whole", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "keep.pdf");
    await Deno.writeTextFile(path, "old");
    const { client } = setup([
      getFile(fileAnswer(new Uint8Array([1, 2, 3]))),
      getFile(fileAnswer(new Uint8Array([1, 2, 3]))),
    ]);
    await assert.rejects(client.download(download, { path }), Deno.errors.AlreadyExists);
    assert.equal(await Deno.readTextFile(path), "old");
    await client.download(download, { path, overwrite: true });
    assert.deepEqual(await Deno.readFile(path), new Uint8Array([1, 2, 3]));
    assert.deepEqual(await names(dir), ["keep.pdf"]);
  });
});

Deno.test("download() cancelled by Ctrl-C midway removes its temporary file", async () => {
  await withDir(async (dir) => {
    const late: { ctx?: TestContext } = {};
    const { client, ctx } = setup([getFile((request) =>
      new Response(
        new ReadableStream({
          pull(controller) {
            // Like a real body, it fails once the request's signal aborts.
            if (request.signal.aborted) {
              controller.error(new DOMException("The signal has been aborted", "AbortError"));
              return;
            }
            controller.enqueue(new Uint8Array(1000));
            // The user presses Ctrl-C once the first bytes are on their way to disk.
            late.ctx!.abort();
          },
        }),
        { headers: { "content-type": "application/pdf", "content-length": "5000" } },
      )
    )]);
    late.ctx = ctx;
    const error = await client.download(download, { path: join(dir, "x.pdf") }).catch((e) => e);
    assert.ok(error instanceof CancelledError, String(error));
    assert.deepEqual(await names(dir), []);
  });
});

Deno.test("a form request uploads its file as multipart, retried when repeatable", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "chart.png");
    const content = new Uint8Array(50_000).map((_, i) => (i * 7) % 256);
    await Deno.writeFile(path, content);
    const seen: Uint8Array[] = [];
    const upload = (status: number) => ({
      method: "POST",
      url: `${BASE}/open-apis/im/v1/images`,
      respond: async (request: Request) => {
        assert.match(request.headers.get("content-type")!, /^multipart\/form-data; boundary=/);
        const form = await request.formData();
        assert.equal(form.get("image_type"), "message");
        seen.push(new Uint8Array(await (form.get("image") as File).arrayBuffer()));
        return status === 200
          ? jsonResponse({ code: 0, msg: "success", data: { image_key: "img_1" } })
          : jsonResponse({ code: 500000, msg: "busy" }, status);
      },
    });
    const { client, stub } = setup([upload(500), upload(200)], { debug: true });
    const request: ApiRequest = {
      method: "POST",
      path: "/open-apis/im/v1/images",
      form: {
        fields: { image_type: "message" },
        file: { field: "image", path, name: "chart.png", contentType: "image/png" },
      },
      repeatable: true,
    };
    assert.deepEqual(await client.request(request), { image_key: "img_1" });
    stub.verify();
    assert.equal(seen.length, 2, "the file was sent again, whole");
    for (const bytes of seen) assert.deepEqual(bytes, content);
  });
});

Deno.test("a form request that is not repeatable is not sent again after a 5xx", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "a.bin");
    await Deno.writeFile(path, new Uint8Array(10));
    const { client, stub } = setup([{
      method: "POST",
      url: `${BASE}/open-apis/drive/v1/files/upload_all`,
      respond: () => jsonResponse({ code: 500000, msg: "busy" }, 500),
    }]);
    const error = await client.request({
      method: "POST",
      path: "/open-apis/drive/v1/files/upload_all",
      form: { fields: {}, file: { field: "file", path, name: "a.bin", contentType: "x/y" } },
    }).catch((e) => e);
    stub.verify();
    assert.ok(error instanceof ApiError);
  });
});

Deno.test("a form whose file grew past its limit is stopped there, not sent whole nor again", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "grown.bin");
    await Deno.writeFile(path, new Uint8Array(200_000));
    let received = 0;
    const { client, stub } = setup([{
      method: "POST",
      url: `${BASE}/open-apis/im/v1/files`,
      respond: async (request: Request) => {
        const reader = request.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received += value.byteLength;
        }
        return jsonResponse({ code: 0, data: { file_key: "file_1" } });
      },
    }]);
    const error = await client.request({
      method: "POST",
      path: "/open-apis/im/v1/files",
      form: {
        fields: { file_type: "stream", file_name: "grown.bin" },
        file: {
          field: "file",
          path,
          name: "grown.bin",
          contentType: "application/octet-stream",
          maxBytes: 100_000,
          flag: "--file",
        },
      },
      repeatable: true,
    }).catch((e) => e);
    stub.verify();
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(error.param, "--file");
    assert.match(error.message, /grew past 100,000 bytes, the most the service takes/);
    assert.ok(received < 100_000 + 70_000, `the service got ${received} bytes`);
  });
});
