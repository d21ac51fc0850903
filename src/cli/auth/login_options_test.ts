import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { loginOptions, parseWait, waitBound } from "./login_options.ts";

Deno.test("parseWait() reads 0 and hours, minutes, seconds; anything else names --wait", () => {
  assert.equal(parseWait("0"), 0);
  assert.equal(parseWait("30s"), 30_000);
  assert.equal(parseWait("2m"), 120_000);
  assert.equal(parseWait("1m30s"), 90_000);
  assert.equal(parseWait("1h"), 3_600_000);
  for (const bad of ["", "30", "soon", "1x", "-5s", "m", "1.5m"]) {
    assert.throws(() => parseWait(bad), (error: unknown) => {
      assert.ok(error instanceof ValidationError, bad);
      assert.equal(error.param, "--wait");
      return true;
    });
  }
});

Deno.test("loginOptions() tells --no-wait from --wait <duration>, which share a name", () => {
  assert.deepEqual(loginOptions({ wait: false }), {
    scopes: [],
    wait: false,
    waitMs: undefined,
    deviceCode: undefined,
    force: false,
  });
  assert.deepEqual(loginOptions({ wait: "5m", "device-code": " dc-1 " }), {
    scopes: [],
    wait: true,
    waitMs: 300_000,
    deviceCode: "dc-1",
    force: false,
  });
});

Deno.test("waitBound(): a person waits until the code expires; a script's --device-code polls once", () => {
  const at = (stdinIsTerminal: boolean, env: Record<string, string> = {}) =>
    createTestContext({ stdinIsTerminal, env });
  const finish = { scopes: [], wait: true, deviceCode: "dc-1", force: false };
  const start = { scopes: [], wait: true, force: false };
  assert.equal(waitBound(at(true), finish), undefined);
  assert.equal(waitBound(at(false), finish), 0);
  assert.equal(waitBound(at(true, { CI: "true" }), finish), 0);
  assert.equal(waitBound(at(false), { ...finish, waitMs: 60_000 }), 60_000);
  assert.equal(waitBound(at(true), { ...finish, waitMs: 0 }), 0);
  // Starting a sign-in keeps today's behaviour (CI without a terminal is refused elsewhere).
  assert.equal(waitBound(at(false), start), undefined);
  assert.equal(waitBound(at(false), { ...start, waitMs: 5_000 }), 5_000);
});
