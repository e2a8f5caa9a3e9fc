import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, Padding, TensorType, loadModel } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { createPlanner } from '@micrort/planners';
import { TFLM_DECODE } from './decode.js';
import { registerReferenceOps } from '../index.js';

/** A 16-byte Decode Common Metadata header: type, DCM version 1, then the type's bytes from offset 4. */
const dcm = (type: number, ...rest: number[]) => {
  const b = new Uint8Array(16);
  b[0] = type;
  b[1] = 1;
  b.set(rest, 4);
  return b;
};
const LUT = 0;
const HUFFMAN = 1;
const PRUNE = 2;

/** Little-endian bytes of `values` in a typed array type. */
function le(ctor: { new (v: number[]): { buffer: ArrayBufferLike } }, values: number[]): Uint8Array {
  return new Uint8Array(new ctor(values).buffer);
}
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

interface Pair {
  encoded: Uint8Array;
  ancillary: Uint8Array;
  output: HarnessTensorSpec;
}

function harness(pairs: Pair[], opts: { constant?: boolean } = {}) {
  const tensors: HarnessTensorSpec[] = [];
  const inputs: number[] = [];
  for (const p of pairs) {
    inputs.push(tensors.length);
    tensors.push({ type: TensorType.UINT8, shape: [p.encoded.length], data: p.encoded, constant: opts.constant ?? true });
    inputs.push(tensors.length);
    tensors.push({ type: TensorType.UINT8, shape: [p.ancillary.length], data: p.ancillary, constant: opts.constant ?? true });
  }
  const outputs = pairs.map((p) => {
    tensors.push(p.output);
    return tensors.length - 1;
  });
  return new KernelHarness({ registration: TFLM_DECODE, tensors, inputs, outputs });
}

// TFLM kernels/decode_test.cc and decode_state_huffman_test.cc
const ENCODED_LUT = Uint8Array.of(0x1b, 0xe4);
const LUT0 = cat(dcm(LUT, 1, 2, 4), Int8Array.from([1, 2, 3, 4]) as unknown as Uint8Array);
const LUT1 = cat(dcm(LUT, 1, 2, 4), le(Int16Array, [5, 6, 7, 8]));
const ENCODED_PRUNE = Uint8Array.of(0xa5);
const PRUNE_DCM = dcm(PRUNE, 1);
const ENCODED_HUFFMAN = Uint8Array.of(
  0xf0,
  0x0d,
  0x79,
  0xfc,
  0x9c,
  0x1a,
  0x6e,
  0x4c,
  0x32,
  0xaf,
  0x29,
  0xb3,
  0x5d,
  0xf6,
  0x36,
  0x02,
  0x50,
  0x15,
  0x8c,
  0xa7,
  0x95,
  0xdb,
  0x29,
  0x68,
  0x3f,
  0xba,
  0xb7,
  0xed,
  0xb1,
  0x19,
  0xe2,
  0xe0,
);
const HUFFMAN16 = [
  0x986d, 0x9861, 0x986a, 0x0005, 0x0806, 0x0809, 0x000e, 0x000f, 0x886f, 0x8868, 0x8864, 0x8864, 0x9069, 0x9066, 0x8863, 0x8863, 0x0002,
  0x906b, 0x8867, 0x886c, 0x8865, 0x8862, 0x8870, 0x886e,
];
const HUFFMAN32 = HUFFMAN16.map((v) => (((v & 0x8000) << 16) | ((v & 0x7800) << 16) | (v & 0x07ff)) >>> 0);
const HUFFMAN_TEXT = 'nmmacnanefdacopjomeckifookhbdbdmjjdmjgojfecpbiibmanbbjbnlgjafejp';
const HUFFMAN_EXPECT = Array.from(HUFFMAN_TEXT, (c) => c.charCodeAt(0));

