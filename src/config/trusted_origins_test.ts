import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import {
  accountsOriginOf,
  isLarkOrigin,
  parseTrustedOrigin,
  trustedOrigins,
} from "./trusted_origins.ts";

function env(vars: Record<string, string>) {
  return { get: (name: string) => vars[name] };
}

Deno.test("trustedOrigins() reads HARK_TRUSTED_ORIGINS and HARK_BASE_URL, with their sign-in hosts", () => {
  assert.deepEqual([...trustedOrigins(env({}))], []);
  assert.deepEqual(
    [
      ...trustedOrigins(env({
        HARK_TRUSTED_ORIGINS: " https://open.corp.example/,http://127.0.0.1:8123  ",
        HARK_BASE_URL: "https://lark.internal:8443",
      })),
    ].sort(),
    [
      "http://127.0.0.1:8123",
      "https://accounts.corp.example",
      "https://lark.internal:8443",
      "https://open.corp.example",
    ],
  );
  // A malformed HARK_BASE_URL trusts nothing (the service address reports it).
  assert.deepEqual([...trustedOrigins(env({ HARK_BASE_URL: "not a url" }))], []);
});

Deno.test("trustedOrigins() refuses an entry that is not an http(s) URL, naming the variable", () => {
  for (const entry of ["open.corp.example", "ftp://x.example", "https://user:pw@x.example"]) {
    assert.throws(
      () => trustedOrigins(env({ HARK_TRUSTED_ORIGINS: entry })),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "HARK_TRUSTED_ORIGINS" &&
        error.message.startsWith(`Invalid HARK_TRUSTED_ORIGINS entry "${entry}"`),
      entry,
    );
  }
  assert.equal(
    parseTrustedOrigin("HTTPS://Open.Corp.Example:443/x", "X"),
    "https://open.corp.example",
  );
});

Deno.test("isLarkOrigin() knows Lark's and Feishu's services, and nothing that looks like them", () => {
  for (const origin of ["https://open.feishu.cn", "https://accounts.larksuite.com"]) {
    assert.equal(isLarkOrigin(origin), true, origin);
  }
  for (
    const origin of [
      "http://open.feishu.cn",
      "https://open.feishu.cn:8443",
      "https://open.feishu.cn.evil.test",
      "https://evil-open.larksuite.com",
      "http://127.0.0.1:8123",
    ]
  ) {
    assert.equal(isLarkOrigin(origin), false, origin);
  }
  assert.equal(accountsOriginOf("https://open.larksuite.com"), "https://accounts.larksuite.com");
  assert.equal(accountsOriginOf("http://127.0.0.1:8123"), "http://127.0.0.1:8123");
});
