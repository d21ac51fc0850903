/**
 * Running a call of an API method's tool: the identity, the confirmation a destructive method
 * needs, the idempotency key hark derives when none is given, then the request built and checked
 * exactly as the command line builds it (`buildMethodRequest`), previewed or sent with the
 * session's client (sign-in, retries, errors).
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import { buildMethodRequest } from "../catalogue/method_request.ts";
import { ValidationError } from "../errors/mod.ts";
import { previewRequest } from "../http/request.ts";
import type { JsonObject } from "../json/fields.ts";
import type { Session } from "../session/session.ts";
import type { DerivedKeys } from "./derived_key.ts";
import { argumentLabel, methodInputOf, type MethodTool, PLACE_ARGUMENTS } from "./method_tool.ts";
import type { ToolOutput } from "./tool_result.ts";
import { EXTRA_ARGUMENTS } from "./tool_schema.ts";

/** One call of a method's tool. */
export interface MethodCall {
  /** The session every call shares. */
  session: Session;
  /** The tool. */
  entry: MethodTool;
  /** The arguments given, checked against the schema's names and required ones. */
  values: Record<string, unknown>;
  /** Who acts: `hark mcp --as`, else `as`, else the method's first identity. */
  identity: Identity;
  /** Whether only to preview. */
  dryRun: boolean;
  /** Derives the idempotency key of a write that has one. */
  keys: DerivedKeys;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
}

/**
 * Runs one call.
 *
 * @param call the call
 * @returns the answer's data, or the request's preview for a dry run
 * @throws {ValidationError} before anything is sent: a destructive call without `yes: true`, an
 *   argument that is not an object, a value the method refuses (named `data.<field>`)
 * @throws {HarkError} the errors of the API client
 */
export async function runMethodCall(call: MethodCall): Promise<ToolOutput> {
  const { entry, values, session } = call;
  const { method } = entry;
  if (entry.needsYes && !call.dryRun && values[EXTRA_ARGUMENTS.yes] !== true) {
    throw new ValidationError(
      `Cannot run ${entry.tool.name} without confirmation: it ${
        method.http === "DELETE" ? "deletes" : "may overwrite or remove"
      } data in Lark with no way back`,
      {
        param: EXTRA_ARGUMENTS.yes,
        suggestion: "Confirm with the person you act for, then call again with yes: true " +
          "(or preview with dry_run: true)",
      },
    );
  }
  const input = methodInputOf(values);
  const key = entry.key;
  if (key !== undefined) {
    const place = key.place === "query" ? "query" : "body";
    const holder: JsonObject = { ...(input[place] ?? {}) };
    if (holder[key.name] === undefined || holder[key.name] === null) {
      const facts: Record<string, unknown> = {};
      for (const name of Object.values(PLACE_ARGUMENTS)) {
        if (values[name] !== undefined) facts[name] = values[name];
      }
      holder[key.name] = await call.keys.keyOf({
        tool: entry.tool.name,
        profile: session.profile,
        identity: call.identity,
        arguments: facts,
      });
      input[place] = holder;
    }
  }
  const request = buildMethodRequest(method, input, { label: argumentLabel });
  const output = { command: `hark ${method.command.join(" ")}`, dryRun: call.dryRun, warnings: [] };
  if (call.dryRun) return { ...output, data: [previewRequest(session.baseUrl(), request)] };
  const client = session.client(call.identity);
  // The sign-in is checked before the request, as a shortcut's connect() does: a token resolved
  // for the request itself would spare the next call, a later one, its look at the sign-in
  // (`FIRST_USE_MS`), and a sign-out in between would not stop it.
  await session.tokens(call.identity).getToken();
  const data = await client.request({ ...request, signal: call.signal });
  return { ...output, data: data ?? {} };
}