describe('TFLM_DECODE', () => {
  it('LUT, one tensor (TFLM DecodeSingleTensor)', () => {
    const h = harness([{ encoded: ENCODED_LUT, ancillary: LUT0, output: { type: TensorType.INT8, shape: [1, 2, 4] } }]).invoke();
    expect(h.outputArray(0)).toEqual([1, 2, 3, 4, 4, 3, 2, 1]);
  });

  it('LUT, two tensors int8 and int16 (TFLM DecodeTwoTensors)', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = harness([
      { encoded: ENCODED_LUT, ancillary: LUT0, output: { type: TensorType.INT8, shape: [1, 2, 4], ...q } },
      { encoded: ENCODED_LUT, ancillary: LUT1, output: { type: TensorType.INT16, shape: [1, 2, 4], ...q } },
    ]).invoke();
    expect(h.outputArray(0)).toEqual([1, 2, 3, 4, 4, 3, 2, 1]);
    expect(h.outputArray(1)).toEqual([5, 6, 7, 8, 8, 7, 6, 5]);
  });

  it('prune: float32, int8, per-channel int8 (axis 0 and last), int16 (TFLM DecodePrune*)', () => {
    const run = (table: Uint8Array, output: HarnessTensorSpec) =>
      harness([{ encoded: ENCODED_PRUNE, ancillary: cat(PRUNE_DCM, table), output }])
        .invoke()
        .outputArray(0);
    expect(run(le(Float32Array, [9, 10, 11, 12]), { type: TensorType.FLOAT32, shape: [2, 4] })).toEqual([9, 0, 10, 0, 0, 11, 0, 12]);
    expect(run(Uint8Array.of(13, 14, 15, 16), { type: TensorType.INT8, shape: [2, 4] })).toEqual([13, 0, 14, 0, 0, 15, 0, 16]);
    expect(
      run(Uint8Array.of(1, 2, 3, 4), {
        type: TensorType.INT8,
        shape: [2, 4],
        scale: [1, 1],
        zeroPoint: [-128, -64],
        quantizedDimension: 0,
      }),
    ).toEqual([1, -128, 2, -128, -64, 3, -64, 4]);
    expect(
      run(Uint8Array.of(17, 18, 19, 20), {
        type: TensorType.INT8,
        shape: [2, 4],
        scale: [1, 1, 1, 1],
        zeroPoint: [-126, -62, -30, -14],
        quantizedDimension: 1,
      }),
    ).toEqual([17, -62, 18, -14, -126, 19, -30, 20]);
    expect(
      run(le(Int16Array, [5, 6, 7, 8]), {
        type: TensorType.INT16,
        shape: [2, 4],
        scale: [1, 1, 1, 1],
        zeroPoint: [0, 0, 0, 0],
        quantizedDimension: 1,
      }),
    ).toEqual([5, 0, 6, 0, 0, 7, 0, 8]);
  });

  it('Huffman: 16-bit table to int8, 32-bit table to int8 and int16; a 16-bit table cannot decode int16 (TFLM DecodeHuffman*)', () => {
    const anc16 = cat(dcm(HUFFMAN, 1, 2 << 4), le(Uint16Array, HUFFMAN16));
    const anc32 = cat(dcm(HUFFMAN, 1, (2 << 4) | 1), le(Uint32Array, HUFFMAN32));
    const run = (anc: Uint8Array, type: TensorType) =>
      harness([{ encoded: ENCODED_HUFFMAN, ancillary: anc, output: { type, shape: [64] } }])
        .invoke()
        .outputArray(0);
    expect(run(anc16, TensorType.INT8)).toEqual(HUFFMAN_EXPECT);
    expect(run(anc32, TensorType.INT8)).toEqual(HUFFMAN_EXPECT);
    expect(run(anc32, TensorType.INT16)).toEqual(HUFFMAN_EXPECT);
    expect(() => run(anc16, TensorType.INT16)).toThrow(/output \(tensor 2\) has type int16; Huffman with 16-bit tables decodes int8/);
  });

  it('Huffman: zeroed table entries stop at the end of the stream with a KernelError (fuzz reproducer hang-ops-reference-tflm-decode-huffman-zero-table-entries)', () => {
    // An entry of 0 has no symbol flag and names the subtable at offset 0 with a 1-bit lookup: the decoder
    // reads one bit at a time and stays on the entry, through the stream's end (zeros past it); before the
    // fix prepare never returned.
    const zeroed = (entries: number[], n: number) => entries.map((v, i) => (i < n ? 0 : v));
    const anc16 = cat(dcm(HUFFMAN, 1, 2 << 4), le(Uint16Array, zeroed(HUFFMAN16, 8)));
    const anc32 = cat(dcm(HUFFMAN, 1, (2 << 4) | 1), le(Uint32Array, zeroed(HUFFMAN32, 4)));
    const bits = 8 * ENCODED_HUFFMAN.length;
    for (const [anc, type] of [
      [anc16, TensorType.INT8],
      [anc32, TensorType.INT8],
      [anc32, TensorType.INT16],
    ] as const) {
      const h = harness([{ encoded: ENCODED_HUFFMAN, ancillary: anc, output: { type, shape: [64] } }]);
      expect(() => h.prepare()).toThrow(
        new RegExp(
          `input tensor 0: the codeword of element \\d+ of 64 runs past the end of the ${ENCODED_HUFFMAN.length}-byte Huffman stream \\(${bits} bits\\)`,
        ),
      );
    }
    // a stream four bytes short: the last codewords end past it (before, they decoded from zeros)
    const short = ENCODED_HUFFMAN.subarray(0, ENCODED_HUFFMAN.length - 4);
    const anc = cat(dcm(HUFFMAN, 1, 2 << 4), le(Uint16Array, HUFFMAN16));
    expect(() => harness([{ encoded: short, ancillary: anc, output: { type: TensorType.INT8, shape: [64] } }]).prepare()).toThrow(
      /runs past the end of the \d+-byte Huffman stream/,
    );
  });

  it('LUT equals a plain table lookup for every bit width, type and channel layout', () => {
    let s = 7;
    const rnd = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s >>> 8) % n;
    };
    const types: [TensorType, (v: number[]) => Uint8Array, (v: number) => number][] = [
      [TensorType.INT8, (v) => Uint8Array.from(v), (v) => (v << 24) >> 24],
      [TensorType.BOOL, (v) => Uint8Array.from(v.map((x) => x & 1)), (v) => v & 1],
      [TensorType.INT16, (v) => le(Int16Array, v), (v) => (v << 16) >> 16],
      [TensorType.INT32, (v) => le(Int32Array, v), (v) => v | 0],
      [TensorType.FLOAT32, (v) => le(Float32Array, v), (v) => Math.fround(v)],
    ];
    for (let bw = 1; bw <= 7; bw++)
      for (const [type, encodeTable, expectValue] of types)
        for (const layout of ['none', 'axis0', 'last'] as const) {
          const channels = layout === 'none' ? 1 : 3;
          const shape = [3, 2, 5];
          const count = 30;
          const stride = (1 << bw) + rnd(3);
          const table = Array.from({ length: channels * stride }, () => rnd(60000) - 30000);
          const idx = Array.from({ length: count }, () => rnd(1 << bw));
          const packed = new Uint8Array(Math.ceil((count * bw) / 8));
          idx.forEach((v, i) => {
            for (let b = 0; b < bw; b++) if ((v >> (bw - 1 - b)) & 1) packed[(i * bw + b) >> 3]! |= 0x80 >> ((i * bw + b) & 7);
          });
          const output: HarnessTensorSpec =
            layout === 'none'
              ? { type, shape }
              : layout === 'axis0'
                ? { type, shape: [3, 2, 5], scale: [1, 1, 1], zeroPoint: [0, 0, 0], quantizedDimension: 0 }
                : { type, shape: [2, 5, 3], scale: [1, 1, 1], zeroPoint: [0, 0, 0], quantizedDimension: 2 };
          const got = harness([{ encoded: packed, ancillary: cat(dcm(LUT, 1, bw, stride), encodeTable(table)), output }])
            .invoke()
            .outputArray(0);
          const want = idx.map((v, i) =>
            expectValue(table[(layout === 'last' ? i % channels : layout === 'axis0' ? Math.floor(i / 10) : 0) * stride + v]!),
          );
          expect(got, `bit width ${bw}, ${TensorType[type]}, ${layout}`).toEqual(want);
        }
  });

  it('LUT and prune int64 copy whole 64-bit values (as word pairs, no BigInt)', () => {
    const big = [1n, -2n, 1n << 40n, -(1n << 62n)];
    const table = new Uint8Array(new BigInt64Array(big).buffer);
    const lut = harness([
      { encoded: Uint8Array.of(0b11100100), ancillary: cat(dcm(LUT, 1, 2, 4), table), output: { type: TensorType.INT64, shape: [4] } },
    ]).invoke();
    expect(Array.from(lut.output<BigInt64Array>(0))).toEqual([-(1n << 62n), 1n << 40n, -2n, 1n]);
    const pr = harness([
      { encoded: Uint8Array.of(0b10110100), ancillary: cat(PRUNE_DCM, table), output: { type: TensorType.INT64, shape: [6] } },
    ]).invoke();
    expect(Array.from(pr.output<BigInt64Array>(0))).toEqual([1n, 0n, -2n, 1n << 40n, 0n, -(1n << 62n)]);
  });

  it('copies a table that is not aligned to its element size into the arena; aligned tables are read in place', () => {
    const aligned = harness([{ encoded: ENCODED_LUT, ancillary: LUT1, output: { type: TensorType.INT16, shape: [8] } }]).prepare();
    const base = aligned.persistentBytes;
    // the harness aligns every tensor's buffer: shift the table by one byte inside a bigger constant
    const spec: HarnessTensorSpec[] = [
      { type: TensorType.UINT8, shape: [2], data: ENCODED_LUT, constant: true },
      { type: TensorType.UINT8, shape: [LUT1.length], data: LUT1, constant: true },
      { type: TensorType.INT16, shape: [8] },
    ];
    const h = new KernelHarness({ registration: TFLM_DECODE, tensors: spec, inputs: [0, 1], outputs: [2] });
    const t = h.tensors[1]!;
    const shifted = new Uint8Array(new ArrayBuffer(LUT1.length + 1), 1, LUT1.length);
    shifted.set(LUT1);
    t.bytes = shifted;
    t.data = shifted;
    h.invoke();
    expect(h.outputArray(0)).toEqual([5, 6, 7, 8, 8, 7, 6, 5]);
    expect(h.persistentBytes).toBe(base + 16);
  });

  it('refuses what TFLM refuses or would read out of bounds, with reasons', () => {
    const one = (encoded: Uint8Array, ancillary: Uint8Array, output: HarnessTensorSpec = { type: TensorType.INT8, shape: [8] }) =>
      harness([{ encoded, ancillary, output }]);
    expect(() =>
      harness([{ encoded: ENCODED_LUT, ancillary: LUT0, output: { type: TensorType.INT8, shape: [8] } }], { constant: false }).prepare(),
    ).toThrow(/must be constants/);
    expect(() => one(ENCODED_LUT, LUT0.subarray(0, 12)).prepare()).toThrow(/less than the 16-byte decode metadata/);
    expect(() =>
      one(
        ENCODED_LUT,
        Uint8Array.from(LUT0, (b, i) => (i === 1 ? 2 : b)),
      ).prepare(),
    ).toThrow(/decode metadata version 2 != 1/);
    expect(() =>
      one(
        ENCODED_LUT,
        Uint8Array.from(LUT0, (b, i) => (i === 0 ? 127 : b)),
      ).prepare(),
    ).toThrow(/custom decode type \(127\) is not supported/);
    expect(() =>
      one(
        ENCODED_LUT,
        Uint8Array.from(LUT0, (b, i) => (i === 0 ? 9 : b)),
      ).prepare(),
    ).toThrow(/unsupported decode type 9/);
    expect(() =>
      one(
        ENCODED_LUT,
        Uint8Array.from(LUT0, (b, i) => (i === 4 ? 2 : b)),
      ).prepare(),
    ).toThrow(/LUT version 2 is not supported/);
    expect(() => one(ENCODED_LUT, LUT0.subarray(0, 19)).prepare()).toThrow(
      /holds 3 value-table entries; the encoded indices reach entry 3/,
    );
    expect(() => one(ENCODED_LUT.subarray(0, 1), LUT0).prepare()).toThrow(/has 1 bytes; 8 indices of 2 bits need 2/);
    expect(() => one(ENCODED_LUT, LUT0, { type: TensorType.UINT8, shape: [8] }).prepare()).toThrow(/has type uint8; LUT decodes/);
    const lastAxis = { type: TensorType.INT8, shape: [2, 4], scale: [1, 1], zeroPoint: [0, 0], quantizedDimension: 1 };
    expect(() => one(ENCODED_LUT, LUT0, lastAxis).prepare()).toThrow(/holds 4 value-table entries; the encoded indices reach entry 7/); // channel 1's table is missing
    expect(
      one(ENCODED_LUT, cat(dcm(LUT, 1, 2, 4), Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8)), lastAxis)
        .invoke()
        .outputArray(0),
    ).toEqual([1, 6, 3, 8, 4, 7, 2, 5]);
    expect(() =>
      one(ENCODED_LUT, LUT0, {
        type: TensorType.INT8,
        shape: [2, 2, 2],
        scale: [1, 1],
        zeroPoint: [0, 0],
        quantizedDimension: 1,
      }).prepare(),
    ).toThrow(/unsupported quantization axis 1/);
    expect(() => one(ENCODED_PRUNE, cat(PRUNE_DCM, Uint8Array.of(1, 2, 3))).prepare()).toThrow(/holds 3 values; the bitmap keeps 4/);
    expect(() =>
      one(ENCODED_PRUNE, cat(PRUNE_DCM, le(Int16Array, [5, 6, 7, 8])), {
        type: TensorType.INT16,
        shape: [8],
        scale: 1,
        zeroPoint: 3,
      }).prepare(),
    ).toThrow(/zero-point is not 0/);
    const badHuffman = cat(dcm(HUFFMAN, 1, 2 << 4), le(Uint16Array, HUFFMAN16.slice(0, 12)));
    expect(() =>
      harness([{ encoded: ENCODED_HUFFMAN, ancillary: badHuffman, output: { type: TensorType.INT8, shape: [64] } }]).prepare(),
    ).toThrow(/lead outside its 12 Huffman table entries/);
    const int8In = new KernelHarness({
      registration: TFLM_DECODE,
      tensors: [
        { type: TensorType.INT8, shape: [2], constant: true, data: [1, 2] },
        { type: TensorType.UINT8, shape: [LUT0.length], constant: true, data: LUT0 },
        { type: TensorType.INT8, shape: [8] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(int8In.supportsAnswer()).toBe('int8 encoded input 0 (handles uint8)');
    const odd = new KernelHarness({
      registration: TFLM_DECODE,
      tensors: [
        { type: TensorType.UINT8, shape: [2], constant: true },
        { type: TensorType.INT8, shape: [8] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => odd.prepare()).toThrow(/expects 2 inputs \(encoded, ancillary\) per output: 1 inputs for 1 outputs/);
  });

  it('in a model: FULLY_CONNECTED and CONV_2D with per-channel weights decoded by TFLM_DECODE equal the same model with constant weights', () => {
    const scales = [0.01, 0.02, 0.03];
    const idx = Array.from({ length: 24 }, (_, i) => (i * 5 + 3) & 7);
    const table = Array.from({ length: 24 }, (_, i) => ((i * 37) % 200) - 100);
    const packed = new Uint8Array(9);
    idx.forEach((v, i) => {
      for (let k = 0; k < 3; k++) if ((v >> (2 - k)) & 1) packed[(i * 3 + k) >> 3]! |= 0x80 >> ((i * 3 + k) & 7);
    });
    const build = (op: 'fc' | 'conv', decoded: boolean) => {
      const b = new ModelBuilder();
      const wq = { scale: scales, zeroPoint: [0, 0, 0], quantizedDimension: 0 };
      const wshape = op === 'fc' ? [3, 8] : [3, 1, 1, 8];
      let w: number;
      if (decoded) {
        const enc = b.addTensor({ name: 'encoded', type: TensorType.UINT8, shape: [packed.length], data: packed });
        const anc = b.addTensor({
          name: 'ancillary',
          type: TensorType.UINT8,
          shape: [40],
          data: cat(dcm(LUT, 1, 3, 8), Uint8Array.from(table)),
        });
        w = b.addTensor({ name: 'w', type: TensorType.INT8, shape: wshape, quantization: wq });
        b.addOperator({ op: { custom: 'TFLM_DECODE' }, inputs: [enc, anc], outputs: [w] });
      } else {
        w = b.addTensor({
          name: 'w',
          type: TensorType.INT8,
          shape: wshape,
          quantization: wq,
          data: Int8Array.from(idx.map((v, i) => table[Math.floor(i / 8) * 8 + v]!)),
        });
      }
      const x = b.addTensor({
        name: 'x',
        type: TensorType.INT8,
        shape: op === 'fc' ? [1, 8] : [1, 2, 2, 8],
        quantization: { scale: 0.05, zeroPoint: -3 },
      });
      const bias = b.addTensor({
        name: 'b',
        type: TensorType.INT32,
        shape: [3],
        data: Int32Array.from([10, -20, 30]),
        quantization: { scale: scales.map((v) => v * 0.05), zeroPoint: [0, 0, 0] },
      });
      const y = b.addTensor({
        name: 'y',
        type: TensorType.INT8,
        shape: op === 'fc' ? [1, 3] : [1, 2, 2, 3],
        quantization: { scale: 0.1, zeroPoint: 2 },
      });
      if (op === 'fc') b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [y] });
      else
        b.addOperator({
          op: BuiltinOperator.CONV_2D,
          version: 3,
          inputs: [x, w, bias],
          outputs: [y],
          options: { padding: Padding.VALID, strideW: 1, strideH: 1 },
        });
      const interp = new MicroInterpreter(loadModel(b.setInputs([x]).setOutputs([y]).build()), registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
      }).allocateTensors();
      interp.setInput(
        0,
        Int8Array.from({ length: op === 'fc' ? 8 : 32 }, (_, i) => i * 7 - 50),
      );
      interp.invoke();
      return Array.from(interp.output(0).data as Int8Array);
    };
    for (const op of ['fc', 'conv'] as const) expect(build(op, true), op).toEqual(build(op, false));
  });
});
