/**
 * A racing link swapper for the `--files` race tests: points the link at `link` to `a`, then to
 * `b`, then to `a` again, and so on, each swap atomic (a new link renamed over the old), with a
 * random pause of up to two milliseconds after each (so that the race lands anywhere in a call,
 * and a call sometimes sees one target throughout), for at most `max` swaps or until killed.
 *
 *   deno run --allow-read --allow-write tests/mcp/_swap_link.ts <link> <a> <b> <max>
 *
 * @module
 */

const [link, a, b, max] = Deno.args;
const spare = `${link}.swap`;
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 1; i <= Number(max); i++) {
  try {
    Deno.removeSync(spare);
  } catch {
    // Not there.
  }
  Deno.symlinkSync(i % 2 === 0 ? a : b, spare);
  Deno.renameSync(spare, link);
  Atomics.wait(pause, 0, 0, 2 * Math.random());
}
