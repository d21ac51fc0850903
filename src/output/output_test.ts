import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  type Column,
  formatJson,
  type OutputOptions,
  resolveFormat,
  terminalWidth,
  writeData,
} from "./output.ts";
import { textWidth } from "./text_width.ts";

const rows = [
  { name: "Ada, Countess", id: "ou_1", tags: ["a", "b"] },
  { name: 'Bob "B"', id: "ou_2", tags: [] },
];

Deno.test("resolveFormat(): the flag wins, then preferences, then the terminal", () => {
  const terminal = createTestContext({ stdoutIsTerminal: true });
  const piped = createTestContext({ stdoutIsTerminal: false });
  assert.equal(
    resolveFormat(terminal, { format: "csv", color: true, preferences: { output_format: "json" } }),
    "csv",
  );
  assert.equal(
    resolveFormat(piped, { color: true, preferences: { output_format: "table" } }),
    "table",
  );
  assert.equal(resolveFormat(terminal, { color: true }), "table");
  // Piped with no format asked for: one record per line.
  assert.equal(resolveFormat(piped, { color: true }), "ndjson");
  assert.equal(resolveFormat(piped, { color: true, preferences: {} }), "ndjson");
});

Deno.test("formatJson() sorts keys at every level", () => {
  const text = formatJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }, false);
  assert.equal(text, '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
});

