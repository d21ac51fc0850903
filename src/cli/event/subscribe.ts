/**
 * Runs `hark event +subscribe`: checks the flags, opens the session as the bot, takes the
 * app's subscriber lock, and runs the subscriber until Ctrl-C or SIGTERM.
 *
 * @module
 */

import { resolveAppCredentials } from "../../auth/app_credentials.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { ExitCode } from "../../errors/exit_code.ts";
import { connectEvents, ENDPOINT_PATH } from "../../events/connect.ts";
import { createSink, parsePattern, parseRoute } from "../../events/event_sink.ts";
import { runSubscriber } from "../../events/subscriber.ts";
import { fileKeychainDir } from "../../keychain/mod.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { joinPath, parentFolder } from "../../path.ts";
import { openSession } from "../../session/session.ts";
import type { Context } from "../../context.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import type { SUBSCRIBE_FLAGS } from "./event.ts";

const EVENT_TYPE = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/;

/**
 * `hark event +subscribe`.
 *
 * @param call the parsed command
 * @throws {ValidationError} for a bad flag, `--as user`, or no app credentials (exit 2)
 * @throws {AuthError} when the service refuses the credentials (exit 3)
 * @throws {HarkError} of type `lock` when another subscriber of the app runs (exit 1)
 */
export async function runSubscribe(
  call: CommandCall<FlagValuesOf<typeof SUBSCRIBE_FLAGS>>,
): Promise<void> {
  const { ctx, flags, globals } = call;
  const types = (flags["event-types"] ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  for (const type of types) {
    if (!EVENT_TYPE.test(type)) {
      throw new ValidationError(`Invalid event type "${type}" in --event-types`, {
        param: "--event-types",
        suggestion: "Give types such as im.message.receive_v1, comma separated",
      });
    }
  }
  const filter = flags.filter === undefined ? undefined : parsePattern(flags.filter, "--filter");
  const routes = (flags.route ?? []).map(parseRoute);
  if (globals.as === "user") {
    throw new ValidationError("event +subscribe runs as the bot only", {
      param: "--as",
      suggestion: "Drop --as user: events come to the app, with its id and secret",
    });
  }
  const session = await openSession(ctx, globals);
  session.requireSetup("app");
  const baseUrl = session.baseUrl();
  const plan = {
    action: "event +subscribe",
    endpoint: baseUrl + ENDPOINT_PATH,
    event_types: types.length > 0 ? types : "all",
    filter: flags.filter ?? null,
    output_dir: flags["output-dir"] ?? null,
    routes: flags.route ?? [],
  };
  if (session.previewChange(plan)) return;
  const { appId, appSecret } = await resolveAppCredentials(
    ctx,
    session,
    session.service(),
    baseUrl + ENDPOINT_PATH,
  );
  const status = (line: string) => {
    if (!flags.quiet) ctx.stderr.write(`${line}\n`);
  };
  const warn = (line: string) => ctx.stderr.write(`warning: ${terminalSafe(line)}\n`);
  const release = await takeLock(ctx, appId, flags.force === true, warn);
  try {
    const write = createSink(ctx, {
      outputDir: flags["output-dir"],
      routes,
      compact: flags.compact === true,
    });
    const summary = await runSubscriber({
      now: () => ctx.now(),
      sleep: (ms, signal) => ctx.sleep(ms, signal),
      random: () => new DataView(ctx.randomBytes(4).buffer).getUint32(0) / 2 ** 32,
      connect: () => connectEvents(ctx, { baseUrl, appId, appSecret }),
      write,
      accept: (type) =>
        (types.length === 0 || types.includes(type)) && (filter?.test(type) ?? true),
      warn,
      status,
      signal: ctx.signal,
    });
    status(
      `Stopped: ${summary.written} events written, ${summary.duplicates} repeats skipped, ` +
        `${summary.reconnects} reconnects`,
    );
  } finally {
    await release?.();
  }
}

/**
 * Takes the app's subscriber lock (`<data folder>/events/<app id>.lock`). Without `force`, a
 * lock held by another subscriber is an error; with it, a warning.
 */
async function takeLock(
  ctx: Context,
  appId: string,
  force: boolean,
  warn: (line: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  let dir: string;
  try {
    dir = joinPath(ctx.os, parentFolder(ctx.os, fileKeychainDir(ctx)), "events");
  } catch {
    throw new ValidationError("Cannot place the subscriber lock: no home folder", {
      param: "HARK_DATA_DIR",
      suggestion: "Set HARK_DATA_DIR to a folder for hark's data",
    });
  }
  await ctx.fs.mkdir(dir, 0o700);
  const path = joinPath(ctx.os, dir, `${appId.replace(/[^A-Za-z0-9_-]/g, "_")}.lock`);
  const release = await ctx.fs.tryLock(path);
  if (release) return release;
  const why = "the service splits events across connections, so each subscriber receives " +
    "only some of them";
  if (!force) {
    throw new HarkError(
      ExitCode.General,
      "lock",
      `Another hark event +subscribe is running for app ${appId}`,
      {
        suggestion: `Stop it first; --force runs beside it, but ${why}`,
        command: "hark event +subscribe --force",
      },
    );
  }
  warn(`--force: another subscriber is running for app ${appId}; ${why}`);
  return undefined;
}
