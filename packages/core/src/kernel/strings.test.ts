import { describe, expect, it } from 'vitest';
import { MicrortError } from '../errors.js';
import { decodeStrings, encodeStrings, stringCount, stringHeaderBytes, stringStart, validateStringBuffer } from './strings.js';

/** A buffer of int32 words then payload bytes. */
function buffer(words: number[], payload: number[] = []): Uint8Array {
  const out = new Uint8Array(4 * words.length + payload.length);
  new DataView(out.buffer).setInt32(0, 0, true);
  words.forEach((w, i) => new DataView(out.buffer).setInt32(4 * i, w, true));
  out.set(payload, 4 * words.length);
  return out;
}

describe("TFLite's serialized strings", () => {
  it('encodes count, offsets and bytes little-endian, as string_util.h writes them', () => {
    const bytes = encodeStrings(['ab', '', 'c']);
    expect(Array.from(bytes)).toEqual(Array.from(buffer([3, 20, 22, 22, 23], [0x61, 0x62, 0x63])));
    expect(stringHeaderBytes(3)).toBe(20);
    expect(stringCount(bytes)).toBe(3);
    expect([0, 1, 2, 3].map((i) => stringStart(bytes, i))).toEqual([20, 22, 22, 23]);
  });

  it('round-trips UTF-8 text and raw bytes', () => {
    const text = ['', 'héllo', '日本語', '\u0000x'];
    expect(decodeStrings(encodeStrings(text))).toEqual(text);
    const raw = [new Uint8Array([0xff, 0x00, 0x80]), new Uint8Array(0)];
    expect(decodeStrings(encodeStrings(raw), true)).toEqual(raw);
    expect(decodeStrings(encodeStrings([]))).toEqual([]);
  });

  it('validates buffers: header, count, offsets that start after the header, never decrease and stay inside', () => {
    expect(validateStringBuffer(encodeStrings(['a', 'b']))).toBeNull();
    expect(validateStringBuffer(encodeStrings(['a', 'b']), 3)).toMatch(/holds 2 strings, its shape has 3 elements/);
    expect(validateStringBuffer(new Uint8Array(4))).toMatch(/cannot hold a string header/);
    expect(validateStringBuffer(buffer([-1, 0]))).toMatch(/negative/);
    expect(validateStringBuffer(buffer([5, 28]))).toMatch(/the header of 5 strings needs 28 bytes/);
    expect(validateStringBuffer(buffer([1, 8, 12], [1, 2, 3, 4]))).toMatch(/starts at byte 8, expected 12/);
    expect(validateStringBuffer(buffer([2, 16, 18, 17], [1, 2]))).toMatch(/string 1 ends at byte 17, before it starts \(18\)/);
    expect(validateStringBuffer(buffer([1, 12, 20], [1, 2]))).toMatch(/end at byte 20, past the buffer's 14 bytes/);
    // Spare bytes after the last string are allowed (a planned buffer is a capacity).
    expect(validateStringBuffer(new Uint8Array([...encodeStrings(['a']), 0, 0, 0]))).toBeNull();
    expect(() => decodeStrings(new Uint8Array(3))).toThrow(MicrortError);
  });
});
