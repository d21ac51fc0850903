/**
 * The version of hark, from deno.json.
 *
 * @module
 */

import denoJson from "../deno.json" with { type: "json" };

/** The version of hark, such as `0.1.0`. */
export const VERSION: string = denoJson.version;
