import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import type { Config } from "./config.ts";
import { isLoopback, resolveServiceAddress } from "./service_address.ts";

function env(vars: Record<string, string> = {}) {
  return { get: (name: string) => vars[name] };
}

function app(entry: Record<string, unknown>): Config {
  return { apps: { default: entry } };
}

function refused(fn: () => unknown, param: string): ValidationError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(error.param, param);
    return error;
  }
  assert.fail("expected a ValidationError");
}

Deno.test("resolveServiceAddress() defaults to Lark and derives the accounts host", () => {
  const address = resolveServiceAddress(env(), {}, "default");
  assert.equal(address.baseUrl, "https://open.larksuite.com");
  assert.equal(address.origin, "https://open.larksuite.com");
  assert.equal(address.accountsUrl, "https://accounts.larksuite.com");
  assert.equal(address.source, "default");
  assert.equal(address.insecure, false);
});

Deno.test("resolveServiceAddress() reads base_url and accounts_url, trailing slashes dropped", () => {
  const feishu = resolveServiceAddress(
    env(),
    app({ base_url: "https://open.feishu.cn/" }),
    "default",
  );
  assert.equal(feishu.baseUrl, "https://open.feishu.cn");
  assert.equal(feishu.accountsUrl, "https://accounts.feishu.cn");
  assert.equal(feishu.source, "apps.default.base_url");
  const sso = resolveServiceAddress(
    env(),
    app({ base_url: "https://open.feishu.cn", accounts_url: "https://sso.example.com/" }),
    "default",
  );
  assert.equal(sso.accountsUrl, "https://sso.example.com");
  const local = resolveServiceAddress(env(), app({ base_url: "http://127.0.0.1:8080" }), "default");
  assert.equal(local.accountsUrl, "http://127.0.0.1:8080");
});

Deno.test("resolveServiceAddress() lets HARK_BASE_URL win over the config, accounts included", () => {
  const address = resolveServiceAddress(
    env({ HARK_BASE_URL: "https://open.feishu.cn" }),
    app({ base_url: "https://open.larksuite.com", accounts_url: "https://sso.example.com" }),
    "default",
  );
  assert.equal(address.baseUrl, "https://open.feishu.cn");
  assert.equal(address.accountsUrl, "https://accounts.feishu.cn");
  assert.equal(address.source, "HARK_BASE_URL");
});

Deno.test("resolveServiceAddress() accepts plain HTTP to this machine only", () => {
  for (
    const url of ["http://127.0.0.1:9", "http://localhost:9", "http://[::1]:9", "http://127.9.9.9"]
  ) {
    const address = resolveServiceAddress(env(), app({ base_url: url }), "default");
    assert.equal(address.insecure, false, url);
  }
  for (const url of ["http://open.example.com", "http://10.0.0.1", "http://127.0.0.1.evil.test"]) {
    const error = refused(
      () => resolveServiceAddress(env(), app({ base_url: url }), "default"),
      "apps.default.base_url",
    );
    assert.match(error.message, /Refusing plain HTTP/);
    assert.match(error.recovery.suggestion, /--allow-insecure-http/);
  }
  refused(
    () => resolveServiceAddress(env({ HARK_BASE_URL: "http://ci.example.com" }), {}, "default"),
    "HARK_BASE_URL",
  );
  refused(
    () =>
      resolveServiceAddress(
        env(),
        app({ base_url: "https://open.feishu.cn", accounts_url: "http://sso.example.com" }),
        "default",
      ),
    "apps.default.accounts_url",
  );
});

Deno.test("resolveServiceAddress() allows plain HTTP elsewhere when told to, marked insecure", () => {
  const byFlag = resolveServiceAddress(
    env(),
    app({ base_url: "http://open.example.com" }),
    "default",
    { allowInsecureHttp: true },
  );
  assert.equal(byFlag.insecure, true);
  const byConfig = resolveServiceAddress(
    env(),
    app({ base_url: "http://open.example.com", allow_insecure_http: true }),
    "default",
  );
  assert.equal(byConfig.insecure, true);
});

Deno.test("resolveServiceAddress() names the key of a base_url that is not a URL", () => {
  for (const bad of [42, "not a url", "ftp://x", "https://x/?q=1", "https://u:p@x"]) {
    const error = refused(
      () => resolveServiceAddress(env(), { apps: { work: { base_url: bad as string } } }, "work"),
      "apps.work.base_url",
    );
    assert.match(error.recovery.command, /^hark config set apps\.work\.base_url /);
  }
});

Deno.test("isLoopback() knows localhost, 127/8 and ::1 and nothing else", () => {
  assert.equal(isLoopback(new URL("http://LOCALHOST")), true);
  assert.equal(isLoopback(new URL("http://a.localhost")), true);
  assert.equal(isLoopback(new URL("http://0.0.0.0")), false);
  assert.equal(isLoopback(new URL("http://[::2]")), false);
});

Deno.test("resolveServiceAddress() refuses a base URL with a path, suggesting its origin", () => {
  const fromEnv = refused(
    () =>
      resolveServiceAddress(env({ HARK_BASE_URL: "https://open.feishu.cn/open-apis" }), {}, "x"),
    "HARK_BASE_URL",
  );
  assert.match(fromEnv.message, /^Invalid HARK_BASE_URL "https:\/\/open\.feishu\.cn\/open-apis": /);
  assert.match(fromEnv.recovery.suggestion, /^Use https:\/\/open\.feishu\.cn; /);
  // A hand-edited config, and a query: the same, with the command that fixes it.
  for (const bad of ["http://127.0.0.1:9/open-apis", "http://127.0.0.1:9/?x=1"]) {
    const edited = refused(
      () => resolveServiceAddress(env(), app({ base_url: bad }), "default"),
      "apps.default.base_url",
    );
    assert.equal(
      edited.recovery.command,
      "hark config set apps.default.base_url http://127.0.0.1:9",
    );
  }
  // A trailing slash is fine.
  const slash = resolveServiceAddress(env({ HARK_BASE_URL: "https://open.feishu.cn/" }), {}, "x");
  assert.equal(slash.baseUrl, "https://open.feishu.cn");
});
