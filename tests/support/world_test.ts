import assert from "node:assert/strict";
import { join } from "node:path";
import { startWorld, TEST_KEYCHAIN_ITERATIONS } from "./world.ts";

Deno.test("World.signIn() stores a sign-in that hark then uses, without waiting for the poll interval", async () => {
  const world = await startWorld({ profiles: ["default", "work"] });
  try {
    const started = performance.now();
    const login = await world.signIn({ profile: "work", openId: world.sb.users[1].open_id });
    const result = JSON.parse(login.stdout);
    assert.ok(performance.now() - started < 4_000, "no 5 s wait before the first poll");
    assert.equal((result.user as { open_id: string }).open_id, world.sb.users[1].open_id);
    const status = await world.run(["auth", "status", "--json", "--profile", "work"]);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).state, "valid");
    const polls = (await world.requestLog()).filter((r) => r.body?.grant_type?.endsWith("code"));
    assert.equal(polls.length, 1, "approved before the first poll");
    // Written with few iterations, so that hark's reads of it after are cheap (and still work).
    const dir = join(world.home.env.HARK_DATA_DIR, "keychain");
    const files = await Array.fromAsync(Deno.readDir(dir));
    assert.ok(files.length > 0, "the sign-in is in the file keychain");
    for (const file of files) {
      const record = JSON.parse(await Deno.readTextFile(join(dir, file.name)));
      assert.equal(record.iterations, TEST_KEYCHAIN_ITERATIONS, file.name);
    }
  } finally {
    await world.close();
  }
});
