/**
 * Reading the generated catalogue's JSON text into its types, checking every value on the way:
 * the files are built with hark, so anything unexpected is a bug (a generator and a loader out
 * of step) and fails loudly, naming the file and the place.
 *
 * @module
 */

import { InternalError } from "../errors/hark_error.ts";
import { isObject, type JsonObject } from "../json/fields.ts";
import { isOneOf } from "../json/is_one_of.ts";
import {
  CATALOGUE_FORMAT,
  CATALOGUE_HTTP_METHODS,
  CATALOGUE_IDENTITIES,
  type CatalogueField,
  type CatalogueIndex,
  type CatalogueMethod,
  type CataloguePart,
  FIELD_TYPES,
  type IndexResource,
  type IndexService,
} from "./format.ts";

/** Reads one file, failing with the file's name and the place of the first bad value. */
class Reader {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  fail(at: string, what: string): never {
    throw new InternalError(
      `The API catalogue is damaged: ${this.#file} at ${at}: ${what} (regenerate it: ` +
        "deno run -A scripts/gen_catalogue.ts)",
    );
  }

  object(value: unknown, at: string): JsonObject {
    return isObject(value) ? value : this.fail(at, "expected an object");
  }

  list(value: unknown, at: string): unknown[] {
    return Array.isArray(value) ? value : this.fail(at, "expected a list");
  }

  string(value: unknown, at: string): string {
    return typeof value === "string" ? value : this.fail(at, "expected a string");
  }

  scalar(value: unknown, at: string): string | number | boolean {
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? value
      : this.fail(at, "expected a string, a number or a boolean");
  }

  strings(value: unknown, at: string): string[] {
    return this.list(value, at).map((v, i) => this.string(v, `${at}[${i}]`));
  }

  oneOf<T>(list: readonly T[], value: unknown, at: string): T {
    return isOneOf(list, value) ? value : this.fail(at, `expected one of ${list.join(", ")}`);
  }

  format(value: JsonObject, at: string): void {
    if (value.format !== CATALOGUE_FORMAT) {
      this.fail(`${at}.format`, `expected format ${CATALOGUE_FORMAT}, got ${value.format}`);
    }
  }

  field(value: unknown, at: string): CatalogueField {
    const o = this.object(value, at);
    const field: CatalogueField = {
      name: this.string(o.name ?? "", `${at}.name`),
      type: this.oneOf(FIELD_TYPES, o.type, `${at}.type`),
      required: o.required === true,
      description: this.string(o.description ?? "", `${at}.description`),
    };
    if (o.values !== undefined) field.values = this.strings(o.values, `${at}.values`);
    if (o.fields !== undefined) field.fields = this.fields(o.fields, `${at}.fields`);
    if (o.items !== undefined) field.items = this.field(o.items, `${at}.items`);
    if (o.nullable === true) field.nullable = true;
    if (["string", "number", "boolean"].includes(typeof o.default)) {
      field.default = this.scalar(o.default, `${at}.default`);
    }
    if (field.type === "enum" && !field.values) this.fail(at, "an enum without values");
    if (field.type === "array" && !field.items) this.fail(at, "an array without items");
    return field;
  }

  fields(value: unknown, at: string): CatalogueField[] {
    return this.list(value, at).map((f, i) => this.field(f, `${at}[${i}]`));
  }

  method(value: unknown, at: string): CatalogueMethod {
    const o = this.object(value, at);
    const command = this.strings(o.command, `${at}.command`);
    if (command.length !== 3) this.fail(`${at}.command`, "expected three words");
    const method: CatalogueMethod = {
      id: this.string(o.id, `${at}.id`),
      command: [command[0], command[1], command[2]],
      http: this.oneOf(CATALOGUE_HTTP_METHODS, o.http, `${at}.http`),
      path: this.string(o.path, `${at}.path`),
      identities: this.list(o.identities, `${at}.identities`).map((v, i) =>
        this.oneOf(CATALOGUE_IDENTITIES, v, `${at}.identities[${i}]`)
      ),
      summary: this.string(o.summary ?? "", `${at}.summary`),
      description: this.string(o.description ?? "", `${at}.description`),
      pathParams: this.fields(o.pathParams, `${at}.pathParams`),
      query: this.fields(o.query, `${at}.query`),
    };
    if (method.identities.length === 0) this.fail(`${at}.identities`, "no identity");
    if (o.body !== undefined) method.body = this.fields(o.body, `${at}.body`);
    if (o.paging !== undefined) {
      method.paging = this.oneOf(["query", "body"] as const, o.paging, `${at}.paging`);
    }
    if (o.idempotencyKey !== undefined) {
      const key = this.object(o.idempotencyKey, `${at}.idempotencyKey`);
      method.idempotencyKey = {
        place: this.oneOf(["query", "body"] as const, key.place, `${at}.idempotencyKey.place`),
        name: this.string(key.name, `${at}.idempotencyKey.name`),
      };
    }
    return method;
  }

  resource(value: unknown, at: string): IndexResource {
    const o = this.object(value, at);
    return {
      name: this.string(o.name, `${at}.name`),
      aliases: this.strings(o.aliases ?? [], `${at}.aliases`),
      title: this.string(o.title ?? "", `${at}.title`),
      methods: this.list(o.methods, `${at}.methods`).map((m, i) => {
        const entry = this.object(m, `${at}.methods[${i}]`);
        return {
          name: this.string(entry.name, `${at}.methods[${i}].name`),
          id: this.string(entry.id, `${at}.methods[${i}].id`),
        };
      }),
    };
  }

