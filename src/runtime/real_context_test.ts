import assert from "node:assert/strict";

/** Runs `script` in a fresh Deno with `env` only, from this folder, and returns its stdout. */
async function evalWith(script: string, env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    env: { PATH: Deno.env.get("PATH") ?? "", ...env },
    clearEnv: true,
    cwd: new URL(".", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.success, stderr);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("systemTimeZone() reads TZ, and falls back to UTC when TZ names no zone", async () => {
  const script = `import { systemTimeZone } from "./real_context.ts";
    console.log(systemTimeZone());`;
  assert.equal(await evalWith(script, { TZ: "Asia/Shanghai" }), "Asia/Shanghai");
  assert.equal(await evalWith(script, { TZ: "America/New_York" }), "America/New_York");
  assert.equal(await evalWith(script, { TZ: "Not/AZone" }), "UTC");
  assert.equal(await evalWith(script, { TZ: "" }), "UTC");
});

Deno.test("the real context's keychain names its backend at once and loads it on first use", async () => {
  const script = `import { createRealContext } from "./real_context.ts";
    const ctx = createRealContext({ signal: new AbortController().signal });
    const out = [ctx.keychain.backend];
    await ctx.keychain.set("hark/default/app_secret", "s3cret");
    out.push(await ctx.keychain.get("hark/default/app_secret"), ctx.keychain === ctx.keychain);
    console.log(JSON.stringify(out));`;
  assert.equal(
    await evalWith(script, { HARK_KEYCHAIN: "memory" }),
    '["memory","s3cret",true]',
  );
  const bad = `import { createRealContext } from "./real_context.ts";
    const ctx = createRealContext({ signal: new AbortController().signal });
    console.log(await ctx.keychain.get("hark/x").catch((e) => e.name + ": " + e.message));`;
  assert.match(
    await evalWith(bad, { HARK_KEYCHAIN: "vault" }),
    /^ValidationError: Invalid HARK_KEYCHAIN "vault"/,
  );
});
