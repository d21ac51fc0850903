/**
 * `deno task sandbox`: runs the sandbox until SIGINT or SIGTERM.
 *
 * Prints `hark sandbox listening on <base_url>` and the app credentials to stdout (or one JSON
 * line with `--json`); a port in use is a one-line error on stderr and exit code 1.
 *
 * @module
 */

import { parseSandboxArgs, SANDBOX_USAGE } from "./parse_sandbox_args.ts";
import { startSandbox } from "./start_sandbox.ts";

async function main(args: string[]): Promise<number> {
  let cli;
  try {
    cli = parseSandboxArgs(args);
  } catch (error) {
    console.error(`hark sandbox: ${(error as Error).message}`);
    return 2;
  }
  if (cli.help) {
    console.log(SANDBOX_USAGE);
    return 0;
  }
  let sandbox;
  try {
    sandbox = await startSandbox(cli.options);
  } catch (error) {
    console.error(`hark sandbox: ${(error as Error).message}`);
    return 1;
  }
  // Listen for signals before announcing the URL, so a caller may stop us as soon as it reads it.
  const { promise: stopped, resolve } = Promise.withResolvers<Deno.Signal>();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const handlers = signals.map((signal) => {
    const handler = () => resolve(signal);
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  if (cli.json) {
    console.log(JSON.stringify({
      base_url: sandbox.baseUrl,
      app_id: sandbox.appId,
      app_secret: sandbox.appSecret,
    }));
  } else {
    console.log(`hark sandbox listening on ${sandbox.baseUrl}`);
    console.log(`app id: ${sandbox.appId}`);
    console.log(`app secret: ${sandbox.appSecret}`);
    console.log(`verification page: ${sandbox.baseUrl}/sandbox/verify`);
    console.log(
      `approve a code from a shell: curl -d '{"user_code": "ABCD-EFGH", "decision": "approve"}' ` +
        `${sandbox.baseUrl}/sandbox/approve  (decision: "approve" or "deny")`,
    );
  }
  const signal = await stopped;
  for (const [name, handler] of handlers) Deno.removeSignalListener(name, handler);
  await sandbox.close();
  console.error(`hark sandbox: stopped on ${signal}`);
  return 0;
}

// Set the exit code and let the event loop end, rather than exiting from under open work.
if (import.meta.main) Deno.exitCode = await main(Deno.args);
