import assert from "node:assert/strict";
import { formatLocalTime, formatRfc3339InZone } from "./format_time.ts";
import { parseTimeInput } from "./parse_time_input.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("formatLocalTime() shows wall-clock time as the user types it", () => {
  assert.equal(formatLocalTime(at("2026-11-23T01:30:00Z"), "Asia/Shanghai"), "2026-11-23 09:30");
  assert.equal(formatLocalTime(at("2026-11-23T01:30:00Z"), "America/New_York"), "2026-11-22 20:30");
  assert.equal(formatLocalTime(at("2026-11-23T01:30:00.999Z"), "UTC"), "2026-11-23 01:30");
  assert.equal(formatLocalTime(at("2026-11-23T01:30:15.5Z"), "UTC"), "2026-11-23 01:30:15");
});

Deno.test("formatLocalTime() shows both 01:30s of a fall-back night alike", () => {
  assert.equal(formatLocalTime(at("2026-11-01T05:30:00Z"), "America/New_York"), "2026-11-01 01:30");
  assert.equal(formatLocalTime(at("2026-11-01T06:30:00Z"), "America/New_York"), "2026-11-01 01:30");
  assert.equal(formatLocalTime(at("2026-03-08T07:00:00Z"), "America/New_York"), "2026-03-08 03:00");
});

Deno.test("formatRfc3339InZone() always gives seconds and the offset, never Z", () => {
  const instant = at("2026-11-23T01:30:00Z");
  assert.equal(formatRfc3339InZone(instant, "Asia/Shanghai"), "2026-11-23T09:30:00+08:00");
  assert.equal(formatRfc3339InZone(instant, "UTC"), "2026-11-23T01:30:00+00:00");
  assert.equal(formatRfc3339InZone(instant, "Asia/Kathmandu"), "2026-11-23T07:15:00+05:45");
  assert.equal(formatRfc3339InZone(instant, "America/St_Johns"), "2026-11-22T22:00:00-03:30");
  assert.equal(
    formatRfc3339InZone(at("2026-11-23T01:30:00.999Z"), "UTC"),
    "2026-11-23T01:30:00+00:00",
  );
  assert.equal(formatRfc3339InZone(-1500, "UTC"), "1969-12-31T23:59:58+00:00");
});

Deno.test("formatRfc3339InZone() follows the offset across a DST change", () => {
  assert.equal(
    formatRfc3339InZone(at("2026-11-01T05:30:00Z"), "America/New_York"),
    "2026-11-01T01:30:00-04:00",
  );
  assert.equal(
    formatRfc3339InZone(at("2026-11-01T06:30:00Z"), "America/New_York"),
    "2026-11-01T01:30:00-05:00",
  );
});

Deno.test("formatted times parse back to the same instant", () => {
  const options = { param: "--start", now: 0 };
  for (const zone of ["Asia/Shanghai", "America/New_York", "Europe/Berlin", "Pacific/Auckland"]) {
    for (const iso of ["2026-03-08T07:00:00Z", "2026-10-25T00:59:00Z", "2026-11-23T01:30:00Z"]) {
      const rfc = formatRfc3339InZone(at(iso), zone);
      const local = formatLocalTime(at(iso), zone);
      assert.deepEqual(parseTimeInput(rfc, { ...options, timeZone: zone }).kind, "instant");
      assert.equal(
        (parseTimeInput(rfc, { ...options, timeZone: "UTC" }) as { epochMs: number }).epochMs,
        at(iso),
      );
      assert.equal(
        (parseTimeInput(local, { ...options, timeZone: zone }) as { epochMs: number }).epochMs,
        at(iso),
        `${local} in ${zone}`,
      );
    }
  }
});

// That no Temporal is used on this path: real_context_test.ts.
Deno.test("UTC times read exactly as Temporal writes them", () => {
  const temporal = (ms: number) =>
    Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO("UTC");
  const moments = [
    0,
    -1,
    -0,
    -1500,
    999,
    at("2026-11-23T01:30:00Z"),
    at("2026-11-23T01:30:15.5Z"),
    at("1000-01-01T00:00:00Z"),
    at("1000-01-01T00:00:00Z") - 1,
    at("9999-12-31T23:59:59.999Z"),
    at("9999-12-31T23:59:59.999Z") + 1,
    at("-000001-06-01T12:00:00Z"),
  ];
  // Spread over years 900 to 10100, the edges of the shortcut included.
  const from = Date.UTC(900, 0, 1);
  const span = Date.UTC(10100, 0, 1) - from;
  for (let i = 0; i < 200; i++) moments.push(from + (i * 7_919_993_217_931) % span);
  for (const ms of moments) {
    const time = temporal(ms);
    const rfc = time.toString({
      smallestUnit: "second",
      roundingMode: "floor",
      timeZoneName: "never",
    });
    assert.equal(formatRfc3339InZone(ms, "UTC"), rfc, `${ms}`);
    const local = time.toPlainDateTime().toString({
      smallestUnit: time.second === 0 ? "minute" : "second",
      roundingMode: "floor",
    });
    assert.equal(formatLocalTime(ms, "UTC"), local.replace("T", " "), `${ms}`);
  }
  // A fraction of a millisecond is refused as Temporal refuses it, whatever the zone.
  assert.throws(() => formatRfc3339InZone(0.5, "UTC"), RangeError);
  assert.throws(() => formatLocalTime(0.5, "UTC"), RangeError);
});
