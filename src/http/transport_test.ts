import assert from "node:assert/strict";
import { CancelledError } from "../errors/mod.ts";
import { createTestContext, FetchStub, jsonResponse } from "../../tests/support/test_context.ts";
import { send, TransportFailure, type TransportRequest } from "./transport.ts";

const BASE = "https://open.example.test";

function request(overrides: Partial<TransportRequest> = {}): TransportRequest {
  return {
    method: "GET",
    url: new URL(`${BASE}/open-apis/x`),
    headers: { Authorization: "Bearer u-the-secret-access-token" },
    redirects: "same-origin",
    timeoutMs: 30_000,
    ...overrides,
  };
}

const redirect = (status: number, location: string) => () =>
  new Response(null, { status, headers: { location } });

async function failure(promise: Promise<unknown>): Promise<TransportFailure> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof TransportFailure, String(error));
  return error;
}

Deno.test("send() follows a redirect within the origin that keeps the method", async () => {
  const stub = new FetchStub([
    { method: "POST", url: `${BASE}/open-apis/x`, respond: redirect(307, "/open-apis/y") },
    {
      method: "POST",
      url: `${BASE}/open-apis/y`,
      respond: async (r) => jsonResponse({ got: await r.text() }),
    },
  ]);
  const ctx = createTestContext({ fetch: stub.fetch });
  const answer = await send(ctx, request({ method: "POST", body: '{"a":1}' }));
  assert.equal(JSON.parse(answer.text).got, '{"a":1}');
  stub.verify();
});

Deno.test("send() never follows a redirect to another origin, and names the target", async () => {
  for (const target of ["https://evil.example/steal", "http://open.example.test/x"]) {
    const stub = new FetchStub([{
      method: "GET",
      url: `${BASE}/open-apis/x`,
      respond: redirect(302, target),
    }]);
    const error = await failure(send(createTestContext({ fetch: stub.fetch }), request()));
    assert.equal(error.reason, "redirect");
    assert.equal(error.status, 302);
    assert.equal(error.location, target);
    stub.verify();
  }
});

Deno.test("send() does not turn a POST into a GET on a 302, even within the origin", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/x`,
    respond: redirect(302, "/open-apis/y"),
  }]);
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ method: "POST", body: "{}" })),
  );
  assert.equal(error.reason, "redirect");
  stub.verify();
});

Deno.test("send() with redirects: none follows nothing, not even within the origin", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/x`,
    respond: redirect(307, "/open-apis/y"),
  }]);
  const ctx = createTestContext({ fetch: stub.fetch });
  const error = await failure(send(ctx, request({ method: "POST", redirects: "none" })));
  assert.equal(error.reason, "redirect");
  stub.verify();
});

Deno.test("send() stops after five redirects", async () => {
  const hops = Array.from({ length: 6 }, (_, i) => ({
    method: "GET",
    url: i === 0 ? `${BASE}/open-apis/x` : `${BASE}/hop${i}`,
    respond: redirect(308, `/hop${i + 1}`),
  }));
  const stub = new FetchStub(hops);
  const error = await failure(send(createTestContext({ fetch: stub.fetch }), request()));
  assert.equal(error.reason, "redirect");
  stub.verify();
});

Deno.test("send() stops reading an endless body at the cap", async () => {
  let served = 0;
  const endless = () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          served += 65_536;
          controller.enqueue(new Uint8Array(65_536));
        },
      }),
    );
  const stub = new FetchStub([{ method: "GET", url: `${BASE}/open-apis/x`, respond: endless }]);
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ maxBodyBytes: 1_000_000 })),
  );
  assert.equal(error.reason, "too_large");
  assert.ok(served < 1_200_000, `read ${served} bytes`);
});

