import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import type { Context } from "../context.ts";
import { DEFAULT_PAGER, openPager, pagerCommand } from "./pager.ts";

/** A terminal context whose pager records what it was given; `installed` false: none starts. */
function pagingContext(env: Record<string, string> = {}, installed = true, terminal = true) {
  const paged: { command: string; text: string }[] = [];
  const base = createTestContext({ stdoutIsTerminal: terminal, env });
  const ctx: Context = Object.assign(base, {
    page(command: string, text: string) {
      if (installed) paged.push({ command, text });
      return Promise.resolve(installed);
    },
  });
  return { ctx, base, paged };
}

Deno.test("pagerCommand() takes HARK_PAGER, then PAGER, then less -FRX; empty or cat is none", () => {
  assert.equal(pagerCommand(pagingContext().ctx), DEFAULT_PAGER);
  assert.equal(DEFAULT_PAGER, "less -FRX");
  assert.equal(pagerCommand(pagingContext({ PAGER: "more" }).ctx), "more");
  assert.equal(pagerCommand(pagingContext({ PAGER: "more", HARK_PAGER: "bat -p" }).ctx), "bat -p");
  assert.equal(pagerCommand(pagingContext({ HARK_PAGER: "", PAGER: "more" }).ctx), undefined);
  assert.equal(pagerCommand(pagingContext({ PAGER: "cat" }).ctx), undefined);
});

Deno.test("pagerCommand() pages only at a terminal, and only where the context can page", () => {
  assert.equal(pagerCommand(pagingContext({}, true, false).ctx), undefined, "piped");
  assert.equal(pagerCommand(createTestContext({ stdoutIsTerminal: true })), undefined, "MCP");
});

Deno.test("openPager() collects stdout and shows it through the pager when flushed", async () => {
  const { ctx, base, paged } = pagingContext({ HARK_PAGER: "less -R" });
  const out = openPager(ctx);
  out.ctx.stdout.write("line 1\n");
  out.ctx.stderr.write("1 column hidden\n");
  out.ctx.stdout.write("line 2\n");
  assert.equal(out.ctx.stdout.isTerminal, true);
  assert.equal(out.ctx.timeZone, ctx.timeZone, "the rest of the context is the same");
  assert.equal(base.stdout.text(), "", "nothing reaches the terminal before the pager");
  await out.flush();
  assert.deepEqual(paged, [{ command: "less -R", text: "line 1\nline 2\n" }]);
  assert.equal(base.stdout.text(), "");
  assert.equal(base.stderr.text(), "1 column hidden\n", "stderr follows the output");
});

Deno.test("openPager() writes to stdout itself when the pager is not installed", async () => {
  const { ctx, base } = pagingContext({}, false);
  const out = openPager(ctx);
  out.ctx.stdout.write("table\n");
  await out.flush();
  assert.equal(base.stdout.text(), "table\n");
});

Deno.test("openPager() piped leaves the context as it is", async () => {
  const { ctx, paged } = pagingContext({}, true, false);
  const out = openPager(ctx);
  assert.equal(out.ctx, ctx);
  out.ctx.stdout.write("x\n");
  await out.flush();
  assert.deepEqual(paged, []);
});
