import assert from "node:assert/strict";
import { baseUrl, DEFAULT_BASE_URL } from "./config.ts";

Deno.test("baseUrl() defaults to open.larksuite.com and drops trailing slashes", () => {
  assert.equal(baseUrl({}), DEFAULT_BASE_URL);
  assert.equal(DEFAULT_BASE_URL, "https://open.larksuite.com");
  assert.equal(baseUrl({ base_url: "https://open.feishu.cn//" }), "https://open.feishu.cn");
});
