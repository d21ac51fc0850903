/**
 * A strict fake {@link ApiCaller} for unit tests: answers by a handler, records every request.
 *
 * @module
 */

import type { ApiRequest } from "../../src/http/request.ts";
import type { DownloadedFile, DownloadTarget } from "../../src/http/download.ts";
import { createTestContext, type TestContext } from "./test_context.ts";
import type { ApiCaller, ParamValues, ShortcutInput } from "../../src/shortcuts/definition.ts";
import type { Identity } from "../../src/auth/identity.ts";
import type { Config } from "../../src/config/mod.ts";
import type { InstantInput } from "../../src/time/mod.ts";

/** Answers a download: what was saved where. */
export type DownloadHandler = (
  request: ApiRequest,
  target: DownloadTarget,
) => DownloadedFile | Promise<DownloadedFile>;

/**
 * A fake client whose answers come from `handler` (and downloads from `downloads`); a throw in
 * either is the call's failure. A download without a handler fails the test.
 */
export class FakeClient implements ApiCaller {
  /** Every request, downloads included, in order. */
  readonly requests: ApiRequest[] = [];
  /** The target of every download, in order. */
  readonly targets: DownloadTarget[] = [];
  readonly #handler: (request: ApiRequest) => unknown | Promise<unknown>;
  readonly #downloads?: DownloadHandler;

  /**
   * @param handler answers each request (or throws)
   * @param downloads answers each download (or throws); default: a download fails the test
   */
  constructor(
    handler: (request: ApiRequest) => unknown | Promise<unknown>,
    downloads?: DownloadHandler,
  ) {
    this.#handler = handler;
    this.#downloads = downloads;
  }

  /** Records the request and answers it. */
  async request<T>(request: ApiRequest): Promise<T> {
    this.requests.push(request);
    return await this.#handler(request) as T;
  }

  /** Records the download and answers it. */
  async download(request: ApiRequest, target: DownloadTarget): Promise<DownloadedFile> {
    this.requests.push(request);
    this.targets.push(target);
    if (!this.#downloads) throw new Error(`Unexpected download: ${request.path}`);
    return await this.#downloads(request, target);
  }
}

/** A client that fails any call. */
export const NO_CALLS = new FakeClient((r) => {
  throw new Error(`Unexpected request: ${r.method} ${r.path}`);
});

/**
 * A moment as a `datetime` parameter binds it.
 *
 * @param epochMs the moment
 * @param param the flag, for messages
 */
export function at(epochMs: number, param = "--start"): InstantInput {
  return { kind: "instant", epochMs, text: new Date(epochMs).toISOString(), param };
}

/**
 * Builds a shortcut input for hook tests, its values typed as given (literals kept), so that a
 * shortcut's own helpers, which take the values they read, accept it too.
 */
export function inputOf<const V extends ParamValues = ParamValues>(
  values: V,
  options: {
    identity?: Identity;
    config?: Config;
    ctx?: TestContext;
    /** What a confirmation answers; default no. */
    confirm?: boolean;
    /** Collects the warnings. */
    warnings?: string[];
  } = {},
): ShortcutInput<V> {
  return {
    ctx: options.ctx ?? createTestContext(),
    values,
    identity: options.identity ?? "user",
    timeZone: options.ctx?.timeZone ?? "UTC",
    config: options.config ?? {},
    profile: "default",
    confirm: () => Promise.resolve(options.confirm ?? false),
    warn: (message) => void options.warnings?.push(message),
  };
}

/**
 * Every row a streaming shortcut yields.
 *
 * @param batches what `stream` returned
 */
export async function collect(
  batches: AsyncIterable<readonly Record<string, unknown>[]>,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of batches) rows.push(...batch);
  return rows;
}