Deno.test("formatJson() is pretty with two spaces, or compact", () => {
  assert.equal(formatJson({ a: [1] }, true), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(formatJson({ a: [1] }, false), '{"a":[1]}');
  assert.equal(formatJson(undefined, false), "null");
});

Deno.test("writeData() writes compact JSON when piped and pretty JSON on a terminal", async () => {
  const piped = createTestContext();
  await writeData(piped, { color: true }, { b: 2, a: 1 });
  assert.equal(piped.stdout.text(), '{"a":1,"b":2}\n');
  assert.equal(piped.stderr.text(), "");
  const terminal = createTestContext({ stdoutIsTerminal: true });
  await writeData(terminal, { format: "json", color: true }, { b: 2, a: 1 });
  assert.equal(terminal.stdout.text(), '{\n  "a": 1,\n  "b": 2\n}\n');
});

Deno.test("writeData() writes CSV with the given columns", async () => {
  const ctx = createTestContext();
  await writeData(ctx, { format: "csv", color: true }, rows, [
    { header: "NAME", value: "name" },
    { header: "TAGS", value: "tags" },
    { header: "UPPER", value: (r) => r.id.toUpperCase() },
  ]);
  assert.equal(
    ctx.stdout.text(),
    'NAME,TAGS,UPPER\r\n"Ada, Countess","a, b",OU_1\r\n"Bob ""B""",,OU_2\r\n',
  );
});

Deno.test("writeData() defaults columns to the first item's keys, upper-cased", async () => {
  const ctx = createTestContext();
  await writeData(ctx, { format: "csv", color: true }, [{
    id: 1,
    ok: true,
    extra: { x: 1 },
    none: null,
  }]);
  assert.equal(ctx.stdout.text(), 'ID,OK,EXTRA,NONE\r\n1,true,"{""x"":1}",\r\n');
});

Deno.test("writeData() gives an item that is not an object empty cells, not a crash", async () => {
  const ctx = createTestContext();
  const answer: unknown[] = [{ id: "ou_1" }, null, "x", { id: "ou_2" }];
  await writeData(ctx, { format: "csv", color: true }, answer, [{ header: "ID", value: "id" }]);
  assert.equal(ctx.stdout.text(), "ID\r\nou_1\r\n\r\n\r\nou_2\r\n");
});

Deno.test("writeData() shows a single record as a key: value card, every field whole", async () => {
  const ctx = createTestContext();
  await writeData(ctx, { format: "table", color: true }, { name: "Ada", id: "ou_1" });
  assert.equal(ctx.stdout.text(), "name:  Ada\nid:    ou_1\n");
});

Deno.test("writeData() wraps a card to an 80-column terminal and never hides a column", async () => {
  const ctx = createTestContext({ stdoutIsTerminal: true });
  const event = {
    event_id: `${"e".repeat(36)}_0`,
    summary: "Quarterly planning with the whole team and a very long agenda to go through",
    status: "confirmed",
    attendees: ["Quentin Anderson (accept)", "Grace Zhang (decline)"],
  };
  await writeData(ctx, { color: false }, event, [
    { header: "EVENT ID", value: "event_id", kind: "id", priority: 6 },
    { header: "SUMMARY", value: "summary", priority: 5 },
    { header: "STATUS", value: "status", priority: 1 },
    { header: "ATTENDEES", value: "attendees", priority: 2 },
    { header: "LOCATION", value: "location", priority: 0 },
  ]);
  assert.equal(
    ctx.stdout.text(),
    `EVENT ID:   ${event.event_id}\n` +
      "SUMMARY:    Quarterly planning with the whole team and a very long agenda to go\n" +
      "            through\n" +
      "STATUS:     confirmed\n" +
      "ATTENDEES:  Quentin Anderson (accept), Grace Zhang (decline)\n",
  );
  assert.equal(ctx.stderr.text(), "", "no footer: nothing is hidden");
});

Deno.test("writeData() table has no colour when piped, bold headers on a terminal", async () => {
  const piped = createTestContext();
  await writeData(piped, { format: "table", color: true }, rows, [{ header: "ID", value: "id" }]);
  assert.equal(piped.stdout.text(), "ID\nou_1\nou_2\n");
  assert.ok(!piped.stdout.text().includes("\x1b"));

  const terminal = createTestContext({ stdoutIsTerminal: true });
  await writeData(terminal, { color: true }, rows, [{ header: "ID", value: "id" }]);
  assert.equal(terminal.stdout.text(), "\x1b[1mID\x1b[22m\nou_1\nou_2\n");
});

Deno.test("writeData() table has no colour with --no-color, NO_COLOR or preferences.color", async () => {
  const cases: { env: Record<string, string>; options: OutputOptions }[] = [
    { env: {}, options: { color: false } },
    { env: { NO_COLOR: "1" }, options: { color: true } },
    { env: {}, options: { color: true, preferences: { color: false } } },
  ];
  for (const { env, options } of cases) {
    const ctx = createTestContext({ stdoutIsTerminal: true, env });
    await writeData(ctx, options, rows, [{ header: "ID", value: "id" }]);
    assert.equal(ctx.stdout.text(), "ID\nou_1\nou_2\n", JSON.stringify({ env, options }));
  }
});

Deno.test("writeData() truncates a table to the terminal's width", async () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, columns: 30, env: { NO_COLOR: "1" } });
  await writeData(ctx, { color: true }, [{ id: "ev_1", summary: "s".repeat(80) }]);
  for (const line of ctx.stdout.text().trimEnd().split("\n")) {
    assert.ok(line.length <= 30, line);
  }
  assert.match(ctx.stdout.text(), /…/);
  const piped = createTestContext({ columns: 30 });
  await writeData(piped, { format: "table", color: true }, [{
    id: "ev_1",
    summary: "s".repeat(80),
  }]);
  assert.ok(piped.stdout.text().includes("s".repeat(80)), "no truncation when piped");
});

Deno.test("writeData() of an empty list prints the header only in table and CSV", async () => {
  const table = createTestContext();
  await writeData(table, { format: "table", color: true }, [], [{ header: "ID", value: "id" }]);
  assert.equal(table.stdout.text(), "ID\n");
  const json = createTestContext();
  await writeData(json, { format: "json", color: true }, []);
  assert.equal(json.stdout.text(), "[]\n");
});

/** The attack of issue 12, as a service would send it in a name or a summary. */
const ATTACK = "Denied\x1b]0;pwned\x07\x1b[2J\x1b[41;97m  ACCESS GRANTED  \x1b[0m\u202e";

