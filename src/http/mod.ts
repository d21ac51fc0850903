/**
 * The shared HTTP client of business calls: bearer auth, the retry policy, the service's
 * envelope mapped to typed errors, `--debug` logging and `--dry-run` previews.
 *
 * @example
 * ```ts
 * import { ApiClient, previewRequest } from "../http/mod.ts";
 * const request = { method: "GET", path: "/open-apis/search/v1/user", query: { query: "ann" } };
 * if (dryRun) console.log(previewRequest(baseUrl, request));
 * else await new ApiClient(ctx, { baseUrl, tokens }).request(request);
 * ```
 *
 * @module
 */

export {
  ApiClient,
  type ApiClientOptions,
  type BearerToken,
  type BearerTokenSource,
} from "./api_client.ts";
export {
  type DownloadedFile,
  type DownloadTarget,
  MAX_DOWNLOAD_BYTES,
  TRANSFER_TIMEOUT_MS,
} from "./download.ts";
export {
  type ApiRequest,
  type HttpMethod,
  previewRequest,
  type RequestPreview,
  requestUrl,
  type UploadFile,
  type UploadForm,
  USER_AGENT,
} from "./request.ts";
export {
  type AttemptResult,
  backoffDelay,
  DEFAULT_RETRY,
  parseRateLimitReset,
  parseRetryAfter,
  retry,
  type RetryLoopOptions,
  type RetryOptions,
  serviceWait,
} from "./retry.ts";
export { isSecretField, maskFields, maskUrl } from "./mask_fields.ts";
export { classifyFetchFailure, type FetchFailure } from "./fetch_failure.ts";
