/**
 * Small, deterministic binaries for the seeded chats: PNG images (built byte by byte, no image
 * library) and a one-page PDF, plus the content types the resource endpoint answers with.
 *
 * @module
 */

import { hash32, hashHex } from "../core/seed_data.ts";

/** A seeded image or file, before it is stored under its key. */
export interface SeedResource {
  key: string;
  kind: "image" | "file";
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Files only. */
  fileName?: string;
  /** Files only: Lark's `file_type`. */
  fileType?: string;
}

const encoder = new TextEncoder();

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO 3309, as PNG uses it). */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb8_8320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffff_ffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffff_ffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([encoder.encode(type), data]);
  return concat([u32(data.length), typed, u32(crc32(typed))]);
}

/** zlib stream of `data` in stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array([0x78, 0x01])];
  for (let offset = 0; offset < data.length || offset === 0; offset += 65_535) {
    const block = data.subarray(offset, offset + 65_535);
    const last = offset + 65_535 >= data.length ? 1 : 0;
    const len = block.length;
    parts.push(
      new Uint8Array([last, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff]),
      block,
    );
    if (last) break;
  }
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65_521;
    b = (b + a) % 65_521;
  }
  parts.push(u32((b << 16) | a));
  return concat(parts);
}

/**
 * A valid RGB PNG of `size`×`size` pixels: a diagonal gradient between two colours.
 *
 * @param size width and height in pixels (1–255)
 * @param from the top-left colour as [r, g, b]
 * @param to the bottom-right colour as [r, g, b]
 */
export function makePng(
  size: number,
  from: [number, number, number],
  to: [number, number, number],
): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0;
    for (let x = 0; x < size; x++) {
      const t = size === 1 ? 0 : (x + y) / (2 * (size - 1));
      for (let c = 0; c < 3; c++) {
        raw[row + 1 + x * 3 + c] = Math.round(from[c] + (to[c] - from[c]) * t);
      }
    }
  }
  const header = concat([u32(size), u32(size), new Uint8Array([8, 2, 0, 0, 0])]);
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlibStored(raw)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/**
 * A valid one-page PDF showing `lines` of text, with a correct cross-reference table.
 *
 * @param title the document title (in its Info dictionary)
 * @param lines the text lines, ASCII
 */
export function makePdf(title: string, lines: string[]): Uint8Array<ArrayBuffer> {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 12 Tf 40 ${760 - i * 18} Td (${escape(line)}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
    "/Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${escape(title)}) /Producer (hark sandbox) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return encoder.encode(out);
}

const PALETTE: [number, number, number][] = [
  [52, 120, 246],
  [255, 149, 0],
  [52, 199, 89],
  [175, 82, 222],
  [255, 59, 48],
];

/**
 * The images and files the seeded messages refer to: three PNGs, a PDF report and a CSV export.
 * Keys and bytes depend only on the seed.
 */
export function createSeedResources(seed: number): SeedResource[] {
  const images = [0, 1, 2].map((i): SeedResource => {
    const from = PALETTE[hash32(seed, i, 1) % PALETTE.length];
    const to = PALETTE[hash32(seed, i, 2) % PALETTE.length];
    return {
      key:
        `img_v3_02${hashHex(2, seed, i, 3)}_${hashHex(8, seed, i, 4)}-${hashHex(4, seed, i, 5)}-` +
        `${hashHex(4, seed, i, 6)}-${hashHex(12, seed, i, 7)}g`,
      kind: "image",
      bytes: makePng(8 + 8 * i, from, to),
      contentType: "image/png",
    };
  });
  const fileKey = (i: number) =>
    `file_v3_00${hashHex(2, seed, i, 8)}_${hashHex(8, seed, i, 9)}-${hashHex(4, seed, i, 10)}-` +
    `${hashHex(4, seed, i, 11)}-${hashHex(12, seed, i, 12)}g`;
  const rows = ["week,deploys,incidents"];
  for (let w = 1; w <= 12; w++) {
    rows.push(`${w},${hash32(seed, w, 13) % 40},${hash32(seed, w, 14) % 4}`);
  }
  return [
    ...images,
    {
      key: fileKey(0),
      kind: "file",
      bytes: makePdf("Quarterly report", [
        "Quarterly report",
        `Seed ${seed}: ${hash32(seed, 15) % 1000} deploys, ${hash32(seed, 16) % 30} incidents.`,
        "Generated by the hark sandbox.",
      ]),
      contentType: "application/pdf",
      fileName: "quarterly-report.pdf",
      fileType: "pdf",
    },
    {
      key: fileKey(1),
      kind: "file",
      bytes: encoder.encode(rows.join("\n") + "\n"),
      contentType: "text/csv",
      fileName: "deploy-metrics.csv",
      fileType: "stream",
    },
  ];
}
