import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { checkProfileName, selectProfile } from "./profile.ts";

const config = { active_profile: "active", apps: { active: {}, env: {}, flag: {} } };

Deno.test("selectProfile() prefers --profile over everything", () => {
  const ctx = createTestContext({ env: { HARK_PROFILE: "env" } });
  assert.equal(selectProfile(ctx, config, "flag"), "flag");
});

Deno.test("selectProfile() uses HARK_PROFILE when no flag is given", () => {
  const ctx = createTestContext({ env: { HARK_PROFILE: "env" } });
  assert.equal(selectProfile(ctx, config), "env");
});

Deno.test("selectProfile() uses active_profile, then default", () => {
  const ctx = createTestContext();
  assert.equal(selectProfile(ctx, config), "active");
  assert.equal(selectProfile(ctx, {}), "default");
});

Deno.test("selectProfile() rejects a bad name and names where it came from", () => {
  const ctx = createTestContext({ env: { HARK_PROFILE: "../etc" } });
  assert.throws(() => selectProfile(ctx, {}), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "HARK_PROFILE");
    assert.match(error.message, /"\.\.\/etc"/);
    return true;
  });
  assert.throws(
    () => selectProfile(createTestContext(), {}, "a b"),
    (error: unknown) => error instanceof ValidationError && error.param === "--profile",
  );
});

Deno.test("checkProfileName() accepts letters, digits and _ . @ - up to 64 characters", () => {
  for (const name of ["default", "work-2", "a.b_c@d", "x".repeat(64)]) {
    assert.equal(checkProfileName(name), name);
  }
  for (const name of ["", "x".repeat(65), "a/b", "a b", "ünï", "a\nb"]) {
    assert.throws(() => checkProfileName(name), ValidationError, JSON.stringify(name));
  }
});