Deno.test("writeData() neutralises network text in tables and CSV, and keeps JSON exact", async () => {
  const data = [{ name: ATTACK, id: "ou_1" }];
  const columns: Column[] = [{ header: "NAME", value: "name" }, { header: "ID", value: "id" }];
  for (const format of ["table", "csv"] as const) {
    const ctx = createTestContext({ stdoutIsTerminal: true, env: { NO_COLOR: "1" } });
    await writeData(ctx, { format, color: true }, data, columns);
    const out = ctx.stdout.text();
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e]/.test(out), `${format}: ${out}`);
    assert.ok(out.includes("Denied\\x1b]0;pwned\\x07\\x1b[2J\\x1b[41;97m"), format);
    assert.ok(out.includes("\\u202e"), format);
  }
  const json = createTestContext();
  await writeData(json, { format: "json", color: true }, data, columns);
  assert.deepEqual(JSON.parse(json.stdout.text()), data);
});

Deno.test("writeData() prefixes CSV formula cells with ' unless csvRaw is set", async () => {
  const data = [{ name: '=HYPERLINK("http://evil")', n: "-1" }];
  const safe = createTestContext();
  await writeData(safe, { format: "csv", color: true }, data);
  assert.equal(safe.stdout.text(), 'NAME,N\r\n"\'=HYPERLINK(""http://evil"")",\'-1\r\n');
  const raw = createTestContext();
  await writeData(raw, { format: "csv", color: true, csvRaw: true }, data);
  assert.equal(raw.stdout.text(), 'NAME,N\r\n"=HYPERLINK(""http://evil"")",-1\r\n');
});

const people = [
  {
    name: "Ada Lovelace",
    open_id: "ou_fd020f5b1c3c4a8e9f0a1b2c3d4e5f60",
    user_id: "5d9bd1a2",
    department_ids: ["od-4e6ac9c3f1b2a0e5d7c8b9a6f3e2d1c0", "od-11"],
  },
];
const peopleColumns: Column[] = [
  { header: "NAME", value: "name", priority: 3 },
  { header: "OPEN ID", value: "open_id", kind: "id", priority: 4 },
  { header: "USER ID", value: "user_id", kind: "id", priority: 2 },
  { header: "DEPARTMENTS", value: "department_ids", priority: 1 },
];

Deno.test("writeData() hides columns that do not fit and says so on stderr only", async () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, columns: 60, env: { NO_COLOR: "1" } });
  await writeData(ctx, { color: true }, people, peopleColumns);
  assert.equal(
    ctx.stdout.text(),
    "NAME          OPEN ID                              USER ID\n" +
      "Ada Lovelace  ou_fd020f5b1c3c4a8e9f0a1b2c3d4e5f60  5d9bd1a2\n",
  );
  assert.equal(ctx.stderr.text(), "1 column hidden (DEPARTMENTS); --format json for all\n");
});

Deno.test("writeData() leaves the names out of a footer too long for the terminal", async () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, columns: 40, env: { NO_COLOR: "1" } });
  await writeData(ctx, { color: true }, people, peopleColumns);
  // Both ids stay, though together they pass 40 columns (the terminal wraps them).
  assert.equal(
    ctx.stdout.text(),
    "OPEN ID                              USER ID\n" +
      "ou_fd020f5b1c3c4a8e9f0a1b2c3d4e5f60  5d9bd1a2\n",
  );
  assert.equal(
    ctx.stderr.text(),
    "2 columns hidden; --format json for all\n",
  );
});

