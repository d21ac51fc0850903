/**
 * What a run of the benchmarks writes: the targets table printed on stdout, `bench/RESULTS.md`
 * (the table, the other benchmarks' figures, the machine and its load, and the raw output), and
 * one line of `bench/history.jsonl` (date, commit, load, ratios). Pure functions of the run's
 * results.
 *
 * @module
 */

import type { BenchResult } from "./_support.ts";
import type { Figures, TargetRow } from "./targets.ts";

/** Where and when a run happened. */
export interface RunInfo {
  /** ISO date and time (UTC). */
  date: string;
  /** The commit measured (`git rev-parse --short HEAD`), with `+dirty` when the tree differs. */
  commit: string;
  /** The baseline tree's commit, when one was compared. */
  baselineCommit?: string;
  /** Load average (1, 5, 15 min) before the first benchmark and after the last. */
  load: { before: number[] | null; after: number[] | null };
  /** Facts about the machine, as label → value. */
  machine: Record<string, string>;
}

const fmt = (x: number | undefined, digits = 2) => x === undefined ? "–" : x.toFixed(digits);
const spread = (f: Figures | undefined, unit: string) =>
  f ? `${f.median} ${unit} (${f.min}–${f.max})` : "–";
/** A difference row (`difference` in ms) or a ratio row. */
const isDifference = (r: TargetRow) => r.kind === "difference";
/** The row's figure: its ratio, or its difference in ms. */
const value = (r: TargetRow) => isDifference(r) ? `${fmt(r.difference, 1)} ms` : fmt(r.ratio);
/** The row's target: a ratio, or a number of ms for a difference row. */
const limit = (r: TargetRow) => isDifference(r) ? `≤ ${r.target} ms` : `≤ ${fmt(r.target)}`;
const perRound = (r: TargetRow) => {
  const digits = isDifference(r) ? 1 : 2;
  return `${fmt(r.per_round?.min, digits)} / ${fmt(r.per_round?.median, digits)} / ` +
    fmt(r.per_round?.max, digits);
};

/**
 * The targets table in Markdown: each row's ratio, the spread of same-round ratios, hark's and
 * the reference's figures, and whether the target is met; a baseline column when compared.
 *
 * @param rows the rows of the targets benchmark
 */
