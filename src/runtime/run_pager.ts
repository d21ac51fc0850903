/**
 * `Context.page` of the real context: the text on a pager's stdin, the pager on the terminal.
 *
 * @module
 */

import type { OsName } from "../context.ts";
import { childEnv } from "./run_subprocess.ts";

/**
 * Whether a program is on the `PATH` (or, with a slash, at that path).
 *
 * @param program a program name, such as `less`
 * @param os the operating system (its path separator and executable suffixes)
 */
function onPath(program: string, os: OsName): boolean {
  const exists = (path: string) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  };
  if (program.includes("/") || (os === "windows" && program.includes("\\"))) return exists(program);
  const dirs = (Deno.env.get("PATH") ?? "").split(os === "windows" ? ";" : ":");
  const names = os === "windows" ? [program, `${program}.exe`, `${program}.com`] : [program];
  return dirs.some((dir) => dir !== "" && names.some((name) => exists(`${dir}/${name}`)));
}

/**
 * Runs `command` through the shell with `text` on its stdin and the terminal as its stdout and
 * stderr, and waits for it to end. A pager that quits before reading everything (`q` in `less`)
 * is not an error. The pager sees none of hark's secret variables ({@link childEnv}).
 *
 * @param command a shell command line, such as `less -FRX`
 * @param text what to show
 * @param os the operating system (which shell)
 * @returns false, having shown nothing, when the command's program is not installed
 */
export async function runPager(command: string, text: string, os: OsName): Promise<boolean> {
  const program = command.trim().split(/\s+/)[0] ?? "";
  if (program === "" || !onPath(program, os)) return false;
  const [shell, ...flags] = os === "windows" ? ["cmd.exe", "/d", "/c"] : ["/bin/sh", "-c"];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(shell, {
      args: [...flags, command],
      stdin: "piped",
      stdout: "inherit",
      stderr: "inherit",
      env: childEnv(),
      clearEnv: true,
    }).spawn();
  } catch {
    return false;
  }
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The pager quit before reading everything: the person has seen what they wanted.
  }
  await child.status;
  return true;
}