  service(value: unknown, at: string): IndexService {
    const o = this.object(value, at);
    return {
      name: this.string(o.name, `${at}.name`),
      title: this.string(o.title ?? "", `${at}.title`),
      groups: this.strings(o.groups, `${at}.groups`),
      resources: this.list(o.resources, `${at}.resources`).map((r, i) =>
        this.resource(r, `${at}.resources[${i}]`)
      ),
    };
  }
}

/** Parses a file's JSON text, failing like {@link Reader}. */
function parse(reader: Reader, text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return reader.fail("the start", `not JSON (${error instanceof Error ? error.message : error})`);
  }
  return reader.object(value, "the top");
}

/**
 * Reads the catalogue's index, checking all of it.
 *
 * @param text the index's JSON text
 * @throws {InternalError} naming the first bad value
 */
export function readIndex(text: string): CatalogueIndex {
  return openIndex(text).all();
}

/** What the command tree needs of a service before it is named: no resources. */
export interface ServiceHeader {
  /** The command name: `docx`. */
  name: string;
  /** What it is, for listings. */
  title: string;
  /** The command name of its first resource, for an example. */
  firstResource?: string;
}

/** An index whose services are checked one by one, when asked for. */
export interface LazyIndex {
  /** Every service's name, title and first resource, checked. */
  headers(): ServiceHeader[];
  /**
   * A service, checked (once) when first asked for.
   *
   * @throws {InternalError} when it is damaged
   */
  service(name: string): IndexService | undefined;
  /**
   * The whole index, every service checked.
   *
   * @throws {InternalError} when it is damaged
   */
  all(): CatalogueIndex;
}

/**
 * Opens the index: parses it and checks its frame; a service (its resources and their methods,
 * most of the index) is checked when asked for, so an API command pays for its own service, not
 * the 1,266 methods of all of them (about 8 ms of cold code).
 *
 * @param text the index's JSON text
 * @throws {InternalError} naming the first bad value of the frame
 */
export function openIndex(text: string): LazyIndex {
  const reader = new Reader("the index");
  const o = parse(reader, text);
  reader.format(o, "index");
  const source = reader.string(o.source, "source");
  const raw = reader.list(o.services, "services").map((s, i) => reader.object(s, `services[${i}]`));
  const names = raw.map((s, i) => reader.string(s.name, `services[${i}].name`));
  const checked = new Map<number, IndexService>();
  const service = (at: number): IndexService => {
    let found = checked.get(at);
    if (!found) {
      found = reader.service(raw[at], `services[${at}]`);
      checked.set(at, found);
    }
    return found;
  };
  return {
    headers: () =>
      raw.map((s, i) => {
        const at = `services[${i}]`;
        const title = reader.string(s.title ?? "", `${at}.title`);
        const [first] = reader.list(s.resources, `${at}.resources`);
        if (first === undefined) return { name: names[i], title };
        const firstResource = reader.string(
          reader.object(first, `${at}.resources[0]`).name,
          `${at}.resources[0].name`,
        );
        return { name: names[i], title, firstResource };
      }),
    service: (name) => {
      const at = names.indexOf(name);
      return at < 0 ? undefined : service(at);
    },
    all: () => ({
      format: CATALOGUE_FORMAT,
      source,
      services: raw.map((_, i) => service(i)),
      leftOut: reader.list(o.leftOut ?? [], "leftOut").map((entry, i) => {
        const e = reader.object(entry, `leftOut[${i}]`);
        return {
          id: reader.string(e.id, `leftOut[${i}].id`),
          reason: reader.string(e.reason, `leftOut[${i}].reason`),
        };
      }),
    }),
  };
}

/**
 * Reads one part of the catalogue (a resource's methods), checking every method.
 *
 * @param name the part's name (`docx_v1.document`)
 * @param text its JSON text
 * @throws {InternalError} naming the first bad value
 */
export function readPart(name: string, text: string): CataloguePart {
  const lazy = openPart(name, text);
  const [group, resource] = name.split(".");
  return {
    format: CATALOGUE_FORMAT,
    group,
    resource,
    methods: lazy.ids.map((id) => lazy.method(id)).flatMap((m) => m ? [m] : []),
  };
}

/** A part whose methods are checked one by one, when asked for. */
export interface LazyPart {
  /** The ids of its methods, in order. */
  ids: string[];
  /**
   * A method, checked (once) when first asked for.
   *
   * @throws {InternalError} when it is damaged
   */
  method(id: string): CatalogueMethod | undefined;
}

/**
 * Opens a part: parses it and checks its frame and its methods' ids; each method is checked
 * when asked for, so a command pays for the one method it runs.
 *
 * @param name the part's name, for messages (`docx_v1.document`)
 * @param text its JSON text
 * @throws {InternalError} naming the first bad value of the frame
 */
export function openPart(name: string, text: string): LazyPart {
  const reader = new Reader(`part ${name}`);
  const o = parse(reader, text);
  reader.format(o, "part");
  const part = `${reader.string(o.group, "group")}.${reader.string(o.resource, "resource")}`;
  if (part !== name) reader.fail("group", `expected "${name}", got "${part}"`);
  const raw = reader.list(o.methods, "methods");
  const ids = raw.map((m, i) =>
    reader.string(reader.object(m, `methods[${i}]`).id, `methods[${i}].id`)
  );
  const checked = new Map<number, CatalogueMethod>();
  return {
    ids,
    method(id) {
      const at = ids.indexOf(id);
      if (at < 0) return undefined;
      let method = checked.get(at);
      if (!method) {
        method = reader.method(raw[at], `methods[${at}]`);
        checked.set(at, method);
      }
      return method;
    },
  };
}
