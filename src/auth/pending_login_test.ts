import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { pendingLoginPath, savePendingLogin, takePendingLogin } from "./pending_login.ts";

const PATH = pendingLoginPath("default");

Deno.test("takePendingLogin() gives back what savePendingLogin() kept, for the same code only", async () => {
  const ctx = createTestContext({ now: 1_000 });
  await savePendingLogin(ctx, PATH, {
    device_code: "dc-1",
    interval: 10,
    expires_in: 600,
    scopes: ["calendar:calendar"],
  });
  const pending = await takePendingLogin(ctx, PATH, "dc-1");
  assert.equal(pending?.interval, 10);
  assert.equal(pending?.expires_at, 601_000);
  assert.deepEqual(pending?.scopes, ["calendar:calendar"]);
  assert.equal(await takePendingLogin(ctx, PATH, "dc-2"), undefined);
});

Deno.test("takePendingLogin() reads a damaged entry as none, and mistyped fields as absent", async () => {
  const ctx = createTestContext();
  await savePendingLogin(ctx, PATH, { device_code: "dc-1", scopes: [] });
  const saved = JSON.parse(await ctx.keychain.get(PATH) ?? "{}");
  for (const text of ["not json", "null", "[]", '{"device_code_sha256": 5}']) {
    await ctx.keychain.set(PATH, text);
    assert.equal(await takePendingLogin(ctx, PATH, "dc-1"), undefined, text);
  }
  await ctx.keychain.set(
    PATH,
    JSON.stringify({ ...saved, interval: "10", expires_at: null, scopes: "calendar:calendar" }),
  );
  assert.deepEqual(await takePendingLogin(ctx, PATH, "dc-1"), {
    device_code_sha256: saved.device_code_sha256,
    interval: undefined,
    expires_at: undefined,
    scopes: [],
  });
});
