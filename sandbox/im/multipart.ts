/**
 * A `multipart/form-data` parser (RFC 7578) over a body already in memory. Parts are views into
 * the body, never copies, so a 25 MB upload stays one buffer from the socket to the store.
 *
 * @module
 */

/** One form field or file. */
export interface FormPart {
  name: string;
  /** Set for file parts (`filename=` in Content-Disposition). */
  filename?: string;
  /** The part's own Content-Type, if it sent one. */
  contentType?: string;
  /** The part's bytes: a view into the request body. */
  data: Uint8Array<ArrayBuffer>;
}

/** The body is not well-formed multipart, or the Content-Type has no boundary. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLF_CRLF = encoder.encode("\r\n\r\n");

/**
 * The boundary of a `multipart/form-data` Content-Type, or undefined when the header is another
 * type or has no boundary.
 */
export function multipartBoundary(contentType: string): string | undefined {
  const [type, ...params] = contentType.split(";");
  if (type.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    return value.length > 0 && value.length <= 200 ? value : undefined;
  }
  return undefined;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const lastStart = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i >= 0 && i <= lastStart;) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
    i = haystack.indexOf(first, i + 1);
  }
  return -1;
}

function dispositionParam(disposition: string, name: string): string | undefined {
  const extended = new RegExp(`(?:^|;)\\s*${name}\\*\\s*=\\s*([^']*)'[^']*'([^;]*)`, "i")
    .exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i")
    .exec(disposition);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2].trim();
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError(`Malformed part header "${line.slice(0, 80)}"`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * Splits a multipart body into its parts.
 *
 * @param body the whole request body
 * @param boundary from `multipartBoundary`
 * @throws {MultipartError} when the body does not follow the format
 */
export function parseMultipart(body: Uint8Array<ArrayBuffer>, boundary: string): FormPart[] {
  const dash = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  let start: number;
  if (indexOf(body.subarray(0, dash.length), dash, 0) === 0) start = dash.length;
  else {
    const first = indexOf(body, delimiter, 0);
    if (first < 0) throw new MultipartError("The body has no part delimited by the boundary");
    start = first + delimiter.length;
  }
  const parts: FormPart[] = [];
  while (true) {
    // After a delimiter: "--" ends the body, otherwise optional whitespace then CRLF.
    if (body[start] === 45 && body[start + 1] === 45) return parts;
    while (body[start] === 32 || body[start] === 9) start++;
    if (body[start] !== 13 || body[start + 1] !== 10) {
      throw new MultipartError("A boundary line does not end with CRLF");
    }
    const headersStart = start + 2;
    const headersEnd = indexOf(body, CRLF_CRLF, headersStart);
    const blankFirst = body[headersStart] === 13 && body[headersStart + 1] === 10;
    if (headersEnd < 0 && !blankFirst) throw new MultipartError("A part has no header block");
    const headerText = blankFirst ? "" : decoder.decode(body.subarray(headersStart, headersEnd));
    const dataStart = blankFirst ? headersStart + 2 : headersEnd + 4;
    const next = indexOf(body, delimiter, dataStart);
    if (next < 0) throw new MultipartError("The body ends inside a part (no closing boundary)");
    const headers = headerText === "" ? new Map<string, string>() : parseHeaders(headerText);
    const disposition = headers.get("content-disposition") ?? "";
    if (!/^form-data\b/i.test(disposition)) {
      throw new MultipartError("A part has no Content-Disposition: form-data header");
    }
    const name = dispositionParam(disposition, "name");
    if (name === undefined) throw new MultipartError("A part has no name");
    parts.push({
      name,
      filename: dispositionParam(disposition, "filename"),
      contentType: headers.get("content-type"),
      data: body.subarray(dataStart, next),
    });
    start = next + delimiter.length;
  }
}

/** The text of a field part (UTF-8). */
export function partText(part: FormPart): string {
  return decoder.decode(part.data);
}
