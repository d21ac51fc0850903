/**
 * Interactive prompts, only when stdin and stdout are terminals. Without a terminal a prompt
 * fails at once with exit 2, naming the flag that would have answered it.
 *
 * The prompt library is imported when a prompt is actually shown: it brings Deno's Node
 * compatibility layer (`node:readline`, `node:async_hooks`, `node:tty`), which costs more than
 * the rest of hark's start-up together.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { CancelledError, ValidationError } from "../errors/mod.ts";

/**
 * Whether prompts are possible: stdin and stdout are both terminals.
 *
 * @param ctx the context
 */
export function canPrompt(ctx: Context): boolean {
  return ctx.stdin.isTerminal && ctx.stdout.isTerminal;
}

function requireTerminal(
  ctx: Context,
  question: string,
  flag: string,
  options: { isSwitch?: boolean } = {},
): void {
  if (!canPrompt(ctx)) {
    throw new ValidationError(`Cannot ask "${question}" without a terminal: pass ${flag}`, {
      param: flag,
      suggestion: `Answer it on the command line with ${flag}`,
      // A switch answers it as it is: the recovery is the same command with it.
      rerunWith: options.isSwitch ? flag : undefined,
    });
  }
}

type Inquirer = typeof import("@inquirer/prompts");

async function guard<T>(
  ctx: Context,
  ask: (inquirer: Inquirer, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await ask(await import("@inquirer/prompts"), ctx.signal);
  } catch (error) {
    if (error instanceof Error && ["ExitPromptError", "AbortPromptError"].includes(error.name)) {
      throw new CancelledError("Cancelled at the prompt");
    }
    throw error;
  }
}

/**
 * Asks a yes/no question; default no.
 *
 * @param ctx the context
 * @param question the question
 * @param flag the flag that answers it without a terminal, such as `--yes`
 * @throws {ValidationError} without a terminal
 */
export function confirm(ctx: Context, question: string, flag: string): Promise<boolean> {
  requireTerminal(ctx, question, flag, { isSwitch: true });
  return guard(
    ctx,
    ({ confirm }, signal) => confirm({ message: question, default: false }, { signal }),
  );
}

/**
 * Asks for a line of text.
 *
 * @param ctx the context
 * @param question the question
 * @param flag the flag that answers it without a terminal
 * @param options a default and a validator returning an error text or `true`
 */
export function askText(
  ctx: Context,
  question: string,
  flag: string,
  options: { default?: string; validate?: (value: string) => string | true } = {},
): Promise<string> {
  requireTerminal(ctx, question, flag);
  return guard(ctx, ({ input }, signal) =>
    input(
      { message: question, default: options.default, validate: options.validate },
      { signal },
    ));
}

/**
 * Asks for a secret; what is typed is masked.
 *
 * @param ctx the context
 * @param question the question
 * @param flag the flag that answers it without a terminal
 * @param validate checks the answer: `true`, or what is wrong with it; default not empty
 */
export function askSecret(
  ctx: Context,
  question: string,
  flag: string,
  validate: (value: string) => string | true = (v) => (v.length > 0 ? true : "Required"),
): Promise<string> {
  requireTerminal(ctx, question, flag);
  return guard(
    ctx,
    ({ password }, signal) => password({ message: question, mask: "*", validate }, { signal }),
  );
}

/**
 * Asks to pick one of several choices.
 *
 * @param ctx the context
 * @param question the question
 * @param flag the flag that answers it without a terminal
 * @param choices the choices, each with a name shown and a value returned
 */
export function askChoice<T extends string>(
  ctx: Context,
  question: string,
  flag: string,
  choices: { name: string; value: T }[],
): Promise<T> {
  requireTerminal(ctx, question, flag);
  return guard(ctx, ({ select }, signal) => select({ message: question, choices }, { signal }));
}
