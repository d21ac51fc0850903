/**
 * The shortcuts as commands (`hark calendar +agenda`), loaded with their service group
 * (`service_commands.ts`) only when it is named. Each shortcut command has a flag per parameter,
 * `--input`, examples and a note of its identities and scopes, and runs the shortcut lifecycle on
 * a session.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import {
  type AnyShortcut,
  identitiesOf,
  optionalScopesFor,
  scopesFor,
} from "../shortcuts/definition.ts";
import type { ShortcutSession } from "../shortcuts/lifecycle.ts";
import { envVarOf, paramHelp, valueNameOf } from "../shortcuts/params.ts";
import type { CommandCall, CommandSpec, FlagSpec } from "./command_spec.ts";
import type { Session } from "../session/session.ts";

/** The flag every shortcut takes besides its parameters. */
export const INPUT_FLAG: FlagSpec = {
  name: "input",
  value: "<path>",
  description: "a JSON file of parameter values; - reads it from stdin",
};

/**
 * The command of one shortcut.
 *
 * @param shortcut the definition
 */
export function shortcutCommand(shortcut: AnyShortcut): CommandSpec {
  // The help lines and the notes are written when help, completion or `hark schema` reads them:
  // every command of the group is built, and the one that runs reads none of them.
  const flags: FlagSpec[] = shortcut.params.map((param) => ({
    name: param.name,
    value: param.type === "bool" ? undefined : valueNameOf(param),
    get description() {
      return paramHelp(param);
    },
    // Offered by completion; the parameter's own check refuses other values.
    ...(param.allowed ? { suggestions: param.allowed } : {}),
  }));
  flags.push(INPUT_FLAG);
  return {
    name: shortcut.verb,
    description: shortcut.description,
    flags,
    examples: shortcut.examples,
    shortcut,
    get notes() {
      return shortcutNotes(shortcut);
    },
    run: async (call: CommandCall) => {
      const [{ openSession }, { runShortcut }] = await Promise.all([
        import("../session/session.ts"),
        import("../shortcuts/lifecycle.ts"),
      ]);
      const argv: Record<string, unknown> = {};
      for (const param of shortcut.params) argv[param.name] = call.flags[param.name];
      const { input } = call.flags;
      const session = await openSession(call.ctx, call.globals);
      await runShortcut(shortcutSession(session), shortcut, {
        argv,
        input: typeof input === "string" ? input : undefined,
      });
    },
  };
}

/**
 * The narrow view of a session a shortcut runs on.
 *
 * @param session the command's session
 */
export function shortcutSession(session: Session): ShortcutSession {
  return {
    ctx: session.ctx,
    config: session.config,
    profile: session.profile,
    dryRun: session.globals.dryRun,
    as: session.globals.as,
    output: session.output,
    baseUrl: () => session.baseUrl(),
    async connect(identity: Identity) {
      const client = session.client(identity);
      await session.tokens(identity).getToken();
      return client;
    },
    async confirm(question: string, flag: string) {
      const { confirm } = await import("./prompt.ts");
      return await confirm(session.ctx, question, flag);
    },
    // Missing required values are asked for only where someone can answer.
    ask: session.ctx.stdin.isTerminal && session.ctx.stdout.isTerminal
      ? async (question: string, flag: string) => {
        const { askText } = await import("./prompt.ts");
        return await askText(session.ctx, question, flag, {
          validate: (value) => value.trim() === "" ? `${flag} is required` : true,
        });
      }
      : undefined,
  };
}

/** The notes of a shortcut's help: its identities, their scopes, and where values come from. */
function shortcutNotes(shortcut: AnyShortcut): string {
  const identities = identitiesOf(shortcut);
  return `Identities: ${identities.join(", ")} (default ${identities[0]}; choose with --as)\n` +
    identities.map((id) => `Scopes as ${id}: ${scopesText(shortcut, id)}\n`).join("") +
    tenantCallsText(shortcut) +
    "Values come from flags, then --input, then stdin, then environment variables " +
    `(${shortcut.params.slice(0, 2).map((p) => envVarOf(shortcut.service, p)).join(", ")}, …)`;
}

/** The scopes line of an identity in a shortcut's help: required, then optional. */
function scopesText(shortcut: AnyShortcut, identity: Identity): string {
  const required = scopesFor(shortcut, identity).join(", ") || "none";
  const optional = optionalScopesFor(shortcut, identity);
  return optional.length === 0
    ? required
    : `${required}; optional (what they unlock is left out without): ${optional.join(", ")}`;
}

/** The help line of the calls a shortcut makes with the tenant token whatever --as. */
function tenantCallsText(shortcut: AnyShortcut): string {
  const tenant = shortcut.scopes.tenantCalls;
  if (!tenant) return "";
  return `With ${tenant.when}: Lark takes that call only with the app's tenant token, so it ` +
    `goes as the bot whatever --as; the app needs ${tenant.scopes.join(", ")}\n`;
}
