/**
 * The rules every shortcut definition follows, checked by a test over all of them.
 *
 * @module
 */

import {
  type AnyShortcut,
  identitiesOf,
  PARAM_TYPES,
  shortcutName,
} from "../../src/shortcuts/definition.ts";
import type { ServiceGroup } from "../../src/shortcuts/services.ts";

/** Flags the framework or the root command own, which a shortcut parameter may not reuse. */
export const RESERVED_FLAGS: readonly string[] = [
  "input",
  "json",
  "format",
  "dry-run",
  "color",
  "no-color",
  "profile",
  "as",
  "debug",
  "csv-raw",
  "help",
  "version",
];

/**
 * The mistakes in a set of service groups: duplicate names, a missing description or example,
 * a verb without its plus sign, a shortcut in the wrong group, bad parameters. Empty when all is
 * well; a test keeps it empty for every registered service.
 *
 * @param services the groups
 */
export function registryProblems(services: readonly ServiceGroup[]): string[] {
  const problems: string[] = [];
  const groupNames = new Set<string>();
  const names = new Set<string>();
  for (const group of services) {
    if (groupNames.has(group.name)) problems.push(`duplicate service "${group.name}"`);
    groupNames.add(group.name);
    if (!group.description?.trim()) problems.push(`service "${group.name}" has no description`);
    if (group.examples.length === 0) problems.push(`service "${group.name}" has no example`);
    for (const shortcut of group.shortcuts) problems.push(...shortcutProblems(group, shortcut));
    for (const shortcut of group.shortcuts) {
      const name = shortcutName(shortcut);
      if (names.has(name)) problems.push(`duplicate shortcut "${name}"`);
      names.add(name);
    }
  }
  return problems;
}

function shortcutProblems(group: ServiceGroup, shortcut: AnyShortcut): string[] {
  const name = shortcutName(shortcut);
  const problems: string[] = [];
  if (shortcut.service !== group.name) {
    problems.push(`"${name}" is listed under service "${group.name}"`);
  }
  if (!/^\+[a-z][a-z0-9-]*$/.test(shortcut.verb)) {
    problems.push(`"${name}": the verb must be a plus sign and lower-case words`);
  }
  if (!shortcut.description?.trim()) problems.push(`"${name}" has no description`);
  if (shortcut.examples.length === 0) problems.push(`"${name}" has no example`);
  for (const example of shortcut.examples) {
    if (!example.startsWith(`hark ${name}`) && !example.includes(`| hark ${name}`)) {
      problems.push(`"${name}": example "${example}" does not run it`);
    }
  }
  if (identitiesOf(shortcut).length === 0) problems.push(`"${name}" supports no identity`);
  const { optional, tenantCalls, alternatives } = shortcut.scopes;
  const listed = new Set<string>();
  for (const identity of identitiesOf(shortcut)) {
    if (!shortcut.scopes[identity]) problems.push(`"${name}" declares no scopes for ${identity}`);
    for (const scope of shortcut.scopes[identity] ?? []) listed.add(scope);
    for (const scope of optional?.[identity] ?? []) {
      listed.add(scope);
      if (shortcut.scopes[identity]?.includes(scope)) {
        problems.push(`"${name}": scope "${scope}" is both required and optional`);
      }
    }
  }
  for (const scope of tenantCalls?.scopes ?? []) listed.add(scope);
  if (tenantCalls && (!tenantCalls.when.trim() || tenantCalls.scopes.length === 0)) {
    problems.push(`"${name}": its tenant-token calls need a "when" and scopes`);
  }
  for (const [scope, others] of Object.entries(alternatives ?? {})) {
    if (!listed.has(scope)) problems.push(`"${name}": alternatives of "${scope}", not listed`);
    others.forEach((other) => listed.add(other));
  }
  for (const scope of listed) {
    if (!/^[\w.-]+(:[\w.-]+){1,2}$/.test(scope)) {
      problems.push(`"${name}": scope "${scope}" is not <service>:<resource>[:<action>]`);
    }
  }
  if (!["read", "write", "delete"].includes(shortcut.effect)) {
    problems.push(`"${name}" has no effect (read, write or delete)`);
  }
  if ((shortcut.run === undefined) === (shortcut.stream === undefined)) {
    problems.push(`"${name}" needs exactly one of run and stream`);
  }
  const params = new Set<string>();
  for (const param of shortcut.params) {
    if (params.has(param.name)) problems.push(`"${name}": duplicate parameter "${param.name}"`);
    params.add(param.name);
    if (RESERVED_FLAGS.includes(param.name)) {
      problems.push(`"${name}": parameter "${param.name}" clashes with a global flag`);
    }
    if (!/^[a-z][a-z0-9-]*$/.test(param.name)) {
      problems.push(`"${name}": parameter "${param.name}" is not kebab-case`);
    }
    if (!PARAM_TYPES.includes(param.type)) {
      problems.push(`"${name}": parameter "${param.name}" has unknown type "${param.type}"`);
    }
    if (!param.description?.trim()) {
      problems.push(`"${name}": parameter "${param.name}" has no description`);
    }
    if (param.type === "enum" && !(param.allowed && param.allowed.length > 0)) {
      problems.push(`"${name}": enum parameter "${param.name}" has no allowed values`);
    }
    if (param.required && param.default !== undefined) {
      problems.push(`"${name}": parameter "${param.name}" is required and has a default`);
    }
  }
  // A write's key parameter is named, so the lifecycle fills it and every retry carries it.
  const keyParam = shortcut.params.find((p) => p.name === "idempotency-key");
  if (keyParam !== undefined && shortcut.idempotencyKey !== keyParam.name) {
    problems.push(`"${name}": parameter "idempotency-key" is not named in idempotencyKey`);
  }
  if (
    shortcut.idempotencyKey !== undefined &&
    !shortcut.params.some((p) => p.name === shortcut.idempotencyKey && p.type === "string")
  ) {
    problems.push(`"${name}": idempotencyKey "${shortcut.idempotencyKey}" is no string parameter`);
  }
  return problems;
}
