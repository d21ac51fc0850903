/**
 * The HTTP methods a raw API call may use. Apart from the request building, so that the
 * command table (`hark api`'s help) loads nothing more to name them.
 *
 * @module
 */

import type { HttpMethod } from "../http/request.ts";

/** The methods `hark api` and the MCP server's `api` tool accept. */
export const API_METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
