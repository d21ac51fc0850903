/**
 * The permissions the hark binary is compiled with, and nothing broader: environment (config
 * path, tokens), files (config, file keychain, `--input`), network (the service), and
 * subprocesses (the OS keychain tools and a configured credential command). The `hark` task in
 * deno.json and the bundle test use exactly these; a test checks they agree.
 *
 * @module
 */

/** The `deno run` / `deno compile` permission flags of hark. */
export const HARK_PERMISSIONS: readonly string[] = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-run",
];
