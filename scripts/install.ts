/**
 * `deno task install`: puts a `hark` on PATH that runs this repository's source exactly as the
 * binary runs: a small launcher at `~/.local/bin/hark` (or `<root>/bin/hark` with `--root`) that
 * `exec`s `deno run` with the binary's permissions and V8 flags on `scripts/hark_task.ts` (the
 * catalogue kept current, then `main.ts`), quietly, from any folder. `exec` leaves no shell in
 * between: Ctrl-C reaches hark itself, which cancels the command (exit 1) as the binary does.
 * Nothing is downloaded (unlike `deno task compile`, which fetches Deno's runtime per target).
 *
 * Usage: deno task install [--root <prefix>]
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FROM_SOURCE_FLAGS, HARK_RUN_FLAGS } from "./permissions.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));

/** A word quoted for a POSIX shell. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The launcher's text: `deno run` on this repository with hark's flags, from any folder.
 *
 * @param deno the Deno executable
 * @param repo the repository's folder
 */
export function launcherScript(deno: string, repo: string): string {
  const words = [
    deno,
    "run",
    "--quiet",
    "--config",
    join(repo, "deno.json"),
    ...FROM_SOURCE_FLAGS,
    ...HARK_RUN_FLAGS,
    join(repo, "scripts", "hark_task.ts"),
  ];
  return "#!/bin/sh\n" +
    `# hark from source at ${repo} (written by deno task install)\n` +
    `exec ${words.map(quote).join(" ")} "$@"\n`;
}

/**
 * Writes the launcher into `<root>/bin` and says where it is, and whether that is on PATH.
 *
 * @param args the command line
 * @returns the exit code
 */
async function main(args: string[]): Promise<number> {
  let root = join(Deno.env.get("HOME") ?? ".", ".local");
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--root" && args[i + 1]) root = args[++i];
    else if (args[i].startsWith("--root=")) root = args[i].slice("--root=".length);
    else {
      console.error(
        `hark install: unknown argument "${args[i]}"; usage: deno task install ` +
          "[--root <prefix>]",
      );
      return 2;
    }
  }
  if (Deno.build.os === "windows") {
    console.error(
      "hark install: the launcher is a POSIX shell script; on Windows use a release " +
        "binary, or deno task hark",
    );
    return 1;
  }
  const bin = join(root, "bin");
  const target = join(bin, "hark");
  await Deno.mkdir(bin, { recursive: true });
  // Written beside, then renamed: a hark running meanwhile never reads half a launcher.
  const temporary = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await Deno.writeTextFile(temporary, launcherScript(Deno.execPath(), REPO), { mode: 0o755 });
  await Deno.chmod(temporary, 0o755);
  await Deno.rename(temporary, target);
  const onPath = (Deno.env.get("PATH") ?? "").split(":").includes(bin);
  console.log(`Installed ${target}: hark from ${REPO}`);
  if (!onPath) console.log(`Add ${bin} to your PATH: export PATH="${bin}:$PATH"`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
