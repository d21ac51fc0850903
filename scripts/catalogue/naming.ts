/**
 * The naming rule of the API commands: `hark <service> <resource> <method>` from the method id
 * `<service>.<version>.<resource>.<method>`.
 *
 * 1. Each part in kebab-case: `calendar.v4.calendarEvent.instanceView` →
 *    `calendar calendar-event instance-view`; `speech_to_text` → `speech-to-text`.
 * 2. Where lark-cli names the same resource differently (its plural names: `events`, `messages`,
 *    `tasks`), hark uses lark-cli's name ({@link LARK_CLI_RESOURCES}), and the name of rule 1
 *    stays an alias: `hark calendar events instance-view` is `hark calendar calendar-event
 *    instance-view`.
 * 3. The version appears only where a service has several and a resource name is in more than
 *    one of them: the newest version keeps the name, the older ones get the version as a
 *    suffix (`task.v1.task.create` → `hark task task-v1 create`; `task.v2.task.create` →
 *    `hark task tasks create`).
 * 4. A service whose name is one of hark's own commands (`auth`, `config`…) gets `-api`.
 *
 * @module
 */

/**
 * lark-cli's names of resources the catalogue has too, by `<service>.<version>.<resource>` of
 * the method id: read from the "API Resources" sections of lark-cli's skills
 * (`skills/lark-*\/SKILL.md` in larksuite/cli), where `### <resource>` lists the methods
 * lark-cli runs as `lark-cli <service> <resource> <method>`; a dot or underscore there is a dash
 * here. Each entry was matched to the id whose resource and methods it names.
 */
export const LARK_CLI_RESOURCES: Readonly<Record<string, string>> = {
  "approval.v4.instance": "instances",
  "approval.v4.task": "tasks",
  "attendance.v1.userTask": "user-tasks",
  "calendar.v4.calendar": "calendars",
  "calendar.v4.calendarEvent": "events",
  "calendar.v4.calendarEventAttendee": "event-attendees",
  "calendar.v4.freebusy": "freebusys",
  "drive.v1.file": "files",
  "drive.v1.fileComment": "file-comments",
  "drive.v1.fileCommentReply": "file-comment-replys",
  "drive.v1.fileViewRecord": "file-view-records",
  "drive.v1.meta": "metas",
  "drive.v1.permissionMember": "permission-members",
  "im.v1.chat": "chats",
  "im.v1.message": "messages",
  "im.v1.messageReaction": "reactions",
  "im.v1.pin": "pins",
  "mail.v1.userMailboxFolder": "user-mailbox-folders",
  "mail.v1.userMailboxMailContact": "user-mailbox-mail-contacts",
  "mail.v1.userMailboxMessage": "user-mailbox-messages",
  "mail.v1.userMailboxMessageAttachment": "user-mailbox-message-attachments",
  "mail.v1.userMailboxRule": "user-mailbox-rules",
  "minutes.v1.minute": "minutes",
  "sheets.v3.spreadsheet": "spreadsheets",
  "sheets.v3.spreadsheetSheet": "spreadsheet-sheets",
  "sheets.v3.spreadsheetSheetFilter": "spreadsheet-sheet-filters",
  "sheets.v3.spreadsheetSheetFloatImage": "spreadsheet-sheet-float-images",
  "task.v2.customField": "custom-fields",
  "task.v2.customFieldOption": "custom-field-options",
  "task.v2.section": "sections",
  "task.v2.task": "tasks",
  "task.v2.taskSubtask": "subtasks",
  "task.v2.tasklist": "tasklists",
  "wiki.v2.space": "spaces",
  "wiki.v2.spaceMember": "members",
  "wiki.v2.spaceNode": "nodes",
};

/**
 * The names hark's own top-level commands take (and `help`): a service of the same name gets
 * `-api` (rule 4). The generator's test checks this list against the command tree.
 */
export const HARK_COMMANDS: readonly string[] = [
  "auth",
  "config",
  "profile",
  "api",
  "schema",
  "mcp",
  "completion",
  "skills",
  "help",
];

/**
 * hark's top-level commands that are also an API service's name on purpose: `hark event` holds
 * `+subscribe` and then the `event` service's API resources, as `hark calendar` holds its
 * shortcuts and then its API resources, so the service keeps its name.
 */
export const SHARED_SERVICE_COMMANDS: readonly string[] = ["event"];

