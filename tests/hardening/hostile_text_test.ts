/**
 * Text a hostile service sends that is neither a control sequence JSON escapes nor small: a
 * 5,000,000-character `msg` is cut in error messages (text and JSON alike), and U+202E (bidi
 * override) and U+009B (8-bit CSI) never reach stderr or stdout raw — not on `--debug` lines,
 * not in JSON output, not in the JSON error envelope — while JSON stays the exact value.
 */

import assert from "node:assert/strict";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

const SNEAKY = "Mallory\u202eevil\u009b31m\u2066x\u2069\u200f\u0085";

function assertNoRaw(text: string, what: string): void {
  const raw = /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/.exec(text);
  assert.equal(raw, null, `${what} holds a raw U+${raw?.[0].charCodeAt(0).toString(16)}`);
}

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.split("\n").findLast((l) => l.startsWith('{"error"'))!).error;
}

Deno.test("a 5,000,000-character msg is cut in text and JSON errors", async () => {
  const huge = "z".repeat(5_000_000);
  const hostile = startHostileServer(() =>
    Response.json({ code: 1234, msg: huge }, { status: 400, headers: { "x-tt-logid": "log-9" } })
  );
  const home = await createHarkEnv({
    HARK_USER_ACCESS_TOKEN: "u-hostile-text-token-0001",
    HARK_BASE_URL: hostile.url,
  });
  try {
    const text = await home.run(["api", "GET", "/open-apis/anything", "--format", "table"]);
    assert.equal(text.code, 1, text.stderr.slice(0, 300));
    assert.ok(text.stderr.length < 2_000, `${text.stderr.length} characters on stderr`);
    assert.match(text.stderr, /z… \(4999000 more characters\) \(log id log-9\)/);

    const json = await home.run(["api", "GET", "/open-apis/anything", "--json"]);
    assert.equal(json.code, 1);
    assert.ok(json.stderr.length < 2_000, `${json.stderr.length} characters on stderr`);
    assert.match(envelope(json).message, /^The service answered with code 1234: z{1000}… \(/);
  } finally {
    await home.cleanup();
    await hostile.close();
  }
});

Deno.test("bidi and C1 characters from the service are escaped on --debug lines and in JSON", async () => {
  const hostile = startHostileServer((request) =>
    new URL(request.url).pathname === "/open-apis/authen/v1/user_info"
      ? larkOk({ open_id: "ou_1", name: SNEAKY })
      : Response.json({ code: 1234, msg: `Denied ${SNEAKY}` }, { status: 400 })
  );
  const home = await createHarkEnv({
    HARK_USER_ACCESS_TOKEN: "u-hostile-text-token-0002",
    HARK_BASE_URL: hostile.url,
  });
  try {
    const data = await home.run(["api", "GET", "/open-apis/authen/v1/user_info", "--debug"]);
    assert.equal(data.code, 0, data.stderr);
    assertNoRaw(data.stdout, "JSON output");
    assertNoRaw(data.stderr, "--debug lines");
    assert.match(data.stdout, /Mallory\\u202eevil\\u009b31m/);
    assert.match(data.stderr, /\[debug\] ← 200 .*Mallory\\u202eevil\\x9b31m/);
    // The same value for a machine.
    assert.equal(JSON.parse(data.stdout).name, SNEAKY);

    const denied = await home.run(["api", "GET", "/open-apis/anything", "--json", "--debug"]);
    assert.equal(denied.code, 1);
    assertNoRaw(denied.stderr, "JSON error envelope and --debug lines");
    assert.equal(envelope(denied).message, `The service answered with code 1234: Denied ${SNEAKY}`);
  } finally {
    await home.cleanup();
    await hostile.close();
  }
});
