import assert from "node:assert/strict";
import { badTimeWarning, epochMsOf, epochMsOfText, MAX_EPOCH_MS } from "./network_time.ts";
import { formatRfc3339InZone } from "./format_time.ts";

Deno.test("epochMsOf() reads whole Unix seconds and milliseconds, as text or numbers", () => {
  assert.equal(epochMsOf("1795435200", "s"), 1795435200000);
  assert.equal(epochMsOf(1795435200, "s"), 1795435200000);
  assert.equal(epochMsOf("1795435200000", "ms"), 1795435200000);
  assert.equal(epochMsOf(" 17 ", "s"), 17000);
  assert.equal(epochMsOf("-86400", "s"), -86400000);
  assert.equal(epochMsOf("0", "ms"), 0);
  // The year 5138 in milliseconds is a time; in seconds it is 3 million years away.
  assert.equal(epochMsOf("99999999999999", "ms"), 99999999999999);
  assert.equal(epochMsOf("99999999999999", "s"), undefined);
  assert.equal(epochMsOf(String(MAX_EPOCH_MS), "ms"), MAX_EPOCH_MS);
  assert.equal(epochMsOf(String(MAX_EPOCH_MS + 1), "ms"), undefined);
});

Deno.test("epochMsOf() refuses what is no whole number or beyond any calendar", () => {
  for (
    const bad of [
      "abc",
      "1e308",
      "1e3",
      "1795435200.5",
      "",
      " ",
      "0x10",
      "99999999999999999999",
      "999999999999999999999999",
      1e308,
      1795435200.5,
      99999999999999999999,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      undefined,
      true,
      {},
      ["1795435200"],
    ]
  ) {
    assert.equal(epochMsOf(bad, "s"), undefined, JSON.stringify(bad));
    assert.equal(epochMsOf(bad, "ms"), undefined, JSON.stringify(bad));
  }
});

Deno.test("every moment epochMsOf() reads can be formatted", () => {
  for (const value of ["8640000000000", "-8640000000000", String(MAX_EPOCH_MS)]) {
    const ms = epochMsOf(value, value.length > 13 ? "ms" : "s");
    assert.ok(ms !== undefined, value);
    assert.doesNotThrow(() => formatRfc3339InZone(ms, "Pacific/Kiritimati"), value);
  }
});

Deno.test("epochMsOfText() reads RFC 3339 and nothing that is not a date-time", () => {
  assert.equal(epochMsOfText("2026-11-23T09:00:00+01:00"), Date.UTC(2026, 10, 23, 8));
  for (const bad of ["abc", "", "2026-13-45T00:00:00Z", "+999999-01-01T00:00:00Z", 1795435200]) {
    assert.equal(epochMsOfText(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("badTimeWarning() names the field and quotes the start of what was sent", () => {
  assert.equal(
    badTimeWarning("create_time", "abc"),
    'The service sent a create_time that is not a time ("abc"): hark left it out',
  );
  assert.equal(
    badTimeWarning("join_time", "9".repeat(100)),
    `The service sent a join_time that is not a time ("${"9".repeat(39)}…): hark left it out`,
  );
});