/**
 * Kebab-case of an id part: `calendarEvent` → `calendar-event`, `speech_to_text` →
 * `speech-to-text`, `batchGetID` → `batch-get-id`.
 *
 * @param part a part of a method id
 */
export function kebab(part: string): string {
  return part
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/_/g, "-")
    .toLowerCase();
}

/** The command a method id gets. */
export interface CommandName {
  /** The words after `hark`: service, resource, method. */
  command: [string, string, string];
  /** The resource's other names (rule 2). */
  resourceAliases: string[];
}

/** The version number of `v4`, for ordering. */
function versionNumber(version: string): number {
  return Number(version.replace(/^v/, "")) || 0;
}

/**
 * The command of every method id, by the rules of the module comment.
 *
 * @param ids the method ids (each `<service>.<version>.<resource>.<method>`)
 * @param larkCli lark-cli's resource names; default {@link LARK_CLI_RESOURCES}
 * @returns the command of each id
 * @throws {Error} when an id is malformed, or two names of one service clash
 */
export function commandNames(
  ids: readonly string[],
  larkCli: Readonly<Record<string, string>> = LARK_CLI_RESOURCES,
): Map<string, CommandName> {
  const parsed = ids.map((id) => {
    const parts = id.split(".");
    if (parts.length !== 4 || parts.some((p) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(p))) {
      throw new Error(
        `Cannot name method "${id}": expected <service>.<version>.<resource>.<method>`,
      );
    }
    const [service, version, resource, method] = parts;
    return { id, service, version, resource, method };
  });
  // Rule 3: a rule-1 resource name in several versions of a service; the newest keeps it.
  const versionsOf = new Map<string, Set<string>>();
  for (const p of parsed) {
    const key = `${p.service} ${kebab(p.resource)}`;
    const versions = versionsOf.get(key) ?? new Set();
    versionsOf.set(key, versions.add(p.version));
  }
  const names = new Map<string, CommandName>();
  for (const p of parsed) {
    const service = HARK_COMMANDS.includes(kebab(p.service))
      ? `${kebab(p.service)}-api`
      : kebab(p.service);
    const versions = [...(versionsOf.get(`${p.service} ${kebab(p.resource)}`) ?? [])];
    const newest = versions.reduce((a, b) => versionNumber(a) >= versionNumber(b) ? a : b);
    const ruled = kebab(p.resource) + (p.version === newest ? "" : `-${p.version}`);
    const larkName = larkCli[`${p.service}.${p.version}.${p.resource}`];
    const resource = larkName ?? ruled;
    names.set(p.id, {
      command: [service, resource, kebab(p.method)],
      resourceAliases: larkName !== undefined && larkName !== ruled ? [ruled] : [],
    });
  }
  checkClashes(parsed.map((p) => ({ id: p.id, ...names.get(p.id)! })));
  return names;
}

/**
 * The entries of lark-cli's names that match no resource of the ids (after a newer package
 * dropped or renamed one).
 *
 * @param ids the method ids
 * @param larkCli lark-cli's resource names; default {@link LARK_CLI_RESOURCES}
 */
export function unusedLarkCliNames(
  ids: readonly string[],
  larkCli: Readonly<Record<string, string>> = LARK_CLI_RESOURCES,
): string[] {
  const resources = new Set(ids.map((id) => id.split(".").slice(0, 3).join(".")));
  return Object.keys(larkCli).filter((key) => !resources.has(key));
}

/** Fails when two resources of a service, or two methods of a resource, answer to one name. */
function checkClashes(
  entries: { id: string; command: string[]; resourceAliases: string[] }[],
): void {
  const resourceOf = new Map<string, string>();
  const methodOf = new Map<string, string>();
  for (const { id, command: [service, resource, method], resourceAliases } of entries) {
    const owner = id.split(".").slice(0, 3).join(".");
    for (const name of [resource, ...resourceAliases]) {
      if (name === "help") throw new Error(`Resource of "${id}" cannot be named help`);
      const key = `${service} ${name}`;
      const other = resourceOf.get(key);
      if (other !== undefined && other !== owner) {
        throw new Error(`"hark ${key}" would name both ${other} and ${owner}`);
      }
      resourceOf.set(key, owner);
    }
    const key = `${service} ${resource} ${method}`;
    const other = methodOf.get(key);
    if (other !== undefined || method === "help") {
      throw new Error(`"hark ${key}" would name both ${other ?? "help"} and ${id}`);
    }
    methodOf.set(key, id);
  }
}
