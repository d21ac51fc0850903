import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { checkTimeZone } from "./check_time_zone.ts";

const where = { param: "--timezone" };

Deno.test("checkTimeZone() returns the canonical IANA name", () => {
  assert.equal(checkTimeZone("Asia/Shanghai", where), "Asia/Shanghai");
  assert.equal(checkTimeZone("europe/berlin", where), "Europe/Berlin");
  assert.equal(checkTimeZone(" UTC ", where), "UTC");
  assert.equal(checkTimeZone("utc", where), "UTC");
});

Deno.test("checkTimeZone() refuses unknown zones and fixed offsets", () => {
  for (const name of ["Mars/Olympus", "", "+08:00", "-05:00", "CEST+1", "Z"]) {
    assert.throws(
      () => checkTimeZone(name, { param: "--timezone", source: "TZ" }),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "--timezone" &&
        error.message.startsWith(
          `Invalid value ${JSON.stringify(name)} for --timezone (from TZ)`,
        ) &&
        /IANA time zone/.test(error.message),
      name,
    );
  }
});
