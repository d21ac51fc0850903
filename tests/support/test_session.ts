/**
 * A {@link Session} for unit tests of commands and of the MCP server: a test context, global flags with defaults, and a
 * config given in full (nothing is read from disk).
 *
 * @module
 */

import type { Config } from "../../src/config/mod.ts";
import type { TestContext } from "./test_context.ts";
import type { GlobalOptions } from "../../src/session/global_options.ts";
import { Session } from "../../src/session/session.ts";

/** A session whose context is a {@link TestContext}. */
export type TestSession = Session & { ctx: TestContext };

/**
 * Builds a session for a test.
 *
 * @param ctx the test context
 * @param globals global flags; unset ones are off
 * @param config the config; default `{}`
 * @param configPath the config's path; default one that does not exist
 */
export function testSession(
  ctx: TestContext,
  globals: Partial<GlobalOptions> = {},
  config: Config = {},
  configPath = "/nonexistent/hark/config.json",
): TestSession {
  const all: GlobalOptions = { json: false, dryRun: false, color: false, debug: false, ...globals };
  return new Session(ctx, all, configPath, config) as TestSession;
}
