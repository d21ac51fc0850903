import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { CONFIG_KEYS, findKeySpec, SECRET_FIELDS } from "./config_keys.ts";

function parse(key: string, value: string): unknown {
  return findKeySpec(key).parse(value, key);
}

function rejects(key: string, value: string, pattern: RegExp = /./): void {
  assert.throws(() => parse(key, value), (error: unknown) => {
    assert.ok(error instanceof ValidationError, `${key}=${value}`);
    assert.equal(error.param, key);
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("preferences.output_format accepts table, json, ndjson, csv only", () => {
  for (const value of ["table", "json", "ndjson", "csv"]) {
    assert.equal(parse("preferences.output_format", value), value);
  }
  rejects(
    "preferences.output_format",
    "xml",
    /^Invalid value "xml" for "preferences\.output_format": expected one of table, json, ndjson, csv$/,
  );
  rejects("preferences.output_format", "JSON");
});

Deno.test("preferences.color parses booleans", () => {
  for (const value of ["true", "on", "yes", "1", "TRUE"]) {
    assert.equal(parse("preferences.color", value), true, value);
  }
  for (const value of ["false", "off", "no", "0", "False"]) {
    assert.equal(parse("preferences.color", value), false, value);
  }
  rejects("preferences.color", "maybe", /true or false/);
});

Deno.test("apps.<profile>.base_url accepts http(s) URLs without query or fragment", () => {
  assert.equal(parse("apps.default.base_url", "https://open.feishu.cn/"), "https://open.feishu.cn");
  assert.equal(parse("apps.work.base_url", "http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  for (const bad of ["open.feishu.cn", "ftp://x.example"]) {
    rejects("apps.default.base_url", bad, /http\(s\) URL/);
  }
  for (const bad of ["https://x.example/?a=1", "https://x#y"]) {
    rejects("apps.default.base_url", bad, /origin/);
    rejects("apps.default.accounts_url", bad, /http\(s\) URL/);
  }
  assert.equal(
    parse("apps.default.accounts_url", "https://accounts.feishu.cn"),
    "https://accounts.feishu.cn",
  );
  rejects("apps.default.accounts_url", "nope");
});

Deno.test("apps.<profile>.base_url is an origin: a path, query or fragment is refused", () => {
  for (
    const [bad, origin] of [
      ["http://host/open-apis", "http://host"],
      ["https://open.feishu.cn/open-apis/", "https://open.feishu.cn"],
      ["http://127.0.0.1:8080/x", "http://127.0.0.1:8080"],
      ["https://open.feishu.cn/?a=1", "https://open.feishu.cn"],
      ["https://open.feishu.cn#top", "https://open.feishu.cn"],
      ["https://open.feishu.cn?", "https://open.feishu.cn"],
      ["https://open.feishu.cn/#", "https://open.feishu.cn"],
    ]
  ) {
    assert.throws(() => parse("apps.work.base_url", bad), (error: unknown) => {
      assert.ok(error instanceof ValidationError, bad);
      assert.equal(error.param, "apps.work.base_url");
      assert.equal(
        error.message,
        `Invalid apps.work.base_url ${JSON.stringify(bad)}: expected the service's origin ` +
          "(scheme, host and port) without a path, query or fragment",
      );
      assert.match(error.recovery.suggestion, new RegExp(`^Use ${RegExp.escape(origin)}; `));
      assert.equal(error.recovery.command, `hark config set apps.work.base_url ${origin}`);
      return true;
    });
  }
  assert.equal(
    parse("apps.default.base_url", "https://open.feishu.cn//"),
    "https://open.feishu.cn",
  );
});

Deno.test("apps.<profile>.app_secret takes references only, refusing plaintext", () => {
  assert.equal(
    parse("apps.x.app_secret", "@keychain:hark/x/app_secret"),
    "@keychain:hark/x/app_secret",
  );
  assert.equal(parse("apps.x.app_secret", "@env:X_SECRET"), "@env:X_SECRET");
  for (const bad of ["plaintext", "@plain:plaintext"]) {
    assert.throws(() => parse("apps.x.app_secret", bad), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /^Refusing to write a plaintext secret to "apps\.x\.app_secret"/);
      assert.ok(!error.message.includes('plaintext"'), "the value is not echoed");
      assert.equal(error.recovery.command, "hark config init --force --profile x");
      assert.match(error.recovery.suggestion, /--app-secret-stdin/);
      return true;
    });
  }
  assert.equal(findKeySpec("apps.x.app_secret").secret, true);
});

Deno.test("app_id, device_authorization_path and credential_command are checked", () => {
  assert.equal(parse("apps.default.app_id", "cli_a1b2c3"), "cli_a1b2c3");
  rejects("apps.default.app_id", "has space");
  rejects("apps.default.app_id", "");
  assert.equal(
    parse("apps.default.device_authorization_path", "/oauth/v1/device_authorization"),
    "/oauth/v1/device_authorization",
  );
  rejects("apps.default.device_authorization_path", "oauth/x", /starting with \//);
  assert.deepEqual(
    parse("apps.default.credential_command", '["vault-token","hark"]'),
    ["vault-token", "hark"],
  );
  for (const bad of ["[]", '[""]', "[1]", '{"a":1}']) {
    rejects("apps.default.credential_command", bad, /JSON array/);
  }
  rejects(
    "apps.default.credential_command",
    "vault-token",
    /^Invalid JSON in the value of "apps\.default\.credential_command" at line 1, column 1: /,
  );
});

Deno.test("credential_command errors never quote the value, which may hold a token", () => {
  for (
    const bad of [
      '["vault", "--token=TOPSECRET"',
      '["vault", "--token=TOPSECRET"] x',
      '[1, "TOPSECRET"]',
    ]
  ) {
    assert.throws(() => parse("apps.default.credential_command", bad), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.ok(
        !`${error.message} ${error.recovery.suggestion}`.includes("TOPSECRET"),
        error.message,
      );
      assert.equal(error.cause, undefined);
      return true;
    });
  }
});

Deno.test("active_profile takes a valid profile name", () => {
  assert.equal(parse("active_profile", "work"), "work");
  rejects("active_profile", "no/slash");
});

Deno.test("findKeySpec() rejects an unknown key listing the settable ones", () => {
  assert.throws(() => findKeySpec("preferences.colour"), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 2);
    assert.equal(error.message, 'Unknown config key "preferences.colour"');
    assert.equal(error.param, "preferences.colour");
    for (const spec of CONFIG_KEYS) assert.ok(error.recovery.suggestion.includes(spec.key));
    return true;
  });
  assert.throws(() => findKeySpec("apps.default"), ValidationError);
  assert.throws(() => findKeySpec("apps.default.base_url.x"), ValidationError);
});

Deno.test("findKeySpec() says users.* is managed by auth login", () => {
  assert.throws(
    () => findKeySpec("users.default.access_token"),
    /users\.\* is managed by hark auth login/,
  );
});

Deno.test("findKeySpec() checks the profile name inside the key", () => {
  assert.throws(() => findKeySpec("apps.a b.base_url"), /Invalid profile name "a b"/);
});

Deno.test("a long bad value is cut in the message", () => {
  const long = "x".repeat(200);
  assert.throws(() => parse("preferences.output_format", long), (error: unknown) => {
    assert.ok(error instanceof Error);
    assert.ok(!error.message.includes("x".repeat(81)), error.message);
    assert.match(error.message, /…/);
    return true;
  });
});

Deno.test("SECRET_FIELDS lists the secret reference fields", () => {
  assert.deepEqual([...SECRET_FIELDS].sort(), ["access_token", "app_secret"]);
});
