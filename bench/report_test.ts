import assert from "node:assert/strict";
import { historyLine, resultsMarkdown, type RunInfo, targetsTable, targetsText } from "./report.ts";
import { compare, compareDifference, type TargetRow } from "./targets.ts";

const info: RunInfo = {
  date: "2026-11-22T15:00:00Z",
  commit: "abc1234",
  load: { before: [0.1, 0.2, 0.3], after: [0.4, 0.5, 0.6] },
  machine: { CPU: "test CPU, 2 cores" },
};

const rows: TargetRow[] = [
  compare(
    { id: "version", measure: "`hark --version` / `gh --version`", unit: "ms", target: 0.75 },
    [20, 30, 25],
    [50, 50, 40],
    [70, 80, 75],
  ),
  compare(
    { id: "agenda_rss", measure: "agenda RSS / `--version`", unit: "MiB", target: 1.3 },
    [200, 210, 220],
    [30, 30, 30],
  ),
  {
    id: "messages_rss",
    measure: "messages RSS",
    unit: "MiB",
    target: 1.3,
    skipped: "no +messages",
  },
];

Deno.test("compare() divides the medians and pairs each round's runs for the spread", () => {
  const [version, rss] = rows;
  assert.equal(version.ratio, 0.5); // 25 / 50
  assert.deepEqual(version.per_round, { min: 0.4, median: 0.6, max: 0.63 }); // 20/50, 30/50, 25/40
  assert.equal(version.met, true);
  assert.equal(version.baseline?.ratio, 1.5); // 75 / 50
  assert.equal(rss.ratio, 7);
  assert.equal(rss.met, false);
  assert.equal(rss.baseline, undefined);
});

Deno.test("targetsTable() shows each ratio, its spread, the figures and the verdict", () => {
  const table = targetsTable(rows);
  const lines = table.trim().split("\n");
  assert.equal(lines.length, 5);
  assert.match(lines[0], /before \(baseline\)/);
  assert.match(lines[2], /≤ 0\.75 \| 1\.50 \| \*\*0\.50\*\* \| 0\.40 \/ 0\.60 \/ 0\.63 \|/);
  assert.match(lines[2], /25 ms \(20–30\) \| 50 ms \(40–50\) \| yes \|$/);
  assert.match(lines[3], /\*\*7\.00\*\*.*\| \*\*no\*\* \|$/);
  assert.match(lines[4], /skipped \| no \+messages/);
});

Deno.test("targetsText() prints one line per row, misses in capitals", () => {
  const text = targetsText(rows);
  assert.match(text, /^met +0\.50 ≤ 0\.75 +\(per round 0\.40 \/ 0\.60 \/ 0\.63, before 1\.50\)/m);
  assert.match(text, /^MISSED +7\.00 ≤ 1\.30/m);
  assert.match(text, /^skipped +messages RSS: no \+messages$/m);
});

Deno.test("historyLine() records the date, commit, load and every ratio on one line", () => {
  const line = historyLine(info, rows);
  assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"));
  assert.deepEqual(JSON.parse(line), {
    date: "2026-11-22T15:00:00Z",
    commit: "abc1234",
    load_before: [0.1, 0.2, 0.3],
    ratios: { version: 0.5, agenda_rss: 7, messages_rss: null },
    all_met: false,
  });
});

Deno.test("resultsMarkdown() has the machine, the table, the other benches and the raw output", () => {
  const targets = {
    bench: "targets",
    gh_version: "gh version 2.23.0",
    timing_rounds: 3,
    timing_warmups: 1,
    memory_rounds: 3,
    rss_method: "rusage",
    rows,
    timing_cases: [{ id: "gh_version", command: "gh --version", median: 50, min: 40, max: 50 }],
    memory_cases: [],
    notes: ["Skipped a row"],
  };
  const failed = { bench: "send_overhead", error: "Cannot sign in" };
  const text = resultsMarkdown(info, [targets, failed]);
  assert.match(text, /commit `abc1234`/);
  assert.match(text, /\| CPU \| test CPU, 2 cores \|/);
  assert.match(text, /0\.1 \/ 0\.2 \/ 0\.3 before/);
  assert.ok(text.includes(targetsTable(rows)));
  assert.match(text, /- Skipped a row/);
  assert.match(text, /\| gh_version \| ms \| 50 \| 40 \| 50 \| `gh --version` \|/);
  assert.match(text, /### send_overhead\n\nFailed: Cannot sign in/);
  const raw = text.slice(text.indexOf("```json"));
  assert.ok(raw.includes(JSON.stringify(targets)) && raw.includes(JSON.stringify(failed)));
});

Deno.test("compareDifference() subtracts the medians; the table and the text show ms", () => {
  const row = compareDifference(
    { id: "send_file_keychain", measure: "file − env", unit: "ms", target: 10 },
    [80, 95, 90],
    [60, 62, 61],
  );
  assert.equal(row.kind, "difference");
  assert.equal(row.difference, 29); // 90 − 61
  assert.deepEqual(row.per_round, { min: 20, median: 29, max: 33 }); // 80−60, 90−61, 95−62
  assert.equal(row.met, false);
  const stated = { ...row, met: true, stated: "of which the key derivation is 25 ms" };
  assert.match(
    targetsText([stated]),
    /^met +29\.0 ms ≤ 10 ms +\(per round 20\.0 \/ 29\.0 \/ 33\.0\)/,
  );
  assert.match(targetsText([stated]), /\(of which the key derivation is 25 ms\)$/m);
  assert.match(targetsTable([row]), /\| ≤ 10 ms \| \*\*29\.0 ms\*\* \|.*\| \*\*no\*\* \|$/m);
  assert.match(historyLine(info, [row]), /"send_file_keychain":29/);
});

Deno.test("resultsMarkdown() writes jq_cost's spans as a table with its growth", () => {
  const span = (days: number, events: number, json: number, jq: number) => ({
    days,
    events,
    json: { median_ms: json },
    jq: { median_ms: jq },
    jq_added_ms: jq - json,
    jq_added_ms_per_1000_events: Math.round((jq - json) / events * 10_000) / 10,
    engine: { median_ms: events / 40 },
  });
  const jq = {
    bench: "jq_cost",
    filter: ".[] | {summary}",
    jq_ms_per_1000_more_events: 48.2,
    growth: 1.02,
    spans: [span(36, 2088, 400, 500), span(365, 21170, 2400, 3420)],
  };
  const text = resultsMarkdown(info, [jq]);
  assert.match(
    text,
    /### jq_cost\n\n`calendar \+agenda --jq '\.\[\] \| \{summary\}'` .*growth 1\.02/,
  );
  assert.match(text, /\| 36 \| 2088 \| 400 \| 500 \| 100 \| 47\.9 \| 52\.2 \|/);
  assert.match(text, /\| 365 \| 21170 \| 2400 \| 3420 \| 1020 \| 48\.2 \| 529\.25 \|/);
});
