/**
 * The API catalogue as hark reads it: the index (services, resources, method names and ids) and
 * the groups (each a service at one version, with its methods' parameters), each loaded on
 * first use and kept. A command that names an API method loads the index and that method's
 * group only; `--version`, `--help` and the shortcuts load nothing of it.
 *
 * @module
 */

import {
  CATALOGUE_FORMAT,
  type CatalogueGroup,
  type CatalogueIndex,
  type CatalogueMethod,
  groupOfId,
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
 * The catalogue generated into `gen/catalogue/` (built into the binary), each part imported
 * only when asked for.
 */
export const GENERATED_CATALOGUE: CatalogueSource = {
  async index() {
    return (await import("../../gen/catalogue/index.ts")).INDEX;
  },
  async group(name) {
    const { GROUPS } = await import("../../gen/catalogue/groups.ts");
    const load = Object.hasOwn(GROUPS, name) ? GROUPS[name] : undefined;
    return load ? (await load()).GROUP : undefined;
  },
};

/** The API catalogue, loaded part by part. */
export class Catalogue {
  readonly #source: CatalogueSource;
  #index: Promise<CatalogueIndex> | undefined;
  readonly #groups = new Map<string, Promise<LazyGroup | undefined>>();

  /**
   * @param source where the text comes from; default the generated catalogue
   */
  constructor(source: CatalogueSource = GENERATED_CATALOGUE) {
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
