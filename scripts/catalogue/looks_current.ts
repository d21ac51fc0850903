/**
 * The fast check of `deno task hark`, before every command run from source: whether the
 * generated catalogue looks current, from its stamp and a synchronous `stat` of each input. Apart
 * from `ensure.ts` (which hashes the inputs and runs the generator) so that a current catalogue
 * costs one small module, one small file read and a `stat` per input.
 *
 * @module
 */

// No node: modules and no work at load: this runs before every command run from source.

/** The files whose content the catalogue depends on besides the package. */
export const GENERATOR_SOURCES: readonly string[] = [
  "scripts/gen_catalogue.ts",
  "scripts/catalogue/zod_fields.ts",
  "scripts/catalogue/naming.ts",
  "scripts/catalogue/method_text.ts",
  "scripts/catalogue/write_catalogue.ts",
  "src/catalogue/format.ts",
];

/** The repository root of this checkout, without a trailing `/`. */
function repoRoot(): string {
  const url = new URL("../../", import.meta.url);
  return decodeURIComponent(
    Deno.build.os === "windows" ? url.pathname.replace(/^\//, "") : url.pathname,
  ).replace(/\/$/, "");
}

/**
 * Whether the generated catalogue looks current, decided synchronously from its stamp
 * (`stamp.json`: the `inputs` seen when it was generated, `mtime:size` by path) and a `stat` of
 * `deno.json` and each of {@link GENERATOR_SOURCES}; `false` means "run `ensureCatalogue()`",
 * not "stale".
 *
 * @param root the repository root; default this checkout's
 * @param dir the catalogue folder; default `<root>/gen/catalogue`
 */
export function catalogueLooksCurrent(root = repoRoot(), dir = `${root}/gen/catalogue`): boolean {
  try {
    const stamp = JSON.parse(Deno.readTextFileSync(`${dir}/stamp.json`));
    const inputs = stamp?.inputs;
    if (typeof stamp?.key !== "string" || typeof inputs !== "object" || inputs === null) {
      return false;
    }
    const paths = ["deno.json", ...GENERATOR_SOURCES];
    return Object.keys(inputs).length === paths.length && paths.every((path) => {
      const info = Deno.statSync(`${root}/${path}`);
      return inputs[path] === `${info.mtime?.getTime() ?? 0}:${info.size}`;
    });
  } catch {
    return false;
  }
}
