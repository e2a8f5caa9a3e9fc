/**
 * String tensors in TFLite's serialized format (tensorflow/lite/string_util.h): a STRING tensor's data
 * is one buffer holding
 *
 * ```
 * int32 count | int32 offset[0] … offset[count] | the strings' bytes, back to back
 * ```
 *
 * little-endian, where `offset[i]` is the byte position of string i from the start of the buffer and
 * `offset[count]` the end of the last one (so string i is bytes `[offset[i], offset[i + 1])`). The
 * header takes `4 · (count + 2)` bytes. micrort plans a string tensor by its byte capacity
 * (`Tensor.stringCapacity`): the serialized strings written into it must fit.
 *
 * The readers work on the raw bytes without allocating (kernels call them in invoke; kernel-support's
 * `strings.ts` has the writer and comparisons built on them); {@link encodeStrings} and
 * {@link decodeStrings} convert to and from JavaScript strings (UTF-8) for the API and tests.
 */
import { MicrortError } from '../errors.js';

/** Bytes of the header of `count` strings: the count and `count + 1` offsets. */
export function stringHeaderBytes(count: number): number {
  return 4 * (count + 2);
}

/** The little-endian int32 at byte `at` of `bytes`. */
function i32At(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
}

function setI32At(bytes: Uint8Array, at: number, v: number): void {
  bytes[at] = v;
  bytes[at + 1] = v >> 8;
  bytes[at + 2] = v >> 16;
  bytes[at + 3] = v >> 24;
}

/** The number of strings in a serialized buffer (its first int32). */
export function stringCount(bytes: Uint8Array): number {
  return i32At(bytes, 0);
}

/** Byte position where string `i` starts (for `i = count`: where the last one ends). */
export function stringStart(bytes: Uint8Array, i: number): number {
  return i32At(bytes, 4 + 4 * i);
}

/**
 * What is wrong with a serialized string buffer, or null when it is well formed: at least a header,
 * `expectedCount` strings when given, offsets that start right after the header, never decrease and
 * end inside the buffer.
 */
export function validateStringBuffer(bytes: Uint8Array, expectedCount?: number): string | null {
  if (bytes.byteLength < 8) return `${bytes.byteLength} bytes cannot hold a string header (at least 8)`;
  const n = stringCount(bytes);
  if (n < 0) return `string count ${n} is negative`;
  if (expectedCount !== undefined && n !== expectedCount) return `holds ${n} strings, its shape has ${expectedCount} elements`;
  const header = stringHeaderBytes(n);
  if (header > bytes.byteLength) return `the header of ${n} strings needs ${header} bytes, the buffer has ${bytes.byteLength}`;
  if (stringStart(bytes, 0) !== header)
    return `the first string starts at byte ${stringStart(bytes, 0)}, expected ${header} (after the header)`;
  for (let i = 0; i < n; i++)
    if (stringStart(bytes, i + 1) < stringStart(bytes, i))
      return `string ${i} ends at byte ${stringStart(bytes, i + 1)}, before it starts (${stringStart(bytes, i)})`;
  const end = stringStart(bytes, n);
  if (end > bytes.byteLength) return `the strings end at byte ${end}, past the buffer's ${bytes.byteLength} bytes`;
  return null;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The serialized buffer of `strings` (UTF-8; byte arrays are taken as they are). */
export function encodeStrings(strings: readonly (string | Uint8Array)[]): Uint8Array {
  const parts = strings.map((s) => (typeof s === 'string' ? utf8.encode(s) : s));
  const header = stringHeaderBytes(parts.length);
  const out = new Uint8Array(header + parts.reduce((n, p) => n + p.byteLength, 0));
  setI32At(out, 0, parts.length);
  let at = header;
  parts.forEach((p, i) => {
    setI32At(out, 4 + 4 * i, at);
    out.set(p, at);
    at += p.byteLength;
  });
  setI32At(out, 4 + 4 * parts.length, at);
  return out;
}

/** The strings of a serialized buffer, decoded as UTF-8 (`raw`: as byte arrays). */
export function decodeStrings(bytes: Uint8Array): string[];
export function decodeStrings(bytes: Uint8Array, raw: true): Uint8Array[];
export function decodeStrings(bytes: Uint8Array, raw = false): string[] | Uint8Array[] {
  const problem = validateStringBuffer(bytes);
  if (problem) throw new MicrortError(`not a serialized string buffer: ${problem}`);
  const n = stringCount(bytes);
  const parts = Array.from({ length: n }, (_, i) => bytes.subarray(stringStart(bytes, i), stringStart(bytes, i + 1)));
  return raw ? parts.map((p) => p.slice()) : parts.map((p) => utf8Decoder.decode(p));
}
