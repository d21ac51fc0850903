/**
 * The API catalogue as hark reads it: the index (services, resources, method names and ids) and
 * the parts (each a resource of a group, with its methods' parameters), each loaded on first use
 * and kept. A command that names an API method loads the index and that method's part only;
 * `--version`, `--help` and the shortcuts load nothing of it.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { InternalError } from "../errors/hark_error.ts";
import {
  CATALOGUE_FORMAT,
  type CatalogueGroup,
  type CatalogueIndex,
  type CatalogueMethod,
  INDEX_FILE,
  type IndexService,
  PART_NAME,
  partOfId,
} from "./format.ts";
import {
  type LazyIndex,
  type LazyPart,
  openIndex,
  openPart,
  type ServiceHeader,
} from "./read_catalogue.ts";

/** Where the catalogue's JSON text comes from. */
export interface CatalogueSource {
  /** The index's JSON text. */
  index(): Promise<string>;
  /** A part's JSON text (`docx_v1.document`), or `undefined` when there is no such part. */
  part(name: string): Promise<string | undefined>;
}

/**
 * The catalogue's files in the context's catalogue folder (`gen/catalogue/` from source; in the
 * binary, embedded beside its entry), each read only when asked for.
 *
 * @param ctx the files and the folder
 */
export function fileCatalogueSource(ctx: Pick<Context, "fs" | "catalogueDir">): CatalogueSource {
  const read = async (name: string) => {
    // Deno's file functions take "/" on every system.
    const path = `${ctx.catalogueDir}/${name}`;
    try {
      return await ctx.fs.readTextFile(path);
    } catch (error) {
      if (error instanceof Error && error.name === "NotFound") return undefined;
      throw new InternalError(`Cannot read the API catalogue's file "${path}"`, error);
    }
  };
  return {
    async index() {
      const text = await read(INDEX_FILE);
      if (text === undefined) {
        throw new InternalError(
          `The API catalogue is missing: no ${INDEX_FILE} in "${ctx.catalogueDir}" (from source, ` +
            "deno task catalogue generates it; a binary has it built in)",
        );
      }
      return text;
    },
    // Only names a part can have: no path separator or "..", nothing but the catalogue's files.
    part: (name) => PART_NAME.test(name) ? read(`${name}.json`) : Promise.resolve(undefined),
  };
}

/** The API catalogue, loaded part by part. */
export class Catalogue {
  readonly #source: CatalogueSource;
  #lazyIndex: Promise<LazyIndex> | undefined;
  #index: CatalogueIndex | undefined;
  readonly #parts = new Map<string, Promise<LazyPart | undefined>>();

  /**
   * @param source where the text comes from: {@link fileCatalogueSource} of the context
   */
  constructor(source: CatalogueSource) {
    this.#source = source;
  }

  /** The index, read on first use; its services are checked when asked for. */
  #openIndex(): Promise<LazyIndex> {
    this.#lazyIndex ??= this.#source.index().then(openIndex);
    return this.#lazyIndex;
  }

  /**
   * The whole index, loaded on first use and checked.
   *
   * @throws {InternalError} when it is damaged
   */
  async index(): Promise<CatalogueIndex> {
    return this.#index ??= (await this.#openIndex()).all();
  }

  /**
   * The services' names, titles and first resources: what the command tree lists before a
   * service is named (their resources are checked only when one is).
   *
   * @throws {InternalError} when the index is damaged
   */
  async serviceHeaders(): Promise<ServiceHeader[]> {
    return (await this.#openIndex()).headers();
  }

  /** A part, loaded on first use; its methods are checked when asked for. */
  #open(name: string): Promise<LazyPart | undefined> {
    let part = this.#parts.get(name);
    if (!part) {
      part = this.#source.part(name).then((text) =>
        text === undefined ? undefined : openPart(name, text)
      );
      this.#parts.set(name, part);
    }
    return part;
  }

  /**
   * A group with every method: the index, and the parts of the group's resources it names.
   *
   * @param name such as `calendar_v4`
   * @returns the group, or `undefined` when there is none of that name
   * @throws {InternalError} when it is damaged
   */
  async group(name: string): Promise<CatalogueGroup | undefined> {
    const names = new Set<string>();
    for (const service of (await this.index()).services) {
      if (!service.groups.includes(name)) continue;
      for (const { id } of service.resources.flatMap((r) => r.methods)) {
        const part = partOfId(id);
        if (part?.startsWith(`${name}.`)) names.add(part);
      }
    }
    if (names.size === 0) return undefined;
    const parts = await Promise.all([...names].map((part) => this.#open(part)));
    const methods = parts.flatMap((part) =>
      part ? part.ids.flatMap((id) => part.method(id) ?? []) : []
    );
    return { format: CATALOGUE_FORMAT, group: name, methods };
  }

  /**
   * A method by id, loading only its part (not the index) and checking only that method.
   *
   * @param id such as `calendar.v4.calendarEvent.instanceView`
   * @returns the method, or `undefined` when the catalogue has none of that id
   * @throws {InternalError} when it is damaged
   */
  async method(id: string): Promise<CatalogueMethod | undefined> {
    const name = partOfId(id);
    if (name === undefined) return undefined;
    return (await this.#open(name))?.method(id);
  }

  /**
   * A service of the index by command name.
   *
   * @param name such as `docx`
   */
  async service(name: string): Promise<IndexService | undefined> {
    return (await this.#openIndex()).service(name);
  }

  /** Every method, group by group in the index's order (loads the whole catalogue). */
  async allMethods(): Promise<CatalogueMethod[]> {
    const index = await this.index();
    const names = index.services.flatMap((s) => s.groups);
    const groups = await Promise.all(names.map((name) => this.group(name)));
    return groups.flatMap((g) => g?.methods ?? []);
  }

  /** What was loaded so far: whether the index was, and which parts (for tests). */
  loaded(): { index: boolean; parts: string[] } {
    return { index: this.#lazyIndex !== undefined, parts: [...this.#parts.keys()].sort() };
  }
}
