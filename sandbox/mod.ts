/**
 * The hark sandbox: a local, stateful, Lark-compatible service for end-to-end tests, the demo and
 * benchmarks. Not part of the hark binary.
 *
 * @example
 * ```ts
 * import { startSandbox } from "./mod.ts";
 * const sandbox = await startSandbox({ port: 0, autoApproveAfter: 1, interval: 0 });
 * // point hark at sandbox.baseUrl with sandbox.appId / sandbox.appSecret
 * await sandbox.close();
 * ```
 *
 * @module
 */

export { type Sandbox, type SandboxOptions, startSandbox } from "./start_sandbox.ts";
export { type ActiveFault, FAULT_KINDS, type FaultSpec } from "./operations/fault_registry.ts";
export type { LoggedRequest, RequestStats } from "./operations/request_log.ts";
export type {
  Attendee,
  CalendarEvent,
  EventTime,
  RsvpStatus,
  SeedChat,
  SeedUser,
} from "./core/seed_data.ts";
export type { Occurrence } from "./calendar/expand_event.ts";
export type { Calendar, CreatedEvent, StoredEvent } from "./calendar/calendar_store.ts";
export type { SentMessage } from "./core/context.ts";
export { CHAT_WITHOUT_BOT, CHAT_WITHOUT_FIRST_USER } from "./core/seed_data.ts";
export type { MessageItem } from "./im/im_store.ts";
export type { TokenGrant } from "./oauth/auth_store.ts";
export { parseSandboxArgs, type SandboxCliOptions } from "./parse_sandbox_args.ts";
