import assert from "node:assert/strict";
import { renderTable, type TableColumn } from "./table.ts";
import { textWidth } from "./text_width.ts";

/** The columns of `calendar +agenda`. */
const AGENDA: TableColumn[] = [
  { header: "START", kind: "time", priority: 5 },
  { header: "END", kind: "time", priority: 3 },
  { header: "SUMMARY", priority: 4 },
  { header: "STATUS", priority: 1 },
  { header: "EVENT ID", kind: "id", priority: 2 },
];
const EVENT_ID = "00592a0e-7edf-4678-bc9d-1b77383ef08e_0";
const AGENDA_ROWS = [
  [
    "2026-11-23 09:00",
    "2026-11-23 10:00",
    "Quarterly planning with the whole team",
    "confirmed",
    EVENT_ID,
  ],
  ["2026-11-23", "2026-11-24", "Offsite 🏔️ day", "tentative", "e2"],
];

function lines(text: string): string[] {
  return text.trimEnd().split("\n");
}

function assertFits(text: string, width: number): void {
  for (const line of lines(text)) {
    assert.ok(textWidth(line) <= width, `${textWidth(line)}: ${line}`);
  }
}

Deno.test("renderTable() aligns columns under their headers", () => {
  const { text, hidden } = renderTable(["NAME", "ID"], [["Ada Lovelace", "ou_1"], [
    "Bob",
    "ou_22",
  ]]);
  assert.equal(
    text,
    "NAME          ID\n" +
      "Ada Lovelace  ou_1\n" +
      "Bob           ou_22\n",
  );
  assert.deepEqual(hidden, []);
});

Deno.test("renderTable() aligns emoji, ZWJ sequences and CJK by display width", () => {
  const { text } = renderTable(
    ["A", "B"],
    [["日程", "x"], ["ab", "y"], ["✅", "z"], ["👨‍👩‍👧", "w"], ["e\u0301e\u0301", "v"]],
  );
  const starts = lines(text).map((line) => textWidth(line.slice(0, -1)));
  assert.deepEqual(starts, [6, 6, 6, 6, 6, 6], text);
});

Deno.test("renderTable() at 160 columns shows every column whole", () => {
  const { text, hidden } = renderTable(AGENDA, AGENDA_ROWS, { maxWidth: 160 });
  assert.deepEqual(hidden, []);
  assert.ok(text.includes("Quarterly planning with the whole team"));
  assert.ok(text.includes(EVENT_ID));
  assert.match(lines(text)[0], /^START +END +SUMMARY +STATUS +EVENT ID$/);
});

Deno.test("renderTable() at 80 columns keeps the id and hides the least useful other column", () => {
  const { text, hidden } = renderTable(AGENDA, AGENDA_ROWS, { maxWidth: 80 });
  assertFits(text, 80);
  assert.deepEqual(hidden, ["END"]);
  assert.match(lines(text)[0], /^START +SUMMARY +STATUS +EVENT ID$/);
  assert.ok(lines(text)[1].endsWith(`confirmed  ${EVENT_ID}`), lines(text)[1]);
  assert.ok(lines(text)[1].startsWith("2026-11-23 09:00  Quarterly"), lines(text)[1]);
});

Deno.test("renderTable() at 40 columns keeps the id column whole even when it is all that fits", () => {
  const { text, hidden } = renderTable(AGENDA, AGENDA_ROWS, { maxWidth: 40 });
  assertFits(text, 40);
  assert.deepEqual(hidden, ["START", "END", "SUMMARY", "STATUS"]);
  assert.deepEqual(lines(text), ["EVENT ID", EVENT_ID, "e2"]);
});

Deno.test("renderTable() hides no id column, wherever its priority puts it", () => {
  const columns: TableColumn[] = [
    { header: "TIME", kind: "time", priority: 6 },
    { header: "SENDER", priority: 4 },
    { header: "TEXT", priority: 5, minWidth: 30 },
    { header: "MESSAGE ID", kind: "id", priority: 1 },
    { header: "THREAD ID", kind: "id", priority: 0 },
  ];
  const id = `om_${"a".repeat(32)}`;
  const rows = [["2026-11-23 09:30", "Grace Zhang", "x".repeat(60), id, ""]];
  const { text, hidden } = renderTable(columns, rows, { maxWidth: 80 });
  assertFits(text, 80);
  // The empty THREAD ID says nothing; TEXT is cut below its minWidth to stay beside the id.
  assert.deepEqual(hidden, ["THREAD ID"]);
  assert.ok(lines(text)[1].endsWith(id), lines(text)[1]);
  assert.match(lines(text)[1], /^2026-11-23 09:30 {2}Grace Zha… {2}x{12}… {2}om_a+$/);
});

