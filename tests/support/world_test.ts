import assert from "node:assert/strict";
import { startWorld } from "./world.ts";

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
  } finally {
    await world.close();
  }
});
