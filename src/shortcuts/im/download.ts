/**
 * `hark im +download`: save an image or a file of a message to disk. The body streams into a
 * temporary file beside the target and is renamed into place only when whole and as long as
 * announced, so an interrupted download leaves nothing; an existing file is replaced only with
 * `--force`. At most 100 MiB (the largest file Lark's resource endpoint serves).
 *
 * @module
 */

import { explainWriteFailure } from "../../config/file_error.ts";
import type { OsName } from "../../context.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { type DownloadTarget, FileThereError } from "../../http/download.ts";
import { parentFolder } from "../../path.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { checkId, type IdKind, MESSAGE_ID } from "../contact/ids.ts";
import { withMembership } from "./membership.ts";

/** The resource types of the endpoint. */
export const RESOURCE_TYPES = ["image", "file"] as const;

/** A resource key: `img_…` or `file_…`, as the message's content holds it. */
const RESOURCE_KEY: IdKind = {
  noun: "resource key (img_… or file_…)",
  find: "hark im +get --message-id <om_…> --json (image_key or file_key in body.content)",
};

/** The scope of downloading, for either identity (lark-cli `+messages-resources-download`). */
const SCOPES = ["im:message:readonly"];

const PARAMS = {
  "message-id": param.string({
    description: "the message holding the image or file",
    required: true,
    valueName: "<om_id>",
  }),
  key: param.string({
    description: "the image_key or file_key in the message's content",
    required: true,
    valueName: "<key>",
  }),
  type: param.enumOf(RESOURCE_TYPES, {
    description: "image or file (default: from the key, img_… or file_…)",
  }),
  output: param.string({
    description: "the file to write, or a folder ending with / to keep the file's own name",
    required: true,
    valueName: "<path>",
    localPath: "write",
  }),
  force: param.bool({
    description: "replace a file already at --output",
    default: false,
    replacesFiles: true,
  }),
};

/** The values of `+download`. */
export type DownloadValues = ValuesOf<typeof PARAMS>;

/** What names the resource: its key, perhaps its type. */
export type ResourceValues = Pick<DownloadValues, "key"> & Partial<Pick<DownloadValues, "type">>;

/** A saved resource, as the output shows it. */
export interface SavedResource {
  /** The message. */
  message_id: string;
  /** The key. */
  key: string;
  /** `image` or `file`. */
  type: string;
  /** Where the file was written. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  /** Its type, as the service gave it. */
  content_type?: string;
}

/**
 * The key and its type: `--type`, else from the key's prefix (`img_` image, `file_` file).
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--key` for a malformed key, `--type` when it cannot be told
 */
export function resourceOf(
  input: ShortcutInput<ResourceValues>,
): { key: string; type: string } {
  const key = checkId(input.values.key, "--key", RESOURCE_KEY);
  const given = input.values.type;
  const type = given ??
    (key.startsWith("img_") ? "image" : key.startsWith("file_") ? "file" : undefined);
  if (!type) {
    throw new ValidationError(
      `Cannot tell whether the key "${key}" is an image or a file (--type)`,
      {
        param: "--type",
        suggestion: "Give --type image or --type file",
      },
    );
  }
  return { key, type };
}

/**
 * Where the file goes: `--output` as a file, or as a folder when it ends with a slash or names
 * an existing folder (the file then keeps the name the service gives it, else the key).
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--output` when the folder is missing, or the file exists
 *   without `--force`
 */