Deno.test("renderTable() never cuts ids or times, even when one column alone is too wide", () => {
  const { text, hidden } = renderTable(
    [{ header: "OPEN ID", kind: "id", priority: 2 }, { header: "NAME", priority: 1 }],
    [["ou_fd020f5b1c3c4a8e9f0a1b2c3d4e5f60", "Ada"]],
    { maxWidth: 20 },
  );
  assert.deepEqual(hidden, ["NAME"]);
  assert.equal(text, "OPEN ID\nou_fd020f5b1c3c4a8e9f0a1b2c3d4e5f60\n");
});

Deno.test("renderTable() keeps a column's minWidth of text before less useful columns", () => {
  const message = "Deploy finished on staging, smoke tests green, rolling out to production now";
  const columns = [
    { header: "TIME", kind: "time" as const, priority: 6 },
    { header: "SENDER", priority: 4 },
    { header: "TEXT", priority: 5, minWidth: 30 },
    { header: "UPDATED", kind: "time" as const, priority: 3 },
  ];
  const rows = [["2026-11-23 09:30", "Grace Zhang", message, "2026-11-23T09:31:00+08:00"]];
  const { text, hidden } = renderTable(columns, rows, { maxWidth: 80 });
  assertFits(text, 80);
  assert.deepEqual(hidden, ["UPDATED"]);
  assert.ok(lines(text)[1].includes(message.slice(0, 40)), lines(text)[1]);
  // Without it, the message was cut to 10 columns to keep the update time.
  const { hidden: before } = renderTable(
    columns.map(({ minWidth: _, ...c }) => c),
    rows,
    { maxWidth: 80 },
  );
  assert.deepEqual(before, []);
});

Deno.test("renderTable() hides an empty column before a more useful one", () => {
  const { text, hidden } = renderTable(
    [
      { header: "EVENT ID", kind: "id", priority: 5 },
      { header: "SUMMARY", priority: 3 },
      { header: "START", kind: "time", priority: 4 },
      { header: "END", kind: "time", priority: 2 },
      { header: "ATTENDEES", priority: 1 },
    ],
    [[`${"e".repeat(36)}_0`, "Quarterly planning", "2026-11-23 09:00", "2026-11-23 10:00", ""]],
    { maxWidth: 80 },
  );
  // END does not fit; the empty ATTENDEES column, which would, says nothing.
  assert.deepEqual(hidden, ["END", "ATTENDEES"]);
  assert.match(lines(text)[0], /^EVENT ID +SUMMARY +START$/);
});

Deno.test("renderTable() hides the rightmost of equal priorities first", () => {
  const { text, hidden } = renderTable(["A", "B", "C"], [[
    "a".repeat(30),
    "b".repeat(30),
    "c".repeat(30),
  ]], {
    maxWidth: 30,
  });
  assert.deepEqual(hidden, ["C"]);
  assert.match(lines(text)[0], /^A +B$/);
  assertFits(text, 30);
});

Deno.test("renderTable() cuts free text with an ellipsis, measured by display width", () => {
  const { text } = renderTable(
    [{ header: "ID", kind: "id" }, { header: "SUMMARY" }],
    [["ev_1", "✅ 日程安排 " + "x".repeat(100)]],
    { maxWidth: 24 },
  );
  assertFits(text, 24);
  assert.equal(lines(text)[1], "ev_1  ✅ 日程安排 xxxxx…");
});

Deno.test("renderTable() without maxWidth never cuts", () => {
  const long = "y".repeat(300);
  const { text, hidden } = renderTable(["A", "B"], [[long, long]]);
  assert.ok(text.includes(`${long}  ${long}`));
  assert.deepEqual(hidden, []);
});

Deno.test("renderTable() sanitises cells and headers and styles the header only", () => {
  const { text } = renderTable(["NAME"], [["evil\x1b[2J\nname\u202e"]], {
    header: (s) => `<${s}>`,
  });
  assert.equal(text, "<NAME>\nevil\\x1b[2J name\\u202e\n");
});

Deno.test("renderTable() fills missing cells and trims trailing spaces", () => {
  const { text } = renderTable(["A", "B", "C"], [["1"], ["22", "x", ""]]);
  assert.equal(text, "A   B  C\n1\n22  x\n");
});

Deno.test("renderTable() cuts the least useful text first, the widest of equals first", () => {
  const { text } = renderTable(
    [
      { header: "NAME", priority: 3 },
      { header: "OPEN ID", kind: "id", priority: 4 },
      { header: "DEPARTMENTS", priority: 1 },
    ],
    [["Quentin Anderson", "ou_8ff49b6f772632716c43069c43a8c3b7", "od-f26165a881cd424e42a85e1c"]],
    { maxWidth: 70 },
  );
  assert.equal(
    lines(text)[1],
    "Quentin Anderson  ou_8ff49b6f772632716c43069c43a8c3b7  od-f26165a881c…",
  );
  const equal = renderTable(["A", "B"], [["a".repeat(60), "b".repeat(50)]], { maxWidth: 42 });
  assert.equal(lines(equal.text)[1], `${"a".repeat(19)}…  ${"b".repeat(19)}…`);
});
