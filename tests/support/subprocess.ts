/**
 * The one way tests and benchmarks run a program (hark, most often) as a subprocess: exactly the
 * environment given, stdin piped or closed, stdout and stderr collected, a kill after a timeout,
 * and stderr readable while the program runs.
 *
 * @module
 */

/** What a finished subprocess produced. */
export interface ProcessRun {
  /** The exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** Wall time from spawn to exit with the output read, in milliseconds. */
  ms: number;
}

/** Options of {@link startProcess}. */
export interface ProcessOptions {
  /** The whole environment (nothing of this process's is inherited). */
  env: Record<string, string>;
  /** The working folder; default this process's. */
  cwd?: string;
  /** Text piped to stdin; default none (stdin closed). */
  stdin?: string;
  /** Kill the process (SIGKILL) after this many ms; default 60 000. */
  timeoutMs?: number;
}

/** A running subprocess. */
export interface LiveProcess {
  /** Its process id (to sample `/proc/<pid>/status`, say). */
  pid: number;
  /** Resolves with the first match of `pattern` in stderr; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves when the process has ended and its output is read. */
  done: Promise<ProcessRun>;
}

/**
 * Starts `program <args>`, reading its stderr as it comes.
 *
 * @param program the program, such as `Deno.execPath()`
 * @param args its arguments
 * @param options its environment, folder, stdin and timeout
 * @example
 * ```ts
 * const live = startProcess(Deno.execPath(), ["run", "main.ts", "auth", "login"], { env });
 * const [, code] = await live.waitFor(/enter the code: (\S+)/);
 * const run = await live.done;
 * ```
 */
export function startProcess(
  program: string,
  args: readonly string[],
  options: ProcessOptions,
): LiveProcess {
  const started = performance.now();
  const child = new Deno.Command(program, {
    args: [...args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }, options.timeoutMs ?? 60_000);
  let stderr = "";
  const waiters: { pattern: RegExp; settle: (m: RegExpExecArray | null) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stderr);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.settle(match);
      }
    }
  };
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      check();
    }
  })();
  const stdin = (async () => {
    if (options.stdin === undefined) return;
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  })();
  const done = (async () => {
    const [stdout, status] = await Promise.all([new Response(child.stdout).text(), child.status]);
    await Promise.all([stderrDone, stdin]);
    clearTimeout(timer);
    const ms = performance.now() - started;
    for (const waiter of waiters.splice(0)) waiter.settle(null);
    return { code: status.code, stdout, stderr, ms };
  })();
  return {
    pid: child.pid,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        waiters.push({
          pattern,
          settle: (m) => m ? resolve(m) : reject(new Error(`Ended without ${pattern}: ${stderr}`)),
        });
        check();
      });
    },
    done,
  };
}

/**
 * Runs `program <args>` to its end (see {@link startProcess}).
 *
 * @param program the program
 * @param args its arguments
 * @param options its environment, folder, stdin and timeout
 */
export function runProcess(
  program: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<ProcessRun> {
  return startProcess(program, args, options).done;
}
