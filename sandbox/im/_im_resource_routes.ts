/**
 * Images and files: the multipart upload endpoints with Lark's size limits (10 MB images, 30 MB
 * files, nothing empty) and image-format check, and the download of a message's resource with
 * Content-Type, Content-Length and byte ranges (lark-cli downloads files in ranges).
 *
 * Sources: Lark's im-v1 image create, file create and message-resource get docs; the Node SDK's
 * `im.v1.image.create`, `im.v1.file.create` and `im.v1.messageResource.get`; lark-cli
 * `shortcuts/im/helpers.go` (upload form fields) and `im_messages_resources_download.go`.
 *
 * @module
 */

import { type Incoming, larkOk, type SandboxContext } from "../core/context.ts";
import { actorOf, renderMessage } from "./im_common.ts";
import { IM_ERRORS, larkFail, RESOURCE_ERRORS } from "../core/lark_errors.ts";
import type { Caller, Route, RouteScopes } from "../core/route.ts";
import { resourceKeys } from "./message_content.ts";
import {
  type FormPart,
  multipartBoundary,
  MultipartError,
  parseMultipart,
  partText,
} from "./multipart.ts";

const MIB = 1024 * 1024;
/** Lark's upload limits (image create and file create docs). */
export const MAX_IMAGE_BYTES = 10 * MIB;
export const MAX_FILE_BYTES = 30 * MIB;

/** The `file_type` values of file create. */
export const FILE_TYPES = ["opus", "mp4", "pdf", "doc", "xls", "ppt", "stream"] as const;

/**
 * Uploading: Lark's im-v1 image create and file create docs take the tenant token alone
 * (`Authorization: tenant_access_token`) and any one of im:resource and im:resource:upload; the
 * send scopes do not open it. The routes are `tenantOnly`: a user token is refused.
 */
export const UPLOAD_SCOPES: RouteScopes = {
  bot: ["im:resource", "im:resource:upload"],
};

/**
 * Downloading: lark-cli `+messages-resources-download` declares im:message:readonly; Lark's
 * resource doc adds im:message (and im:message.history:readonly, unknown to lark-cli's registry).
 */
export const DOWNLOAD_SCOPES: RouteScopes = {
  user: ["im:message:readonly", "im:message"],
  bot: ["im:message:readonly", "im:message"],
};

/** The upload and resource routes. */
export const RESOURCE_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/images$/,
    scopes: UPLOAD_SCOPES,
    tenantOnly: true,
    handle: uploadImage,
  },
  {
    method: "POST",
    pattern: /^\/open-apis\/im\/v1\/files$/,
    scopes: UPLOAD_SCOPES,
    tenantOnly: true,
    handle: uploadFile,
  },
  {
    method: "GET",
    pattern: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/resources\/([^/]+)$/,
    scopes: DOWNLOAD_SCOPES,
    handle: downloadResource,
  },
];

const invalid = () => larkFail(RESOURCE_ERRORS.invalidParam);

function formOf(incoming: Incoming): Map<string, FormPart> | Response {
  const boundary = multipartBoundary(incoming.request.headers.get("content-type") ?? "");
  if (!boundary) return invalid();
  try {
    const parts = parseMultipart(incoming.body, boundary);
    return new Map(parts.map((p) => [p.name, p]));
  } catch (error) {
    if (error instanceof MultipartError) return invalid();
    throw error;
  }
}

function sizeProblem(data: Uint8Array, max: number): Response | undefined {
  if (data.length === 0) return larkFail(RESOURCE_ERRORS.empty);
  if (data.length > max) return larkFail(RESOURCE_ERRORS.tooLarge);
  return undefined;
}

