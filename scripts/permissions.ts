/**
 * The flags the hark binary is compiled with, and nothing broader. Permissions: environment
 * (config path, tokens), files (config, file keychain, `--input`, downloads), network (the
 * service), subprocesses (the OS keychain tools and a configured credential command), and the
 * process's user id (a config file or credential command that belongs to another user is
 * refused). V8:
 * `--expose-gc`, so that long streams can hand back what finished requests held
 * (`Context.reclaim`), and a small young generation, so that short-lived garbage is collected
 * before it spreads the heap; together they keep a year-long agenda or a 50,000-message listing
 * near the memory of a one-page one. The young generation starts at that cap (2 MB semi-spaces)
 * instead of V8's 1 MB: a one-request command allocates about 1.5 MB young, mostly its own code
 * and Deno's fetch, all of it live, and from 1 MB it paid two scavenges copying it (3 to 5 ms CPU
 * of `contact +me`, measured with `--trace-gc` and user+sys time); a long listing grows to the
 * cap within its first pages anyway, so its peak is unchanged. And `--max-opt=2`: functions are
 * optimised up to Maglev, never by TurboFan, whose compiles held about 4.5 MB at the peak of a
 * year-long agenda (70.1 → 65.6 MiB) and 4.5 MB of a 50,000-message listing (60.3 → 55.8 MiB);
 * with the flag the agenda took as long and the listing 3.4 % longer (2.38 → 2.34 s and 7.46 →
 * 7.71 s, medians of 6 and 4 in a busy phase). A one-request command optimises nothing either
 * way (`--trace-opt`). Before the flag, a one-day agenda's TurboFan compile of one hot loop,
 * there or not by chance, moved its peak by 1.5 MB. The `hark` task in deno.json, the bundle test and the
 * benchmarks use exactly these; a test checks they agree.
 *
 * @module
 */

/** The V8 flags of hark's memory policy. */
export const HARK_V8_FLAGS =
  "--v8-flags=--expose-gc,--max-semi-space-size=2,--min-semi-space-size=2,--max-opt=2";

/** The `deno run` / `deno compile` flags of hark: its permissions and its V8 flags. */
export const HARK_RUN_FLAGS: readonly string[] = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-run",
  "--allow-sys=uid",
  HARK_V8_FLAGS,
];

/**
 * How hark runs from source (`deno task hark`, the tests, the demo), before
 * {@link HARK_RUN_FLAGS}. Without it, Deno reads and prepares every module a literal `import()`
 * names before the first line runs: `--version` would pay for the code of every command. Lazily,
 * a command's code loads when that command runs, as it does in the compiled binary. Measured on
 * the bench machine:
 * `deno run main.ts --version` 40.1 ms → 28.8 ms. (Deno 2.9's name for it; CI pins that Deno.)
 */
export const FROM_SOURCE_FLAGS: readonly string[] = ["--unstable-lazy-dynamic-imports"];
