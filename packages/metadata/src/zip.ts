/**
 * The zip archive TFLite Support appends to a `.tflite` file to carry the metadata's associated files
 * (label lists, vocabularies): found from its end-of-central-directory record at the end of the file,
 * read through its central directory (offsets may count from the start of the file or of the archive:
 * both are accepted), entries stored or deflated, each checked against its CRC-32.
 */
import { MetadataError } from './errors.js';
import { inflateRaw } from './inflate.js';

/** One file of the archive. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  /** Where the entry's compressed data start in the file. */
  dataOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const utf8 = new TextDecoder('utf-8');

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO-HDLC, zip's) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The end-of-central-directory record's position: the last one whose comment ends exactly at the end of `bytes`. */
function findEocd(bytes: Uint8Array, view: DataView): number {
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD && at + 22 + view.getUint16(at + 20, true) === bytes.length) return at;
  }
  return -1;
}

/**
 * The entries of the zip archive at the end of `bytes`, or null when the file ends in none. A record
 * that looks like an archive and is broken throws `MetadataError`.
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(bytes, view);
  if (eocd < 0) return null;
  const where = 'the zip archive appended to the model';
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0)
    throw new MetadataError('a multi-disk archive is not supported', where);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
    throw new MetadataError('ZIP64 archives are not supported', where);
  // Bytes before the archive that its offsets do not count (the model, when they count from the archive's start).
  const before = eocd - cdSize - cdOffset;
  if (before < 0) throw new MetadataError(`the central directory (${cdSize} bytes at offset ${cdOffset}) overlaps its end record`, where);
  const entries: ZipEntry[] = [];
  let at = before + cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL)
      throw new MetadataError(`central directory entry ${i} of ${count} is missing at offset ${at}`, where);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    if (at + 46 + nameLen > eocd) throw new MetadataError(`central directory entry ${i} runs past the directory`, where);
    const name = utf8.decode(bytes.subarray(at + 46, at + 46 + nameLen));
    const local = before + view.getUint32(at + 42, true);
    if (flags & 1) throw new MetadataError('the entry is encrypted', name);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL)
      throw new MetadataError(`no local file header at offset ${local}`, name);
    const entry: ZipEntry = {
      name,
      method,
      crc32: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      dataOffset: local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true),
    };
    if (entry.dataOffset + entry.compressedSize > eocd)
      throw new MetadataError(`${entry.compressedSize} bytes of data at offset ${entry.dataOffset} run past the archive`, name);
    entries.push(entry);
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The bytes of one entry: stored or inflated, CRC-32 checked. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const raw = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let data: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size)
      throw new MetadataError(`stored entry of ${entry.compressedSize} bytes says it holds ${entry.size}`, entry.name);
    data = raw.slice();
  } else if (entry.method === 8) data = inflateRaw(raw, entry.size, entry.name);
  else throw new MetadataError(`compression method ${entry.method} is not supported (stored and deflated are)`, entry.name);
  const crc = crc32(data);
  if (crc !== entry.crc32)
    throw new MetadataError(
      `CRC-32 ${crc.toString(16).padStart(8, '0')} differs from the archive's ${entry.crc32.toString(16).padStart(8, '0')}`,
      entry.name,
    );
  return data;
}
