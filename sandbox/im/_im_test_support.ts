/**
 * Helpers for the IM and contact route tests: tokens with the scopes those routes need, message
 * listings, and multipart uploads through a real client encoder.
 *
 * @module
 */

import type { Answer, TestClient } from "../test_client.ts";

/**
 * Scopes that reach every IM route a user may call (uploads take the tenant token only); sending
 * as a user takes im:message and im:message.send_as_user both.
 */
export const IM_USER_SCOPES = [
  "im:message",
  "im:message.send_as_user",
  "im:message:readonly",
  "im:chat:read",
  "im:chat:create_by_user",
];

/** A start day so seeded histories are the same on every run. */
export const START_DAY = "2026-03-02";

/** GET /open-apis/im/v1/messages with the given query. */
export function listMessages(
  client: TestClient,
  token: string,
  query: Record<string, string>,
): Promise<Answer> {
  return client.send("GET", `/open-apis/im/v1/messages?${new URLSearchParams(query)}`, { token });
}

/** Every message of a container, following page tokens. */
export async function listAll(
  client: TestClient,
  token: string,
  query: Record<string, string>,
  // deno-lint-ignore no-explicit-any
): Promise<any[]> {
  // deno-lint-ignore no-explicit-any
  const items: any[] = [];
  let pageToken = "";
  do {
    const answer = await listMessages(client, token, {
      ...query,
      ...(pageToken ? { page_token: pageToken } : {}),
    });
    if (answer.body.code !== 0) throw new Error(`Cannot list: ${answer.text}`);
    items.push(...answer.body.data.items);
    pageToken = answer.body.data.has_more ? answer.body.data.page_token : "";
  } while (pageToken);
  return items;
}

/** POSTs a multipart form (encoded by Deno's own FormData) and reads the JSON answer. */
export async function postForm(
  client: TestClient,
  path: string,
  form: FormData,
  token: string,
): Promise<Answer> {
  const response = await fetch(`${client.sandbox.baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

/** A form for POST /open-apis/im/v1/images. */
export function imageForm(bytes: Uint8Array<ArrayBuffer>, imageType = "message"): FormData {
  const form = new FormData();
  form.append("image_type", imageType);
  form.append("image", new Blob([bytes], { type: "image/png" }), "image.png");
  return form;
}

/** A form for POST /open-apis/im/v1/files. */
export function fileForm(
  bytes: Uint8Array<ArrayBuffer>,
  fileName: string,
  fileType: string,
  extra: Record<string, string> = {},
): FormData {
  const form = new FormData();
  form.append("file_type", fileType);
  form.append("file_name", fileName);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  form.append("file", new Blob([bytes]), fileName);
  return form;
}

/** Sends a message as JSON to POST /open-apis/im/v1/messages. */
export function sendMessage(
  client: TestClient,
  token: string,
  receiveIdType: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  return client.json(
    "POST",
    `/open-apis/im/v1/messages?receive_id_type=${receiveIdType}`,
    body,
    token,
  );
}
