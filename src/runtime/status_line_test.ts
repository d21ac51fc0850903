import assert from "node:assert/strict";
import { type Schedule, STATUS_DELAY_MS, statusLine } from "./status_line.ts";

/** A terminal stderr that records what is written, a fake clock and a fake timer. */
function statusHarness(isTerminal = true) {
  const written: string[] = [];
  let now = 0;
  const timers: { due: number; fn: () => void }[] = [];
  const schedule: Schedule = (fn, ms) => {
    const timer = { due: now + ms, fn };
    timers.push(timer);
    return () => void timers.splice(timers.indexOf(timer), 1);
  };
  const status = statusLine(
    { isTerminal, columns: 80, write: (text) => void written.push(text) },
    () => now,
    schedule,
  );
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.filter((t) => t.due <= now)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.fn();
    }
  };
  return { status, written, timers, advance };
}

Deno.test("statusLine() draws a line sent in the first second once the second is over", () => {
  const { status, written, advance } = statusHarness();
  advance(200);
  status("Rate limited, retrying in 6 s (attempt 2 of 4)");
  assert.deepEqual(written, [], "not before the delay");
  advance(STATUS_DELAY_MS - 201);
  assert.deepEqual(written, []);
  advance(1);
  assert.deepEqual(written, ["\r\x1b[2KRate limited, retrying in 6 s (attempt 2 of 4)"]);
  // Later lines are drawn at once; a clear erases the line.
  status("next");
  status(undefined);
  assert.deepEqual(written.slice(1), ["\r\x1b[2Knext", "\r\x1b[2K"]);
});

Deno.test("statusLine() draws the latest early line, and none that was cleared", () => {
  const replaced = statusHarness();
  replaced.status("1 users read (1 pages)");
  replaced.advance(300);
  replaced.status("2 users read (2 pages)");
  assert.equal(replaced.timers.length, 1, "one timer for the lines of the first second");
  replaced.advance(STATUS_DELAY_MS);
  assert.deepEqual(replaced.written, ["\r\x1b[2K2 users read (2 pages)"]);

  const cleared = statusHarness();
  cleared.status("Downloading img_1");
  cleared.advance(100);
  cleared.status(undefined);
  assert.equal(cleared.timers.length, 0, "the timer is cancelled");
  cleared.advance(STATUS_DELAY_MS);
  assert.deepEqual(cleared.written, [], "nothing drawn, nothing erased");

  const piped = statusHarness(false);
  piped.status("1 users read (1 pages)");
  piped.advance(STATUS_DELAY_MS * 2);
  assert.deepEqual([piped.written, piped.timers], [[], []], "never without a terminal");
});

Deno.test("statusLine()'s real timer fires, and does not keep the process alive", async () => {
  const written: string[] = [];
  const status = statusLine(
    { isTerminal: true, columns: 80, write: (text) => void written.push(text) },
    () => STATUS_DELAY_MS - 20,
  );
  status("soon");
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.deepEqual(written, ["\r\x1b[2Ksoon"]);
  // A process with nothing else to do ends without waiting for a line to be drawn.
  const script = `
    import { statusLine } from ${JSON.stringify(new URL("./status_line.ts", import.meta.url).href)};
    const write = (text) => console.log(JSON.stringify(text));
    statusLine({ isTerminal: true, columns: 80, write }, () => 0)("never drawn");
  `;
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(code, 0);
  assert.equal(new TextDecoder().decode(stdout), "");
});
