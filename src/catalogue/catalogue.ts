/**
 * The API catalogue as hark reads it: the index (services, resources, method names and ids) and
 * the groups (each a service at one version, with its methods' parameters), each loaded on
 * first use and kept. A command that names an API method loads the index and that method's
 * group only; `--version`, `--help` and the shortcuts load nothing of it.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { InternalError } from "../errors/mod.ts";
import {
  CATALOGUE_FORMAT,
  type CatalogueGroup,
  type CatalogueIndex,
  type CatalogueMethod,
  groupOfId,
  INDEX_FILE,
  type IndexService,
} from "./format.ts";
import { type LazyGroup, openGroup, readIndex } from "./read_catalogue.ts";

/** Where the catalogue's JSON text comes from. */
export interface CatalogueSource {
  /** The index's JSON text. */
  index(): Promise<string>;
  /** A group's JSON text, or `undefined` when there is no such group. */
  group(name: string): Promise<string | undefined>;
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
    // Only names a group can have: no path separators or dots reach the file system.
    group: (name) => /^[a-z0-9_]+$/.test(name) ? read(`${name}.json`) : Promise.resolve(undefined),
  };
}

/** The API catalogue, loaded part by part. */
export class Catalogue {
  readonly #source: CatalogueSource;
  #index: Promise<CatalogueIndex> | undefined;
  readonly #groups = new Map<string, Promise<LazyGroup | undefined>>();

  /**
   * @param source where the text comes from: {@link fileCatalogueSource} of the context
   */
  constructor(source: CatalogueSource) {
    this.#source = source;
  }

  /**
   * The index, loaded on first use.
   *
   * @throws {InternalError} when it is damaged
   */
  index(): Promise<CatalogueIndex> {
    this.#index ??= this.#source.index().then(readIndex);
    return this.#index;
  }

  /** A group, loaded on first use; its methods are checked when asked for. */
  #open(name: string): Promise<LazyGroup | undefined> {
    let group = this.#groups.get(name);
    if (!group) {
      group = this.#source.group(name).then((text) =>
        text === undefined ? undefined : openGroup(name, text)
      );
      this.#groups.set(name, group);
    }
    return group;
  }

  /**
   * A group with every method, loaded on first use.
   *
   * @param name such as `calendar_v4`
   * @returns the group, or `undefined` when there is none of that name
   * @throws {InternalError} when it is damaged
   */
  async group(name: string): Promise<CatalogueGroup | undefined> {
    const group = await this.#open(name);
    if (!group) return undefined;
    const methods = group.ids.flatMap((id) => group.method(id) ?? []);
    return { format: CATALOGUE_FORMAT, group: name, methods };
  }

  /**
   * A method by id, loading only its group (not the index) and checking only that method.
   *
   * @param id such as `calendar.v4.calendarEvent.instanceView`
   * @returns the method, or `undefined` when the catalogue has none of that id
   * @throws {InternalError} when it is damaged
   */
  async method(id: string): Promise<CatalogueMethod | undefined> {
    const name = groupOfId(id);
    if (name === undefined) return undefined;
    return (await this.#open(name))?.method(id);
  }

  /**
   * A service of the index by command name.
   *
   * @param name such as `docx`
   */
  async service(name: string): Promise<IndexService | undefined> {
    return (await this.index()).services.find((s) => s.name === name);
  }

  /** Every method, group by group in the index's order (loads the whole catalogue). */
  async allMethods(): Promise<CatalogueMethod[]> {
    const index = await this.index();
    const names = index.services.flatMap((s) => s.groups);
    const groups = await Promise.all(names.map((name) => this.group(name)));
    return groups.flatMap((g) => g?.methods ?? []);
  }

  /** What was loaded so far: whether the index was, and which groups (for tests). */
  loaded(): { index: boolean; groups: string[] } {
    return { index: this.#index !== undefined, groups: [...this.#groups.keys()].sort() };
  }
}