export function targetsTable(rows: TargetRow[]): string {
  const baseline = rows.some((r) => r.baseline);
  const head = [
    "measure",
    "target",
    ...(baseline ? ["before (baseline)"] : []),
    "ratio (or difference)",
    "per round min / median / max",
    "hark median (min–max)",
    "reference median (min–max)",
    "met",
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`];
  for (const r of rows) {
    const cells = r.skipped
      ? [
        r.measure,
        limit(r),
        ...(baseline ? ["–"] : []),
        "skipped",
        r.skipped,
        "–",
        "–",
        "–",
      ]
      : [
        r.measure,
        limit(r),
        ...(baseline ? [fmt(r.baseline?.ratio)] : []),
        `**${value(r)}**`,
        perRound(r),
        spread(r.hark, r.unit),
        spread(r.reference, r.unit),
        r.met ? (r.stated ? `yes, ${r.stated}` : "yes") : "**no**",
      ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n") + "\n";
}

/**
 * The targets as plain text lines for the terminal: `ratio (min / median / max per round)`.
 *
 * @param rows the rows of the targets benchmark
 */
export function targetsText(rows: TargetRow[]): string {
  return rows.map((r) => {
    if (r.skipped) return `skipped  ${r.measure}: ${r.skipped}`;
    const before = r.baseline ? `, before ${fmt(r.baseline.ratio)}` : "";
    const stated = r.stated ? ` (${r.stated})` : "";
    return `${r.met ? "met    " : "MISSED "}  ${value(r)} ${limit(r)}  ` +
      `(per round ${perRound(r)}${before})  ${r.measure}${stated}`;
  }).join("\n") + "\n";
}

/**
 * The line appended to `bench/history.jsonl`.
 *
 * @param info the run
 * @param rows the rows of the targets benchmark
 */
export function historyLine(info: RunInfo, rows: TargetRow[]): string {
  const ratios: Record<string, number | null> = {};
  for (const r of rows) ratios[r.id] = r.ratio ?? r.difference ?? null;
  return JSON.stringify({
    date: info.date,
    commit: info.commit,
    load_before: info.load.before,
    ratios,
    all_met: rows.every((r) => r.met === true),
  }) + "\n";
}

/**
 * The whole `bench/RESULTS.md`.
 *
 * @param info the run
 * @param results every benchmark's result, in the order they ran
 */
export function resultsMarkdown(info: RunInfo, results: BenchResult[]): string {
  const out: string[] = [];
  out.push("# hark benchmarks: results\n");
  out.push(
    `Written by \`deno task bench\` on ${info.date}, commit \`${info.commit}\`` +
      (info.baselineCommit ? `, compared with \`${info.baselineCommit}\` (the baseline)` : "") +
      ". Every figure below was measured in that run; the raw output is at the end. " +
      "Benchmarks are not tests: nothing asserts a timing.\n",
  );
  out.push("## The machine\n");
  out.push("| what | value |\n| --- | --- |");
  for (const [label, value] of Object.entries(info.machine)) out.push(`| ${label} | ${value} |`);
  out.push(
    `| load average (1 / 5 / 15 min) | ${loadText(info.load.before)} before, ` +
      `${loadText(info.load.after)} after (2 cores shared with other work: see each ` +
      "benchmark's own figures in the raw output) |\n",
  );
  const targets = results.find((r) => r.bench === "targets");
  if (targets && !("error" in targets)) {
    const rows = targets.rows as TargetRow[];
    out.push("## Targets (issues 16 and 28)\n");
    out.push(targetsTable(rows));
    out.push(
      `Start-up: ${targets.timing_rounds} measured rounds after ${targets.timing_warmups} ` +
        "warm-up rounds; in each round every command ran once, the order rotated by one each " +
        "round. The ratio is hark's median over the reference's median; the per-round ratios " +
        "pair the two runs of the same round. The reference of the start-up rows is " +
        `\`${targets.gh_version}\`. The cost of a call: ${targets.call_rounds} measured rounds ` +
        "of `contact +me` and a bare Deno script making the same request, and of `im +send` " +
        "with an environment token, the file keychain and the Secret Service, against the " +
        "sandbox on loopback; a difference row is hark's median minus the reference's, in ms. " +
        "The memory rows compare a long listing with a short one of the same data, in the same " +
        `${targets.memory_rounds} rounds (${targets.rss_method}).\n`,
    );
    out.push(
      "The stand-in is what `deno task compile` compiles, run by Deno: the code-split bundle " +
        "of `scripts/bundle.ts`, run as `deno run --no-prompt --no-config " +
        "--unstable-lazy-dynamic-imports <compile-time permissions> bundle/main.js` from its " +
        "folder, so that a command's chunks load when it runs, as in the binary. A compiled " +
        "binary cannot be built here (`deno compile` downloads its runtime)." +
        (info.baselineCommit
          ? " The baseline's stand-in is its `main.ts` bundled into one file " +
            "(`deno bundle --platform deno`), as that tree's own bundle test and benchmarks ran " +
            "it; its `deno task hark` runs in its own folder."
          : "") +
        "\n",
    );
    for (const note of targets.notes as string[]) out.push(`- ${note}`);
    if ((targets.notes as string[]).length > 0) out.push("");
    out.push("### Every command measured\n");
    out.push(
      "| case | unit | median | min | max | command |\n| --- | --- | ---: | ---: | ---: | --- |",
    );
    for (
      const [cases, unit] of [
        [targets.timing_cases, "ms"],
        [targets.call_cases ?? [], "ms"],
        [targets.memory_cases, "MiB"],
      ]
    ) {
      for (const c of cases as (Figures & { id: string; command: string })[]) {
        out.push(`| ${c.id} | ${unit} | ${c.median} | ${c.min} | ${c.max} | \`${c.command}\` |`);
      }
    }
    out.push("");
  }
  const others = results.filter((r) => r.bench !== "targets");
  if (others.length > 0) {
    out.push("## The other benchmarks\n");
    for (const r of others) out.push(otherSection(r));
  }
  out.push("## Raw output of this run\n");
  out.push("```json");
  for (const r of results) out.push(JSON.stringify(r));
  out.push("```\n");
  return out.join("\n");
}