Deno.test("writeData() writes no footer when everything fits or output is piped", async () => {
  const wide = createTestContext({ stdoutIsTerminal: true, columns: 160, env: { NO_COLOR: "1" } });
  await writeData(wide, { color: true }, people, peopleColumns);
  assert.ok(wide.stdout.text().includes("od-4e6ac9c3f1b2a0e5d7c8b9a6f3e2d1c0, od-11"));
  assert.equal(wide.stderr.text(), "");
  const piped = createTestContext({ columns: 40 });
  await writeData(piped, { format: "table", color: true }, people, peopleColumns);
  assert.ok(piped.stdout.text().includes("DEPARTMENTS"));
  assert.equal(piped.stderr.text(), "");
});

Deno.test("writeData() fits a terminal that reports 0 columns to COLUMNS, else 80", async () => {
  const summary = "s".repeat(200);
  for (
    const [env, width] of [[{}, 80], [{ COLUMNS: "50" }, 50], [{ COLUMNS: "0" }, 80], [{
      COLUMNS: "wide",
    }, 80]] as const
  ) {
    const ctx = createTestContext({
      stdoutIsTerminal: true,
      columns: 0,
      env: { NO_COLOR: "1", ...env },
    });
    await writeData(ctx, { color: true }, [{ id: "ev_1", summary }], [
      { header: "ID", value: "id", kind: "id" },
      { header: "SUMMARY", value: "summary" },
    ]);
    const lines = ctx.stdout.text().trimEnd().split("\n");
    assert.equal(textWidth(lines[1]), width, JSON.stringify(env));
    assert.ok(lines[1].startsWith("ev_1  sss"), "no column shrinks to 3 characters");
  }
});

Deno.test("terminalWidth() prefers the reported width, then a sane COLUMNS, then 80", () => {
  const reported = createTestContext({
    stdoutIsTerminal: true,
    columns: 120,
    env: { COLUMNS: "50" },
  });
  assert.equal(terminalWidth(reported), 120);
  for (
    const [columns, expected] of [
      ["50", 50],
      ["10000", 10000],
      ["9", 80],
      ["100001", 80],
      ["-5", 80],
      ["", 80],
      ["7e1", 80],
    ] as const
  ) {
    const ctx = createTestContext({
      stdoutIsTerminal: true,
      columns: 0,
      env: { COLUMNS: columns },
    });
    assert.equal(terminalWidth(ctx), expected, columns);
  }
});

Deno.test("openDataStream() writes JSON byte for byte as writeData() does, batch by batch", async () => {
  const { createTestContext } = await import("../../tests/support/test_context.ts");
  const { openDataStream, writeData } = await import("./output.ts");
  const items = [{ b: 2, a: "x" }, { b: 3, a: "y" }, { b: 4, a: "z\n" }];
  for (const terminal of [false, true]) {
    for (const list of [items, []]) {
      const whole = createTestContext({ stdoutIsTerminal: terminal });
      await writeData(whole, { format: "json", color: false }, list);
      const streamed = createTestContext({ stdoutIsTerminal: terminal });
      const stream = await openDataStream(streamed, { format: "json", color: false });
      stream.write(list.slice(0, 1));
      stream.write([]);
      stream.write(list.slice(1));
      stream.end();
      assert.equal(streamed.stdout.text(), whole.stdout.text(), `terminal ${terminal}`);
    }
  }
});

Deno.test("openDataStream() writes NDJSON lines and CSV with one header", async () => {
  const { createTestContext } = await import("../../tests/support/test_context.ts");
  const { openDataStream } = await import("./output.ts");
  const ndjson = createTestContext();
  const lines = await openDataStream(ndjson, { format: "ndjson", color: false });
  lines.write([{ b: 1, a: 2 }]);
  lines.write([{ a: 3 }]);
  lines.end();
  assert.equal(ndjson.stdout.text(), '{"a":2,"b":1}\n{"a":3}\n');
  const csv = createTestContext();
  const columns = [{ header: "A", value: "a" }, { header: "B", value: "b" }];
  const rows = await openDataStream(csv, { format: "csv", color: false }, columns);
  rows.write([{ a: 1, b: "=cmd" }]);
  rows.write([{ a: 2, b: "x" }]);
  rows.end();
  assert.equal(csv.stdout.text(), "A,B\r\n1,'=cmd\r\n2,x\r\n");
  const empty = createTestContext();
  (await openDataStream(empty, { format: "csv", color: false }, columns)).end();
  assert.equal(empty.stdout.text(), "A,B\r\n");
});

