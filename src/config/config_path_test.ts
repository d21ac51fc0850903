import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { resolveConfigPath } from "./config_path.ts";

Deno.test("resolveConfigPath() uses HARK_CONFIG first, on every OS", () => {
  for (const os of ["linux", "darwin", "windows"] as const) {
    const ctx = createTestContext({
      os,
      homeDir: "/home/ada",
      env: { HARK_CONFIG: "/tmp/alt.json", XDG_CONFIG_HOME: "/xdg", APPDATA: "C:\\AppData" },
    });
    assert.equal(resolveConfigPath(ctx), "/tmp/alt.json", os);
  }
});

Deno.test("resolveConfigPath() uses XDG_CONFIG_HOME on Linux, else ~/.config", () => {
  const xdg = createTestContext({ homeDir: "/home/ada", env: { XDG_CONFIG_HOME: "/xdg" } });
  assert.equal(resolveConfigPath(xdg), join("/xdg", "hark", "config.json"));
  const home = createTestContext({ homeDir: "/home/ada" });
  assert.equal(resolveConfigPath(home), join("/home/ada", ".config", "hark", "config.json"));
});

Deno.test("resolveConfigPath() uses Application Support on macOS", () => {
  const ctx = createTestContext({
    os: "darwin",
    homeDir: "/Users/ada",
    env: { XDG_CONFIG_HOME: "/ignored" },
  });
  assert.equal(
    resolveConfigPath(ctx),
    join("/Users/ada", "Library", "Application Support", "hark", "config.json"),
  );
});

Deno.test("resolveConfigPath() uses APPDATA on Windows, with Windows separators", () => {
  const ctx = createTestContext({
    os: "windows",
    homeDir: "C:\\Users\\ada",
    env: { APPDATA: "C:\\Users\\ada\\AppData\\Roaming\\" },
  });
  assert.equal(resolveConfigPath(ctx), "C:\\Users\\ada\\AppData\\Roaming\\hark\\config.json");
});

Deno.test("resolveConfigPath() fails naming HARK_CONFIG when there is no home", () => {
  const ctx = createTestContext({});
  assert.throws(() => resolveConfigPath(ctx), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "HARK_CONFIG");
    assert.match(error.recovery.suggestion, /HARK_CONFIG/);
    return true;
  });
});

Deno.test("resolveConfigPath() ignores an empty HARK_CONFIG", () => {
  const ctx = createTestContext({ homeDir: "/home/ada", env: { HARK_CONFIG: "" } });
  assert.equal(resolveConfigPath(ctx), join("/home/ada", ".config", "hark", "config.json"));
});