function loadText(load: number[] | null): string {
  return load ? load.join(" / ") : "unknown";
}

/** One span of the `jq_cost` benchmark, as its JSON gives it. */
interface JqSpan {
  days: number;
  events: number;
  json: { median_ms: number };
  jq: { median_ms: number };
  jq_added_ms: number;
  jq_added_ms_per_1000_events: number;
  engine: { median_ms: number };
}

/** A short section for each of the older benchmarks, from its JSON. */
function otherSection(r: BenchResult): string {
  const title = `### ${r.bench}\n\n`;
  if ("error" in r) return `${title}Failed: ${r.error}\n`;
  const lines: string[] = [];
  const hark = (r.hark ?? r.results ?? []) as Record<string, unknown>[];
  if (r.bench === "agenda_split") {
    lines.push(
      `\`calendar +agenda\` over ${r.span_days} days (${r.pieces} pieces of ${r.piece_days} ` +
        `days), ${r.latency_ms} ms of latency per request.\n`,
    );
    lines.push("| how | wall median ms (min–max) | requests | max in flight | connections |");
    lines.push("| --- | --- | ---: | ---: | ---: |");
    for (const h of hark) {
      const wall = h.wall as Record<string, number>;
      lines.push(
        `| ${h.target} | ${wall.median_ms} (${wall.min_ms}–${wall.max_ms}) | ${h.requests} | ` +
          `${h.max_in_flight} | ${h.connections} |`,
      );
    }
    for (const key of ["sequential_same_pieces", "pooled_same_pieces"]) {
      const p = r[key] as { how: string; wall: Record<string, number>; max_in_flight: number };
      lines.push(
        `| the same pieces, ${p.how} | ${p.wall.median_ms} (${p.wall.min_ms}–${p.wall.max_ms}) ` +
          `| ${r.pieces} | ${p.max_in_flight} | – |`,
      );
    }
  } else if (r.bench === "connection_reuse") {
    lines.push(`\`contact +search-user --page-all\`: ${r.matching_users} users, one per page.\n`);
    lines.push("| how | calls | TCP connections |\n| --- | ---: | ---: |");
    for (const h of hark) lines.push(`| ${h.target} | ${h.calls} | ${h.connections} |`);
  } else if (r.bench === "send_overhead") {
    lines.push(`\`im +send\` with the token from the file keychain; ${r.sends} sends.\n`);
    lines.push("| how | send median ms | `--version` median ms | difference ms |");
    lines.push("| --- | ---: | ---: | ---: |");
    for (const h of hark) {
      const send = h.send as Record<string, number>;
      const version = h.version as Record<string, number>;
      lines.push(
        `| ${h.target} | ${send.median_ms} | ${version.median_ms} | ${h.send_over_version_ms} |`,
      );
    }
  } else if (r.bench === "jq_cost") {
    lines.push(
      `\`calendar +agenda --jq '${r.filter}'\` against \`--json\`: each 1,000 events more add ` +
        `${r.jq_ms_per_1000_more_events} ms; growth ${r.growth} (near 1 when jq takes time in ` +
        "proportion to the output, about 10 when quadratic; from jq alone, timed in " +
        "the bench's process).\n",
    );
    lines.push(
      "| days | events | `--json` median ms | `--jq` median ms | jq adds ms | per 1,000 events | " +
        "jq alone ms |",
    );
    lines.push("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const s of r.spans as JqSpan[]) {
      lines.push(
        `| ${s.days} | ${s.events} | ${s.json.median_ms} | ${s.jq.median_ms} | ${s.jq_added_ms} | ` +
          `${s.jq_added_ms_per_1000_events} | ${s.engine.median_ms} |`,
      );
    }
  } else {
    lines.push("See the raw output.");
  }
  return title + lines.join("\n") + "\n";
}