Deno.test("send() refuses a declared Content-Length over the cap without reading", async () => {
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/x`,
    respond: () => new Response("x".repeat(2_000), { headers: { "content-length": "2000" } }),
  }]);
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ maxBodyBytes: 1_000 })),
  );
  assert.equal(error.reason, "too_large");
});

Deno.test("send() counts a compressed body as it arrives, whatever length is declared", async () => {
  // fetch inflates it: 10 declared bytes may become any number.
  let served = 0;
  const inflating = () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          served += 65_536;
          controller.enqueue(new Uint8Array(65_536));
        },
      }),
      { headers: { "content-length": "10", "content-encoding": "gzip" } },
    );
  const stub = new FetchStub([{ method: "GET", url: `${BASE}/open-apis/x`, respond: inflating }]);
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ maxBodyBytes: 1_000_000 })),
  );
  assert.equal(error.reason, "too_large");
  assert.ok(served < 1_200_000, `read ${served} bytes`);
});

Deno.test("send() counts again a body read at once for its declared length", async () => {
  const longer = () => new Response("x".repeat(2_000), { headers: { "content-length": "10" } });
  const stub = new FetchStub([{ method: "GET", url: `${BASE}/open-apis/x`, respond: longer }]);
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ maxBodyBytes: 1_000 })),
  );
  assert.equal(error.reason, "too_large");
});

Deno.test("send() over Deno's fetch gets no more than a server's declared length", async () => {
  // A server that declares 10 bytes and sends 200,000: the HTTP client ends the body at 10.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(65_536));
    const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n";
    await conn.write(new TextEncoder().encode(head + "[1,2,3,4]" + " ".repeat(200_000)))
      .catch(() => {});
    conn.close();
  })();
  try {
    const { port } = listener.addr as Deno.NetAddr;
    const client = Deno.createHttpClient({});
    const ctx = createTestContext({ fetch: (input, init) => fetch(input, { ...init, client }) });
    const answer = await send(
      ctx,
      request({ url: new URL(`http://127.0.0.1:${port}/open-apis/x`), maxBodyBytes: 1_000 }),
    );
    assert.equal(answer.text, "[1,2,3,4] ");
    client.close();
  } finally {
    await served;
    listener.close();
  }
});

Deno.test("send() over Deno's fetch counts a body whose transfer coding overrides a small declared length", async () => {
  // Found by review: with Content-Length: 10 and Transfer-Encoding: identity, the HTTP client
  // reads to the end of the connection; read at once, the whole body was held before the cap.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let written = 0;
  const served = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(65_536));
    const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n" +
      "transfer-encoding: identity\r\nconnection: close\r\n\r\n";
    await conn.write(new TextEncoder().encode(head));
    const chunk = new Uint8Array(1 << 20).fill(0x20);
    try {
      while (written < 64 << 20) written += await conn.write(chunk);
    } catch {
      // hark stopped reading and closed the connection.
    }
    conn.close();
  })();
  try {
    const { port } = listener.addr as Deno.NetAddr;
    const client = Deno.createHttpClient({});
    const ctx = createTestContext({ fetch: (input, init) => fetch(input, { ...init, client }) });
    const error = await failure(
      send(
        ctx,
        request({ url: new URL(`http://127.0.0.1:${port}/open-apis/x`), maxBodyBytes: 1 << 20 }),
      ),
    );
    assert.equal(error.reason, "too_large");
    client.close();
  } finally {
    await served;
    listener.close();
  }
  assert.ok(written < 8 << 20, `hark took ${written} bytes against a 1 MiB cap`);
});

Deno.test("send() sorts fetch failures: never sent, maybe sent, timed out, cancelled", async () => {
  const failing = (message: string) =>
    new FetchStub([{
      method: "GET",
      url: `${BASE}/open-apis/x`,
      respond: () => Promise.reject(new TypeError(message)),
    }]);
  const dns = await failure(
    send(
      createTestContext({ fetch: failing("dns error: failed to lookup address").fetch }),
      request(),
    ),
  );
  assert.equal(dns.reason, "dns");
  assert.ok(dns.neverSent);
  const refused = await failure(
    send(
      createTestContext({
        fetch: failing("client error (Connect): tcp connect error: Connection refused").fetch,
      }),
      request(),
    ),
  );
  assert.equal(refused.reason, "connect");
  const dropped = await failure(
    send(
      createTestContext({ fetch: failing("connection closed before message completed").fetch }),
      request(),
    ),
  );
  assert.equal(dropped.reason, "sent");
  assert.equal(dropped.neverSent, false);

  const ctx = createTestContext({
    fetch: (_input, init) =>
      new Promise((_, reject) => {
        init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
        ctx.advance(30_000);
      }),
  });
  const timeout = await failure(send(ctx, request()));
  assert.equal(timeout.reason, "timeout");
  assert.equal(timeout.timeoutMs, 30_000);

  const cancelled = createTestContext({
    fetch: (_input, init) =>
      new Promise((_, reject) => {
        init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
        cancelled.abort();
      }),
  });
  const error = await send(cancelled, request()).catch((e) => e);
  assert.ok(error instanceof CancelledError);
  assert.ok(error.cause !== undefined, "the abort is kept as the cause");
});

