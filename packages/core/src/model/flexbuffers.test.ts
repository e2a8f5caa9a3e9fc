import { describe, expect, it } from 'vitest';
// The official FlexBuffers encoder (flatbuffers' JS implementation) writes the buffers the reader is checked against.
import { builder as flexBuilder, encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { FlexBufferError, FlexType, parseFlexMap } from './flexbuffers.js';

// Custom-options buffers from TFLM's signal kernel tests (signal/micro/kernels/*_flexbuffers_generated_data.cc).
const WINDOW_SHIFT_12 = [0x73, 0x68, 0x69, 0x66, 0x74, 0x00, 0x01, 0x07, 0x01, 0x01, 0x01, 0x0c, 0x04, 0x02, 0x24, 0x01];
const ENERGY_START_2_END_4 = [
  0x73, 0x74, 0x61, 0x72, 0x74, 0x5f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x00, 0x65, 0x6e, 0x64, 0x5f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x00, 0x02,
  0x0b, 0x18, 0x02, 0x01, 0x02, 0x04, 0x02, 0x04, 0x04, 0x04, 0x24, 0x01,
];
/** 4-byte wide values: output_scale 32768, input_correction_bits 5. */
const LOG_SCALE_32768_BITS_5 = [
  0x6f, 0x75, 0x74, 0x70, 0x75, 0x74, 0x5f, 0x73, 0x63, 0x61, 0x6c, 0x65, 0x00, 0x69, 0x6e, 0x70, 0x75, 0x74, 0x5f, 0x63, 0x6f, 0x72, 0x72,
  0x65, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x02, 0x17, 0x25, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00,
  0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x06, 0x06, 0x0a, 0x26, 0x01,
];
/** 2-byte wide values, 'T' = 7 (int16) and fft_length = 512. */
const FFT_512_INT16 = [
  0x66, 0x66, 0x74, 0x5f, 0x6c, 0x65, 0x6e, 0x67, 0x74, 0x68, 0x00, 0x54, 0x00, 0x02, 0x03, 0x0f, 0x02, 0x00, 0x01, 0x00, 0x02, 0x00, 0x07,
  0x00, 0x00, 0x02, 0x05, 0x05, 0x06, 0x25, 0x01,
];
/** An empty map, as the model stores for SignalFftAutoScale. */
const EMPTY_MAP = [0x00, 0x00, 0x01, 0x00, 0x00, 0x24, 0x01];

const parse = (bytes: number[]) => parseFlexMap(Uint8Array.from(bytes));

describe('parseFlexMap', () => {
  it('reads a one-key map with 1-byte values', () => {
    const m = parse(WINDOW_SHIFT_12);
    expect(m.keys).toEqual(['shift']);
    expect(m.int32('shift')).toBe(12);
    expect(m.get('shift')!.type).toBe(FlexType.INT);
  });

  it('reads keys in sorted order regardless of where the strings are stored', () => {
    const m = parse(ENERGY_START_2_END_4);
    expect(m.keys).toEqual(['end_index', 'start_index']);
    expect(m.int32('start_index')).toBe(2);
    expect(m.int32('end_index')).toBe(4);
  });

  it('reads 2- and 4-byte wide maps', () => {
    const fft = parse(FFT_512_INT16);
    expect(fft.keys).toEqual(['T', 'fft_length']);
    expect(fft.int32('T')).toBe(7);
    expect(fft.int32('fft_length')).toBe(512);
    const log = parse(LOG_SCALE_32768_BITS_5);
    expect(log.int32('output_scale')).toBe(32768);
    expect(log.int32('input_correction_bits')).toBe(5);
  });

  it('reads an empty map', () => {
    const m = parse(EMPTY_MAP);
    expect(m.size).toBe(0);
    expect(m.has('x')).toBe(false);
  });

  it('reads bools, floats, unsigned and indirect values with their types', () => {
    const m = parse(
      buildMap(
        [
          ['b', FlexType.BOOL, [1]],
          ['f', FlexType.FLOAT, [0x00, 0x00, 0xc0, 0x3f]],
          ['n', FlexType.INT, [0xfe, 0xff, 0xff, 0xff]],
          ['u', FlexType.UINT, [0xff, 0xff, 0xff, 0xff]],
        ],
        4,
      ),
    );
    expect(m.keys).toEqual(['b', 'f', 'n', 'u']);
    expect(m.bool('b')).toBe(true);
    expect(m.get('f')!.value).toBe(1.5);
    expect(m.int32('n')).toBe(-2);
    expect(m.get('u')!.value).toBe(0xffffffff);
    expect(m.int32('u')).toBe(-1); // truncated to int32, as TFLM's ElementAsInt32
    expect(() => m.int32('f')).toThrow(/must be an integer, found FLOAT/);
  });

  it('reads 8-byte integers keeping the exact low word', () => {
    const m = parse(buildMap([['big', FlexType.INT, [0x05, 0, 0, 0x80, 0x01, 0, 0, 0]]], 8));
    expect(m.get('big')!.value).toBe(0x180000005);
    expect(m.int32('big')).toBe(-2147483643);
  });

  it('reads float options as float32 (doubles rounded, integers converted) and tells absent or NULL keys', () => {
    const m = parse(
      buildMap(
        [
          ['d', FlexType.FLOAT, [0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xc9, 0x3f]], // 0.2 as a double
          ['i', FlexType.INT, [0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]], // -5
          ['nil', FlexType.NULL, [0, 0, 0, 0, 0, 0, 0, 0]],
          ['s', FlexType.STRING, [0, 0, 0, 0, 0, 0, 0, 0]],
        ],
        8,
      ),
    );
    expect(m.float32('d')).toBe(Math.fround(0.2));
    expect(m.float32('d')).not.toBe(0.2);
    expect(m.float32('i')).toBe(-5);
    expect(m.isNull('nil')).toBe(true);
    expect(m.isNull('absent')).toBe(true);
    expect(m.isNull('d')).toBe(false);
    expect(() => m.float32('s')).toThrow(/"s" must be a number, found STRING/);
    expect(() => m.float32('absent')).toThrow(/"absent" is missing/);
  });

  it('names a missing key and lists the present ones', () => {
    expect(() => parse(WINDOW_SHIFT_12).int32('fft_length')).toThrow(/"fft_length" is missing \(present: "shift"\)/);
  });

  it('rejects malformed buffers with a FlexBufferError naming the problem', () => {
    expect(() => parse([])).toThrow(FlexBufferError);
    expect(() => parse([0x01, 0x02])).toThrow(/too short/);
    // bad root width
    expect(() => parse([...WINDOW_SHIFT_12.slice(0, -1), 3])).toThrow(/invalid byte width 3/);
    // root is not a map (type INT)
    expect(() => parse([...WINDOW_SHIFT_12.slice(0, -2), FlexType.INT << 2, 1])).toThrow(/root must be a MAP, found INT/);
    // root offset points before the buffer
    const farOffset = WINDOW_SHIFT_12.slice();
    farOffset[13] = 0x40;
    expect(() => parse(farOffset)).toThrow(/points outside the buffer/);
    // map length larger than the buffer
    const longMap = WINDOW_SHIFT_12.slice();
    longMap[10] = 0x7f;
    expect(() => parse(longMap)).toThrow(/overruns/);
    // keys vector length differs from the map length
    const keyCount = ENERGY_START_2_END_4.slice();
    keyCount[22] = 0x03;
    expect(() => parse(keyCount)).toThrow(/2 values but 3 keys/);
    // key string without terminator: no zero byte follows the key in this buffer
    const unterminated = buildMap([['k', FlexType.INT, [1]]], 1);
    unterminated[1] = 0x41;
    expect(() => parse(unterminated)).toThrow(/not NUL-terminated/);
    // truncated buffer
    expect(() => parse(ENERGY_START_2_END_4.slice(10))).toThrow(FlexBufferError);
  });

  it('rejects duplicate keys and unknown value types', () => {
    expect(() =>
      parse(
        buildMap(
          [
            ['shift', FlexType.INT, [1]],
            ['shift', FlexType.INT, [2]],
          ],
          1,
        ),
      ),
    ).toThrow(/duplicate key "shift"/);
    expect(() => parse(buildMap([['x', 63 as FlexType, [1]]], 1))).toThrow(/unknown type 63/);
  });
});

describe('parseFlexMap: strings and vectors', () => {
  it('reads strings, float and integer options as MediaPipe options hold them', () => {
    const m = parseFlexMap(flexEncode({ mode: 'bilinear', scale: 0.5, dimensions: 3, output_size: [64, 48] }));
    expect(m.keys).toEqual(['dimensions', 'mode', 'output_size', 'scale']);
    expect(m.string('mode')).toBe('bilinear');
    expect(m.float32('scale')).toBe(0.5);
    expect(m.float32('dimensions')).toBe(3); // an integer read as a number, as flexbuffers' AsFloat
    const double = parseFlexMap(flexEncode({ tenth: 0.1 })); // (alone: the JS encoder mis-writes float32 values beside a double)
    expect(double.get('tenth')!.value).toBe(0.1); // stored as a double
    expect(double.float32('tenth')).toBe(Math.fround(0.1)); // the C++ kernels keep a float
    expect(m.int32Vector('output_size')).toEqual([64, 48]);
    expect(m.get('output_size')!.type).toBe(FlexType.VECTOR_INT2); // the encoder writes 2..4 numbers as a fixed vector
    expect(() => m.string('scale')).toThrow(/"scale" must be a string, found FLOAT/);
    expect(() => m.float32('mode')).toThrow(/"mode" must be a number, found STRING/);
    expect(() => m.int32Vector('dimensions')).toThrow(/"dimensions" must be a vector of integers, found INT/);
  });

  it('reads typed vectors of every width and length, fixed vectors and untyped vectors', () => {
    const long = Array.from({ length: 9 }, (_, i) => (i % 2 ? -1 : 1) * i * 1000);
    const wide = [70000, -5, 2 ** 31 - 1];
    const m = parseFlexMap(
      flexEncode({ long, wide, three: [1, 2, 3], four: [4, 3, 2, 1], one: [7], empty: [], floats: [0.25, -1.5], mixed: [1, 'x', [2, 3]] }),
    );
    expect(m.get('long')!.type).toBe(FlexType.VECTOR_INT);
    expect(m.int32Vector('long')).toEqual(long);
    expect(m.int32Vector('wide')).toEqual(wide);
    expect(m.get('three')!.type).toBe(FlexType.VECTOR_INT3);
    expect(m.int32Vector('three')).toEqual([1, 2, 3]);
    expect(m.int32Vector('four')).toEqual([4, 3, 2, 1]);
    expect(m.int32Vector('one')).toEqual([7]);
    expect(m.int32Vector('empty')).toEqual([]);
    expect(m.get('floats')!.elements!.map((e) => e.value)).toEqual([0.25, -1.5]);
    expect(() => m.int32Vector('floats')).toThrow(/element 0 is FLOAT/);
    const mixed = m.get('mixed')!;
    expect(mixed.type).toBe(FlexType.VECTOR);
    expect(mixed.elements![0]!.value).toBe(1);
    expect(mixed.elements![1]!.text).toBe('x');
    expect(mixed.elements![2]!.elements!.map((e) => e.value)).toEqual([2, 3]);
    expect(() => m.int32Vector('mixed')).toThrow(/element 1 is STRING/);
  });

  it('reads an untyped vector of integers and a typed vector built element by element', () => {
    const b = flexBuilder();
    b.startMap();
    b.addKey('subset');
    b.startVector();
    for (const v of [0, 1, 300, 2]) b.addInt(v);
    b.end();
    b.addKey('untyped');
    b.startVector();
    b.addInt(5);
    b.addUInt(6);
    b.add(true);
    b.end();
    b.end();
    const m = parseFlexMap(b.finish());
    expect(m.int32Vector('subset')).toEqual([0, 1, 300, 2]);
    expect(m.get('untyped')!.type).toBe(FlexType.VECTOR);
    expect(m.int32Vector('untyped')).toEqual([5, 6, 1]);
  });

  it('rejects vectors and strings that overrun the buffer', () => {
    const bytes = flexEncode({ v: [1, 2, 3, 4, 5, 6] });
    // layout: key 'v\0', then the vector's length byte (6), then its data
    const lengthAt = Array.from(bytes).indexOf(6);
    const tooLong = bytes.slice();
    tooLong[lengthAt] = 200;
    expect(() => parseFlexMap(tooLong)).toThrow(/vector of 200 elements .* overruns/);
    const s = flexEncode({ s: 'abc' });
    const sLen = Array.from(s).indexOf(3);
    const badString = s.slice();
    badString[sLen] = 120;
    expect(() => parseFlexMap(badString)).toThrow(FlexBufferError);
    const unterminated = s.slice();
    unterminated[sLen + 4] = 0x41;
    expect(() => parseFlexMap(unterminated)).toThrow(/not NUL-terminated/);
  });
});

/**
 * A FlexBuffers map as flexbuffers::Builder lays it out: key strings, a 1-byte keys vector, the map
 * header and values of width `w`, one packed type byte per value, then the root (offset, type, width 1).
 * Values are given as little-endian bytes of width `w`.
 */
function buildMap(entries: [string, FlexType, number[]][], w: 1 | 2 | 4 | 8): number[] {
  const out: number[] = [];
  const keyPos: number[] = [];
  for (const [key] of entries) {
    keyPos.push(out.length);
    for (const ch of key) out.push(ch.charCodeAt(0));
    out.push(0);
  }
  out.push(entries.length);
  const keysPos = out.length;
  entries.forEach((_, i) => out.push(keysPos + i - keyPos[i]!));
  while (out.length % w !== 0) out.push(0);
  const le = (v: number) => Array.from({ length: w }, (_, i) => (i < 4 ? (v >>> (8 * i)) & 0xff : 0));
  const header = out.length;
  out.push(...le(header - keysPos), ...le(1), ...le(entries.length));
  const mapPos = out.length;
  for (const [, , bytes] of entries) out.push(...bytes, ...new Array<number>(w - bytes.length).fill(0));
  for (const [, type] of entries) out.push((type << 2) | Math.log2(w));
  const rootPos = out.length;
  out.push(rootPos - mapPos, (FlexType.MAP << 2) | Math.log2(w), 1);
  return out;
}
