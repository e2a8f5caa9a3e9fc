import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { DEQUANTIZE, makeDequantize } from './dequantize.js';

function run(reg: typeof DEQUANTIZE, input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: reg, tensors: [input, output], inputs: [0], outputs: [1] }).invoke();
}
const f32 = (data?: number[], shape = [data?.length ?? 1]): HarnessTensorSpec => ({ type: TensorType.FLOAT32, shape, data });
const q = (
  type: TensorType,
  shape: number[],
  scale: number | number[],
  zeroPoint: number | number[],
  data?: number[],
): HarnessTensorSpec => ({ type, shape, scale, zeroPoint, data });

describe('DEQUANTIZE', () => {
  it('computes scale * (q - zero_point) in float32 for int8, uint8 and int16', () => {
    expect(run(DEQUANTIZE, q(TensorType.INT8, [3], 0.5, -1, [-128, -1, 127]), f32(undefined, [3])).outputArray()).toEqual([-63.5, 0, 64]);
    expect(run(DEQUANTIZE, q(TensorType.UINT8, [2], 0.25, 128, [0, 255]), f32(undefined, [2])).outputArray()).toEqual([-32, 31.75]);
    const h = run(DEQUANTIZE, q(TensorType.INT16, [2], 0.1, 0, [3, -32768]), f32(undefined, [2]));
    expect(h.outputArray()).toEqual([Math.fround(Math.fround(0.1) * 3), Math.fround(Math.fround(0.1) * -32768)]);
  });
  it('dequantizes per channel (TFLite), refuses per-channel int16 (as TFLite) and non-float outputs', () => {
    expect(run(DEQUANTIZE, q(TensorType.INT8, [2], [0.5, 0.25], [0, 1], [1, 2]), f32(undefined, [2])).outputArray()).toEqual([0.5, 0.25]);
    expect(() => run(DEQUANTIZE, q(TensorType.INT16, [2], [0.5, 0.25], [0, 0], [1, 2]), f32(undefined, [2]))).toThrow(/per-tensor/);
    expect(() => run(DEQUANTIZE, q(TensorType.INT8, [2], 0.5, 0, [1, 2]), { type: TensorType.INT32, shape: [2] })).toThrow(
      /unsupported output type int32/,
    );
    expect(() => run(DEQUANTIZE, f32([1]), f32(undefined, [1]))).toThrow(/unsupported input type float32/);
  });
});

/** Reference binary16 → binary32 bits, by the definition (value = (-1)^s · 2^(e-15) · 1.m, or 2^-14 · 0.m). */
function halfToFloatBits(h: number): number {
  const s = h >> 15;
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const f = new Float32Array(1);
  if (e === 31) return ((s << 31) | 0x7f800000 | (m << 13)) >>> 0;
  f[0] = (s ? -1 : 1) * (e === 0 ? (m / 1024) * 2 ** -14 : (1 + m / 1024) * 2 ** (e - 15));
  return new Uint32Array(f.buffer)[0]!;
}

describe('DEQUANTIZE float16', () => {
  const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
  const half = (data: ArrayLike<number>, constant: boolean): HarnessTensorSpec => ({
    type: TensorType.FLOAT16,
    shape: [data.length],
    data,
    constant,
  });

  it.each([
    ['constant (folded in prepare)', true],
    ['runtime input (every invoke)', false],
  ])('converts all 65536 halves exactly, NaN payloads and signs included: %s', (_, constant) => {
    const h = run(DEQUANTIZE, half(all, constant), f32(undefined, [65536]));
    const bits = new Uint32Array(h.tensors[1]!.bytes.buffer, h.tensors[1]!.bytes.byteOffset, 65536);
    const bad: string[] = [];
    for (let i = 0; i < 65536; i++) if (bits[i] !== halfToFloatBits(i)) bad.push(`0x${i.toString(16)}: 0x${bits[i]!.toString(16)}`);
    expect(bad.slice(0, 5)).toEqual([]);
    // spot values: 1, -2, max normal, min subnormal, min normal, -0, +inf, a NaN with payload
    const f = h.tensors[1]!.data as Float32Array;
    expect([f[0x3c00], f[0xc000], f[0x7bff], f[0x0001], f[0x0400], Object.is(f[0x8000], -0), f[0x7c00], f[0xfc00]]).toEqual([
      1,
      -2,
      65504,
      2 ** -24,
      2 ** -14,
      true,
      Infinity,
      -Infinity,
    ]);
    expect(bits[0x7e01]!.toString(16)).toBe('7fc02000');
    expect(bits[0xfd55]!.toString(16)).toBe('ffaaa000');
  });

  it('folds a constant input into a persistent output in prepare; invoke leaves it alone', () => {
    const h = new KernelHarness({
      registration: DEQUANTIZE,
      tensors: [half([0x3c00, 0xc400], true), f32(undefined, [2])],
      inputs: [0],
      outputs: [1],
    });
    h.prepare();
    expect(h.persistentBytes).toBe(32 + 16); // op data + 8 bytes of float32 (one 16-byte block)
    expect(Array.from(h.tensors[1]!.data as Float32Array)).toEqual([1, -4]);
    (h.tensors[1]!.data as Float32Array)[0] = 99; // invoke must not recompute
    h.invoke();
    expect((h.tensors[1]!.data as Float32Array)[0]).toBe(99);
  });

  it('makeDequantize({ foldFloat16Constants: false }) converts on every invoke into the planned output', () => {
    const noFold = makeDequantize({ foldFloat16Constants: false });
    const h = new KernelHarness({
      registration: noFold,
      tensors: [half([0x3c00, 0xc400], true), f32(undefined, [2])],
      inputs: [0],
      outputs: [1],
    });
    h.prepare();
    expect(h.persistentBytes).toBe(32);
    expect(Array.from(h.tensors[1]!.data as Float32Array)).toEqual([0, 0]);
    h.invoke();
    expect(Array.from(h.outputArray())).toEqual([1, -4]);
    expect(noFold.name).toBe('DEQUANTIZE/no-fold');
  });

  it('rejects a float16 input with a non-float32 output or another element count', () => {
    expect(() => run(DEQUANTIZE, half([1, 2], true), { type: TensorType.FLOAT16, shape: [2] })).toThrow(/unsupported output type float16/);
    expect(() => run(DEQUANTIZE, half([1, 2], true), f32(undefined, [3]))).toThrow(KernelError);
  });
});
