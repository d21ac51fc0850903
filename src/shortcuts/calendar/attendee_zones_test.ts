import assert from "node:assert/strict";
import { unknownZonesWarning, zoneFinding } from "./attendee_zones.ts";

Deno.test("unknownZonesWarning() groups people by reason and names a few of each", () => {
  const many = Array.from({ length: 8 }, (_, i) => [`ou_${i}`, "no time zone in the profile"]);
  assert.equal(
    unknownZonesWarning(
      [...many, ["ou_x", "no such user (code 41012)"]] as [string, string][],
      "UTC",
    ),
    "Cannot tell the time zone of 9 people: ou_0, ou_1, ou_2, ou_3, ou_4 and 3 more (no time " +
      "zone in the profile); ou_x (no such user (code 41012)). Their working hours were read in " +
      "UTC; pass --timezone to choose one zone for everyone",
  );
});

Deno.test("zoneFinding() takes only IANA names of sane length", () => {
  assert.deepEqual(zoneFinding("Asia/Shanghai"), { zone: "Asia/Shanghai" });
  assert.deepEqual(zoneFinding("utc"), { zone: "UTC" });
  for (const value of [undefined, null, "", "Mars/Base", "+08:00", "A".repeat(65), 8, {}]) {
    assert.ok("unknown" in zoneFinding(value), String(value));
  }
});