Deno.test("send() logs masked lines: bearer, form secrets, JSON secrets, answer", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/authen/v2/oauth/token`,
    respond: () =>
      jsonResponse(
        { access_token: "u-fresh-access-token-123", refresh_token: "r-refresh-token-456" },
        200,
        { "x-tt-logid": "log-9" },
      ),
  }]);
  const ctx = createTestContext({ fetch: stub.fetch, debug: true });
  await send(
    ctx,
    request({
      method: "POST",
      url: new URL(`${BASE}/open-apis/authen/v2/oauth/token`),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body:
        "grant_type=refresh_token&refresh_token=r-old-refresh-token-789&client_secret=the-app-secret-1",
    }),
  );
  const log = ctx.stderr.text();
  const lines = log.trimEnd().split("\n");
  for (
    const secret of [
      "r-old-refresh-token-789",
      "the-app-secret-1",
      "u-fresh-access-token-123",
      "r-refresh-token-456",
    ]
  ) {
    assert.ok(!log.includes(secret), `the log shows ${secret}`);
  }
  assert.match(lines[0], /^\[debug\] → POST .*\/oauth\/token .*"grant_type":"refresh_token"/);
  assert.match(lines[1], /^\[debug\] ← 200 POST .* log_id=log-9 /);
});

Deno.test("send() builds no debug line while debug lines are off", async () => {
  // Masking the URL and the answer's JSON for a line nobody reads would parse every answer twice.
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/x`,
    respond: () => jsonResponse({ code: 0, data: { access_token: "u-secret-in-answer-1" } }),
  }]);
  const base = createTestContext({ fetch: stub.fetch });
  const lines: unknown[] = [];
  const ctx = Object.create(base, { debug: { value: (line: unknown) => lines.push(line) } });
  await send(ctx, request());
  assert.equal(lines.length, 2);
  for (const line of lines) assert.equal(typeof line, "function", `built eagerly: ${line}`);
  // Asked for, they are the masked lines.
  const texts = lines.map((line) => typeof line === "function" ? String(line()) : "");
  assert.match(texts[0], /^→ GET \S+\/open-apis\/x \(Authorization: Bearer u-th…\)$/);
  assert.match(texts[1], /^← 200 GET .* code=0 .*"access_token":"u-se…"/);
});

Deno.test("send() leaves a body unread when streamAnswer asks, and explains its failures", async () => {
  let sent = 0;
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/x`,
    respond: () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            if (sent++ === 0) controller.enqueue(new Uint8Array([1, 2]));
            else controller.error(new TypeError("connection reset"));
          },
        }),
        { headers: { "content-type": "image/png" } },
      ),
  }]);
  const ctx = createTestContext({ fetch: stub.fetch });
  const answer = await send(ctx, request({ streamAnswer: (status) => status === 200 }));
  assert.equal(answer.text, "");
  const reader = answer.body!.getReader();
  assert.deepEqual((await reader.read()).value, new Uint8Array([1, 2]));
  const cause = await reader.read().then(() => undefined, (e) => e);
  const error = answer.bodyFailure!(cause);
  assert.ok(error instanceof TransportFailure);
  assert.equal(error.reason, "broken");
  assert.equal(error.cause, cause);
  ctx.abort();
  assert.ok(answer.bodyFailure!(cause) instanceof CancelledError, "Ctrl-C is a cancellation");
});

Deno.test("send() does not follow a redirect with a stream body, which cannot be sent twice", async () => {
  const stub = new FetchStub([{
    method: "POST",
    url: `${BASE}/open-apis/x`,
    respond: redirect(307, "/open-apis/y"),
  }]);
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.close(),
  });
  const error = await failure(
    send(createTestContext({ fetch: stub.fetch }), request({ method: "POST", body })),
  );
  assert.equal(error.reason, "redirect");
});

Deno.test("send() with --debug describes an answer nested 100,000 deep instead of walking it", async () => {
  const deep = `{"code":0,"data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  const stub = new FetchStub([{
    method: "GET",
    url: `${BASE}/open-apis/x`,
    respond: () => new Response(deep, { headers: { "content-type": "application/json" } }),
  }]);
  const ctx = createTestContext({ fetch: stub.fetch, debug: true });
  const answer = await send(ctx, request());
  assert.equal(answer.text, deep);
  assert.match(ctx.stderr.text(), /\(it nests deeper than 512 levels, 200018 characters\)/);
});
