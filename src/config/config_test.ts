import assert from "node:assert/strict";
import { accountsUrl, baseUrl, DEFAULT_BASE_URL } from "./config.ts";

Deno.test("baseUrl() defaults to open.larksuite.com and drops trailing slashes", () => {
  assert.equal(baseUrl({}), DEFAULT_BASE_URL);
  assert.equal(DEFAULT_BASE_URL, "https://open.larksuite.com");
  assert.equal(baseUrl({ base_url: "https://open.feishu.cn//" }), "https://open.feishu.cn");
});

Deno.test("accountsUrl() turns open. into accounts.", () => {
  assert.equal(accountsUrl({}), "https://accounts.larksuite.com");
  assert.equal(accountsUrl({ base_url: "https://open.feishu.cn/" }), "https://accounts.feishu.cn");
});

Deno.test("accountsUrl() prefers accounts_url, else uses base_url as it is", () => {
  assert.equal(
    accountsUrl({ base_url: "https://open.feishu.cn", accounts_url: "https://sso.example.com/" }),
    "https://sso.example.com",
  );
  assert.equal(accountsUrl({ base_url: "http://127.0.0.1:8080" }), "http://127.0.0.1:8080");
});