export async function targetOf(
  input: ShortcutInput<ResourceValues & Pick<DownloadValues, "output" | "force">>,
): Promise<DownloadTarget> {
  const output = input.values.output;
  const force = input.values.force;
  const shown = JSON.stringify(output);
  const bad = (problem: string, suggestion: string) =>
    new ValidationError(`Cannot save to ${shown} (--output): ${problem}`, {
      param: "--output",
      suggestion,
    });
  if (output.trim() === "") throw bad("no path given", "Give a file path, or a folder ending /");
  const { fs } = input.ctx;
  const info = await fs.stat(output);
  if (/[\\/]$/.test(output) || info?.isDirectory) {
    if (!info?.isDirectory) {
      throw bad("the folder does not exist", `Create it first: mkdir -p ${shown}`);
    }
    return { path: output, folder: true, fallbackName: resourceOf(input).key, overwrite: force };
  }
  if (info && !force) {
    throw bad("a file is already there", "Add --force to replace it, or choose another --output");
  }
  const folder = parentFolder(input.ctx.os, output);
  const parent = await fs.stat(folder);
  if (!parent?.isDirectory) {
    throw bad(
      `the folder "${folder}" does not exist`,
      "Create it first, or choose another --output",
    );
  }
  return { path: output, overwrite: force };
}

/**
 * The message of `--message-id`, checked.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--message-id` for a malformed id
 */
function messageIdOf(input: ShortcutInput<DownloadValues>): string {
  return checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
}

/**
 * The download request (`GET /open-apis/im/v1/messages/{message_id}/resources/{file_key}`).
 *
 * @param input the shortcut input
 */
export function downloadRequest(input: ShortcutInput<DownloadValues>): ApiRequest {
  const messageId = messageIdOf(input);
  const { key, type } = resourceOf(input);
  return {
    method: "GET",
    path: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/resources/` +
      encodeURIComponent(key),
    query: { type },
    scopes: SCOPES,
  };
}

/** What a file-system failure while saving means to the user. */
function explainSaveFailure(error: unknown, target: DownloadTarget, os: OsName): unknown {
  if (error instanceof HarkError) return error;
  if (error instanceof Deno.errors.AlreadyExists) {
    // In a folder, the file that is there (named by the answer), not the folder.
    const path = error instanceof FileThereError ? error.path : target.path;
    return new ValidationError(
      `Cannot save to ${JSON.stringify(path)} (--output): a file is already there`,
      {
        param: "--output",
        suggestion: "Add --force to replace it, or choose another --output",
        cause: error,
      },
    );
  }
  const { reason, suggestion } = explainWriteFailure(
    error,
    target.path,
    "choose another --output",
    os,
  );
  return new ValidationError(`Cannot save to ${JSON.stringify(target.path)}: ${reason}`, {
    param: "--output",
    suggestion,
    cause: error,
  });
}

/** `im +download`. */
export const download = defineShortcut({
  service: "im",
  verb: "+download",
  description: "Save an image or a file of a message to disk (never over a file without --force)",
  examples: [
    "hark im +download --message-id om_123 --key file_v3_abc --output ./report.pdf",
    "hark im +download --message-id om_123 --key img_v3_abc --output ./downloads/",
    "hark im +download --message-id om_123 --key file_v3_abc --output ./report.pdf --force",
  ],
  identities: ["user", "bot"],
  scopes: { user: SCOPES, bot: SCOPES },
  effect: "read",
  params: PARAMS,
  async validate(input) {
    messageIdOf(input);
    resourceOf(input);
    await targetOf(input);
  },
  requests: (input) => [downloadRequest(input)],
  async run(input, client): Promise<SavedResource> {
    const target = await targetOf(input);
    const { key, type } = resourceOf(input);
    input.ctx.status(`Downloading ${key}`);
    try {
      const saved = await withMembership(input, client.download(downloadRequest(input), target));
      return {
        message_id: messageIdOf(input),
        key,
        type,
        path: saved.path,
        bytes: saved.bytes,
        content_type: saved.contentType,
      };
    } catch (error) {
      throw explainSaveFailure(error, target, input.ctx.os);
    }
  },
  columns: [
    { header: "PATH", value: "path", kind: "id", priority: 4 },
    { header: "BYTES", value: "bytes", priority: 3 },
    { header: "TYPE", value: "content_type", priority: 2 },
    { header: "KEY", value: "key", kind: "id", priority: 1 },
  ],
});
