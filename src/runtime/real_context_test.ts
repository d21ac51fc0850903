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

Deno.test("systemTimeZone() and the time formats know UTC without Temporal", async () => {
  // Temporal's first use costs about 3.7 M instructions: a UTC machine never makes it.
  const script = `Object.defineProperty(globalThis, "Temporal", {
      get() { throw new Error("Temporal was used"); },
    });
    const { systemTimeZone } = await import("./real_context.ts");
    const { formatLocalTime, formatRfc3339InZone } = await import("../time/format_time.ts");
    const link = (path) => () => path;
    console.log(JSON.stringify([
      systemTimeZone("UTC"),
      systemTimeZone(":Etc/UTC"),
      systemTimeZone(undefined, link("../usr/share/zoneinfo/Etc/UTC")),
      systemTimeZone(undefined, link("/var/db/timezone/zoneinfo/UTC")),
      formatRfc3339InZone(Date.parse("2026-11-23T01:30:15.5Z"), "UTC"),
      formatLocalTime(Date.parse("2026-11-23T01:30:00Z"), "UTC"),
    ]));`;
  assert.deepEqual(JSON.parse(await evalWith(script, { TZ: "Asia/Shanghai" })), [
    "UTC",
    "UTC",
    "UTC",
    "UTC",
    "2026-11-23T01:30:15+00:00",
    "2026-11-23 01:30",
  ]);
  // Any other zone, or a link that is not UTC's, is read through Temporal as before.
  const other = `import { systemTimeZone } from "./real_context.ts";
    console.log(JSON.stringify([
      systemTimeZone(undefined, () => "/usr/share/zoneinfo/right/UTC"),
      systemTimeZone(undefined, () => undefined),
      systemTimeZone("UTC+1"),
      systemTimeZone(),
      // Deno on Windows ignores TZ: only Temporal knows the zone there.
      systemTimeZone("UTC", () => "/usr/share/zoneinfo/UTC", "windows"),
    ]));`;
  assert.deepEqual(JSON.parse(await evalWith(other, { TZ: "Asia/Shanghai" })), [
    "Asia/Shanghai",
    "Asia/Shanghai",
    "Asia/Shanghai",
    "Asia/Shanghai",
    "Asia/Shanghai",
  ]);
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