Deno.test("formatJson() writes C1, bidi and format characters as \\u escapes: the same value", () => {
  const value = {
    name: "a\u202eb\u009bc\u0085d\u2066e\u2069\u200e\u200f\u061c\u2028\ufeff\u007f",
    n: 1,
  };
  for (const pretty of [true, false]) {
    const text = formatJson(value, pretty);
    assert.doesNotMatch(text, /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/);
    assert.match(
      text,
      /a\\u202eb\\u009bc\\u0085d\\u2066e\\u2069\\u200e\\u200f\\u061c\\u2028\\ufeff\\u007f/,
    );
    assert.deepEqual(JSON.parse(text), value);
  }
  // Printable text, emoji and their joiners stay as they are.
  assert.equal(formatJson("日本 👩‍💻 é", false), '"日本 👩‍💻 é"');
});

Deno.test("an empty table on a terminal is a line on stderr, not a lone header", async () => {
  const { createTestContext } = await import("../../tests/support/test_context.ts");
  const { openDataStream, writeData } = await import("./output.ts");
  const columns = [{ header: "NAME", value: "name" }, { header: "OPEN ID", value: "id" }];
  const terminal = createTestContext({ stdoutIsTerminal: true, stderrIsTerminal: true });
  await writeData(terminal, { color: false }, [], columns);
  assert.equal(terminal.stdout.text(), "");
  assert.equal(terminal.stderr.text(), "No results\n");
  const streamed = createTestContext({ stdoutIsTerminal: true });
  (await openDataStream(streamed, { color: false }, columns)).end();
  assert.equal(streamed.stdout.text(), "");
  assert.equal(streamed.stderr.text(), "No results\n");
  // Piped, a table keeps its header; CSV always does; JSON is an empty array.
  const piped = createTestContext();
  await writeData(piped, { format: "table", color: false }, [], columns);
  assert.match(piped.stdout.text(), /^NAME\s+OPEN ID\n$/);
  const csv = createTestContext({ stdoutIsTerminal: true });
  await writeData(csv, { format: "csv", color: false }, [], columns);
  assert.equal(csv.stdout.text(), "NAME,OPEN ID\r\n");
  const json = createTestContext({ stdoutIsTerminal: true });
  await writeData(json, { format: "json", color: false }, [], columns);
  assert.equal(json.stdout.text(), "[]\n");
  assert.equal(csv.stderr.text() + json.stderr.text() + piped.stderr.text(), "");
});

Deno.test("a stream that fails part-way is made whole: JSON closed, a table of the rows so far", async () => {
  const { createTestContext } = await import("../../tests/support/test_context.ts");
  const { openDataStream } = await import("./output.ts");
  const columns = [{ header: "A", value: "a" }];
  for (const terminal of [false, true]) {
    const json = createTestContext({ stdoutIsTerminal: terminal });
    const stream = await openDataStream(json, { format: "json", color: false }, columns);
    stream.write([{ a: 1 }, { a: 2 }]);
    stream.fail();
    assert.deepEqual(JSON.parse(json.stdout.text()), [{ a: 1 }, { a: 2 }]);
  }
  const table = createTestContext({ stdoutIsTerminal: true });
  const rows = await openDataStream(table, { color: false }, columns);
  rows.write([{ a: 1 }]);
  rows.fail();
  assert.equal(table.stdout.text(), "A\n1\n");
  for (const format of ["json", "table", "csv", "ndjson"] as const) {
    const none = createTestContext({ stdoutIsTerminal: true });
    (await openDataStream(none, { format, color: false }, columns)).fail();
    assert.equal(none.stdout.text() + none.stderr.text(), "", format);
  }
});
