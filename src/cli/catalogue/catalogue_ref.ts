/**
 * The command tree's handle on the API catalogue: the catalogue's code and files load on the
 * first command that needs them (an API command, `hark schema`, completion of API words), never
 * with the tree itself, so `--version`, `--help` and the shortcuts pay nothing for it.
 *
 * @module
 */

import type { Catalogue } from "../../catalogue/catalogue.ts";
import type { Context } from "../../context.ts";

/** Gives the catalogue, loading its code on the first call; every call gives the same one. */
export type CatalogueRef = () => Promise<Catalogue>;

/**
 * A handle on a catalogue.
 *
 * @param from the catalogue to use (tests pass a small or an instrumented one), or the context
 *   whose catalogue folder to read
 */
export function catalogueRef(
  from: Catalogue | Pick<Context, "fs" | "catalogueDir">,
): CatalogueRef {
  let catalogue: Promise<Catalogue> | undefined;
  return () => {
    catalogue ??= "catalogueDir" in from
      ? import("../../catalogue/catalogue.ts").then((m) =>
        new m.Catalogue(m.fileCatalogueSource(from))
      )
      : Promise.resolve(from);
    return catalogue;
  };
}
