import assert from "node:assert/strict";
import { previewRequest, requestHeaders, requestUrl } from "./request.ts";
import { VERSION } from "../version.ts";
import { ValidationError } from "../errors/mod.ts";

Deno.test("previewRequest() shows the full URL, query and headers with Authorization masked", () => {
  const preview = previewRequest("https://open.larksuite.com/", {
    method: "GET",
    path: "/open-apis/search/v1/user",
    query: { query: "ann lee", page_size: 20, page_token: undefined, all: true },
  });
  assert.deepEqual(preview, {
    method: "GET",
    url: "https://open.larksuite.com/open-apis/search/v1/user?query=ann+lee&page_size=20&all=true",
    query: { query: "ann lee", page_size: "20", all: "true" },
    headers: {
      "Authorization": "Bearer ****",
      "User-Agent": `hark/${VERSION}`,
      "Accept": "application/json",
    },
  });
});

Deno.test("previewRequest() includes the body with secret fields masked, and a content type", () => {
  const preview = previewRequest("http://127.0.0.1:9", {
    method: "POST",
    path: "/open-apis/auth/v3/tenant_access_token/internal",
    body: { app_id: "cli_1", app_secret: "abcdefghijklmnop", nested: [{ access_token: "x" }] },
  });
  assert.equal(preview.headers["Content-Type"], "application/json; charset=utf-8");
  assert.deepEqual(preview.body, {
    app_id: "cli_1",
    app_secret: "****",
    nested: [{ access_token: "****" }],
  });
});

Deno.test("requestUrl() keeps a query already in the path and adds the rest", () => {
  const url = requestUrl("https://x.test", { path: "open-apis/a?b=1", query: { c: 2 } });
  assert.equal(url.toString(), "https://x.test/open-apis/a?b=1&c=2");
});

Deno.test("requestHeaders() sends the bearer token and a content type only with a body", () => {
  assert.equal(requestHeaders("tok", false).Authorization, "Bearer tok");
  assert.equal(requestHeaders("tok", false)["Content-Type"], undefined);
  assert.equal(requestHeaders("tok", true)["Content-Type"], "application/json; charset=utf-8");
});

Deno.test("requestUrl() repeats the key of a list", () => {
  const url = requestUrl("https://x.test", {
    path: "/open-apis/im/v1/messages/mget",
    query: { message_ids: ["om_1", "om_2"], user_id_type: "open_id" },
  });
  assert.equal(url.search, "?message_ids=om_1&message_ids=om_2&user_id_type=open_id");
});

Deno.test("previewRequest() shows an upload's fields and its file as @path, never its bytes", () => {
  const preview = previewRequest("https://x.test", {
    method: "POST",
    path: "/open-apis/im/v1/files",
    form: {
      fields: { file_type: "pdf", file_name: "report.pdf" },
      file: { field: "file", path: "./report.pdf", name: "report.pdf", contentType: "x/y" },
    },
  });
  assert.equal(preview.headers["Content-Type"], "multipart/form-data");
  assert.deepEqual(preview.body, {
    file_type: "pdf",
    file_name: "report.pdf",
    file: "@./report.pdf",
  });
});

Deno.test("requestUrl() refuses . and .. segments, plain or percent-encoded, naming the segment", () => {
  const base = "https://open.larksuite.com";
  for (
    const [path, segment] of [
      ["/open-apis/calendar/v4/calendars/X/events/..", ".."],
      ["/open-apis/calendar/v4/calendars/primary/events/.", "."],
      ["/open-apis/contact/v3/users/%2E", "%2E"],
      ["/open-apis/calendar/v4/calendars/%2e%2e/events", "%2e%2e"],
      ["/open-apis/im/v1/messages/om_1/resources/.%2E", ".%2E"],
    ]
  ) {
    assert.throws(
      () => requestUrl(base, { path }),
      (error: unknown) =>
        error instanceof ValidationError && error.message.includes(`"${segment}"`),
      path,
    );
    assert.throws(() => previewRequest(base, { method: "DELETE", path }), ValidationError);
  }
  // Dots inside a segment are ordinary characters.
  assert.equal(
    requestUrl(base, { path: "/open-apis/x/a.b/..c/%2e%2e%2e" }).pathname,
    "/open-apis/x/a.b/..c/%2e%2e%2e",
  );
});
