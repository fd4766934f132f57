/**
 * A ZIP archive (PKWARE APPNOTE 4.5, no ZIP64: a bulletin is far below 4 GB) of named parts, as an
 * Office package is one. Text parts are deflated with Node's own zlib, off the main thread;
 * pictures, compressed already, are stored. Names are UTF-8 (flag bit 11).
 */
import * as zlib from 'node:zlib';
import { promisify } from 'node:util';

const deflateRaw = promisify(zlib.deflateRaw);

/** One entry: its path in the archive and its bytes (or text, written as UTF-8). */
export interface ZipEntry {
  path: string;
  data: Uint8Array | string;
  /** Store without compressing (a JPEG or PNG gains nothing from deflate). */
  store?: boolean;
}

/** The archive of `entries`, in their order, every entry stamped with `time`. */
export async function zip(entries: readonly ZipEntry[], time: Date): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const [dosTime, dosDate] = dosDateTime(time);
  const files = await Promise.all(
    entries.map(async (e) => {
      const raw = typeof e.data === 'string' ? encoder.encode(e.data) : e.data;
      const body = e.store ? raw : new Uint8Array(await deflateRaw(raw)); // zlib's default level, 6
      return { name: encoder.encode(e.path), raw, body, method: e.store ? 0 : 8, crc: crc32(raw) };
    }),
  );
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const f of files) {
    // the fields the local header and the central directory share, from "version needed" on
    const shared: [2 | 4, number][] = [
      [2, 20], // version needed: 2.0 (deflate)
      [2, 0x0800], // UTF-8 names
      [2, f.method],
      [2, dosTime],
      [2, dosDate],
      [4, f.crc],
      [4, f.body.length],
      [4, f.raw.length],
      [2, f.name.length],
      [2, 0], // extra field
    ];
    const local = header(30 + f.name.length, [[4, 0x04034b50], ...shared]);
    local.set(f.name, 30);
    const entry = header(46 + f.name.length, [
      [4, 0x02014b50],
      [2, 20], // made by: MS-DOS, 2.0
      ...shared,
      [2, 0], // comment
      [2, 0], // disk
      [2, 0], // internal attributes
      [4, 0], // external attributes
      [4, offset],
    ]);
    entry.set(f.name, 46);
    chunks.push(local, f.body);
    central.push(entry);
    offset += local.length + f.body.length;
  }
  const centralSize = central.reduce((n, c) => n + c.length, 0);
  const end = header(22, [
    [4, 0x06054b50],
    [2, 0],
    [2, 0],
    [2, files.length],
    [2, files.length],
    [4, centralSize],
    [4, offset],
    [2, 0],
  ]);
  const out = new Uint8Array(offset + centralSize + end.length);
  let at = 0;
  for (const c of [...chunks, ...central, end]) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A little-endian record of `size` bytes starting with `fields` (width in bytes, value). */
function header(size: number, fields: readonly [2 | 4, number][]): Uint8Array {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const [width, value] of fields) {
    if (width === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value >>> 0, true);
    at += width;
  }
  return bytes;
}

/** MS-DOS time and date fields of a moment (local fields of UTC, two-second steps; 1980 at the earliest). */
function dosDateTime(d: Date): [number, number] {
  const year = Math.max(d.getUTCFullYear(), 1980);
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1);
  const date = ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return [time, date];
}

/** CRC-32 (ISO 3309): zlib's own where Node has it (20.15 and later), else {@link tableCrc32}. */
function crc32(data: Uint8Array): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, both give the same CRC (a property test holds them equal); the choice is speed
  return typeof zlib.crc32 === 'function' ? zlib.crc32(data) >>> 0 : tableCrc32(data);
}

/** The 256 entries of the reflected CRC-32 polynomial's table (made when the module loads: 2,048 steps). */
const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 from a 256-entry table, for a Node without `zlib.crc32`. */
export function tableCrc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