function startsWith(data: Uint8Array, bytes: number[], at = 0): boolean {
  return bytes.every((b, i) => data[at + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The content type of an image Lark accepts (JPEG, PNG, WEBP, GIF, TIFF, BMP, ICO, HEIC). */
export function imageType(data: Uint8Array): string | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(data, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(data, ascii("GIF87a")) || startsWith(data, ascii("GIF89a"))) return "image/gif";
  if (startsWith(data, ascii("RIFF")) && startsWith(data, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(data, ascii("BM"))) return "image/bmp";
  if (startsWith(data, [0, 0, 1, 0])) return "image/x-icon";
  if (startsWith(data, [0x49, 0x49, 0x2a, 0]) || startsWith(data, [0x4d, 0x4d, 0, 0x2a])) {
    return "image/tiff";
  }
  if (startsWith(data, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...data.subarray(8, 12));
    if (["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].includes(brand)) {
      return "image/heic";
    }
  }
  return undefined;
}

const BY_FILE_TYPE: Record<string, string> = {
  opus: "audio/opus",
  mp4: "video/mp4",
  pdf: "application/pdf",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
};
const BY_EXTENSION: Record<string, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  zip: "application/zip",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};

/** The content type a downloaded file is served with. */
export function fileContentType(fileType: string, fileName: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1].toLowerCase() ?? "";
  return BY_EXTENSION[extension] ?? BY_FILE_TYPE[fileType] ?? "application/octet-stream";
}

function newKey(prefix: string): string {
  const id = crypto.randomUUID();
  return `${prefix}${id.slice(0, 2)}_${id}g`;
}

function uploadImage(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const form = formOf(incoming);
  if (form instanceof Response) return form;
  const typePart = form.get("image_type");
  const kind = typePart && partText(typePart);
  if (kind !== "message" && kind !== "avatar") return invalid();
  const image = form.get("image");
  if (!image) return invalid();
  const problem = sizeProblem(image.data, MAX_IMAGE_BYTES);
  if (problem) return problem;
  const contentType = imageType(image.data);
  if (!contentType) return larkFail(RESOURCE_ERRORS.badImage);
  const key = newKey("img_v3_02");
  ctx.im.addResource({
    key,
    kind: "image",
    bytes: image.data,
    contentType,
    imageType: kind,
    owner: actorOf(caller),
  });
  return larkOk({ image_key: key });
}

function uploadFile(ctx: SandboxContext, incoming: Incoming, caller: Caller): Response {
  const form = formOf(incoming);
  if (form instanceof Response) return form;
  const typePart = form.get("file_type");
  const fileType = typePart && partText(typePart);
  if (!fileType || !(FILE_TYPES as readonly string[]).includes(fileType)) return invalid();
  const namePart = form.get("file_name");
  const fileName = namePart ? partText(namePart).trim() : "";
  if (fileName === "") return invalid();
  let duration: number | undefined;
  const durationPart = form.get("duration");
  if (durationPart) {
    const text = partText(durationPart).trim();
    if (!/^\d{1,10}$/.test(text)) return invalid();
    duration = Number(text);
  }
  const file = form.get("file");
  if (!file) return invalid();
  const problem = sizeProblem(file.data, MAX_FILE_BYTES);
  if (problem) return problem;
  const key = newKey("file_v3_00");
  ctx.im.addResource({
    key,
    kind: "file",
    bytes: file.data,
    contentType: fileContentType(fileType, fileName),
    fileName,
    fileType,
    duration,
    owner: actorOf(caller),
  });
  return larkOk({ file_key: key });
}

function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Parses a single `bytes=` range against a size; "none" when absent or not one we serve. */
function byteRange(header: string | null, size: number): [number, number] | "none" | "bad" {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return "none";
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 ? "bad" : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? "bad" : [start, end];
}

function downloadResource(
  ctx: SandboxContext,
  incoming: Incoming,
  caller: Caller,
  [messageId, key]: string[],
): Response {
  const type = incoming.url.searchParams.get("type");
  if (type !== "image" && type !== "file") return invalid();
  const item = ctx.im.message(messageId);
  if (!item) return invalid();
  if (!ctx.im.isMember(ctx.im.chat(item.chat_id)!, actorOf(caller))) {
    return larkFail(RESOURCE_ERRORS.appNotInChat);
  }
  if (item.deleted) return larkFail(IM_ERRORS.deleted);
  if (item.msg_type === "interactive" || item.msg_type === "merge_forward") {
    return larkFail(RESOURCE_ERRORS.unsupportedType);
  }
  const rendered = renderMessage(ctx, item, { recalled: "omit" });
  const keys = resourceKeys(rendered.body?.content ?? "");
  const mine = type === "image" ? keys.images : keys.files;
  const other = type === "image" ? keys.files : keys.images;
  if (!mine.has(key)) return other.has(key) ? invalid() : larkFail(RESOURCE_ERRORS.notInMessage);
  const resource = ctx.im.resource(key);
  if (!resource) return larkFail(RESOURCE_ERRORS.notInMessage);
  const bytes = resource.bytes;
  const headers: Record<string, string> = {
    "content-type": resource.contentType,
    "accept-ranges": "bytes",
  };
  if (resource.kind === "file" && resource.fileName) {
    headers["content-disposition"] = contentDisposition(resource.fileName);
  }
  const range = byteRange(incoming.request.headers.get("range"), bytes.length);
  if (range === "bad") {
    return new Response(null, {
      status: 416,
      headers: { ...headers, "content-range": `bytes */${bytes.length}` },
    });
  }
  if (range !== "none") {
    const [start, end] = range;
    return new Response(bytes.subarray(start, end + 1), {
      status: 206,
      headers: {
        ...headers,
        "content-range": `bytes ${start}-${end}/${bytes.length}`,
        "content-length": String(end - start + 1),
      },
    });
  }
  return new Response(bytes, {
    headers: { ...headers, "content-length": String(bytes.length) },
  });
}
