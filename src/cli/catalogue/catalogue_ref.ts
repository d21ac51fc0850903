/**
 * The command tree's handle on the API catalogue: the catalogue's code and data load on the
 * first command that needs them (an API command, `hark schema`, completion of API words), never
 * with the tree itself, so `--version`, `--help` and the shortcuts pay nothing for it.
 *
 * @module
 */

import type { Catalogue } from "../../catalogue/catalogue.ts";

/** Gives the catalogue, loading its code on the first call; every call gives the same one. */
export type CatalogueRef = () => Promise<Catalogue>;

/**
 * A handle on a catalogue.
 *
 * @param given the catalogue to use (tests pass a small or an instrumented one); default the
 *   generated catalogue built into hark
 */
export function catalogueRef(given?: Catalogue): CatalogueRef {
  let catalogue: Promise<Catalogue> | undefined = given && Promise.resolve(given);
  return () => {
    catalogue ??= import("../../catalogue/catalogue.ts").then((m) => new m.Catalogue());
    return catalogue;
  };
}
