import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  AllocationType,
  KernelError,
  Padding,
  Tensor,
  TensorType,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierInt64,
  type Node,
} from '@micrort/core';
import { Int64Words, endTap, firstTap, int64At } from './conv-common.js';
import {
  calculateActivationRangeFloat,
  computeOutSize,
  computePaddingHeightWidth,
  populateConvolutionQuantizationParams,
} from '@micrort/kernel-support';

const node: Node = {
  index: 7,
  inputs: new Int32Array(0),
  outputs: new Int32Array(0),
  intermediates: new Int32Array(0),
  temporaries: new Int32Array(0),
  builtinData: null,
  customInitialData: null,
  userData: undefined,
};

function qtensor(index: number, type: TensorType, shape: number[], scale: number[], zp: number[], qdim = 0): Tensor {
  return new Tensor(
    index,
    `t${index}`,
    type,
    Int32Array.from(shape),
    { scale: Float32Array.from(scale), zeroPoint: Int32Array.from(zp), quantizedDimension: qdim },
    false,
  );
}

describe('padding (TFLite padding.h)', () => {
  it('computes SAME and VALID output sizes with C truncation', () => {
    expect(computeOutSize(Padding.SAME, 5, 3, 2)).toBe(3);
    expect(computeOutSize(Padding.VALID, 5, 3, 2)).toBe(2);
    expect(computeOutSize(Padding.VALID, 7, 3, 1, 2)).toBe(3); // effective filter 5
    expect(computeOutSize(Padding.VALID, 2, 5, 1)).toBe(-2); // (2 + 1 - 5) / 1
    expect(computeOutSize(Padding.VALID, 2, 5, 2)).toBe(0); // -1 / 2 truncates to 0
    expect(computeOutSize(Padding.SAME, 5, 3, 0)).toBe(0);
  });

  it('splits odd total padding with the extra pixel in the offset', () => {
    // 224 -> 112 with a 3x3 filter, stride 2: total padding (111*2 + 3 - 224) = 1
    const p = computePaddingHeightWidth(2, 2, 1, 1, 224, 224, 3, 3, Padding.SAME);
    expect(p).toEqual({ height: 0, heightOffset: 1, width: 0, widthOffset: 1, outHeight: 112, outWidth: 112 });
    // 5x5 input, 3x3 filter, stride 1 SAME: total 2 -> 1 each side
    const q = computePaddingHeightWidth(1, 1, 1, 1, 5, 6, 3, 3, Padding.SAME);
    expect(q).toMatchObject({ height: 1, heightOffset: 0, width: 1, widthOffset: 0, outHeight: 5, outWidth: 6 });
    // dilation 2 makes the 3x3 filter 5x5: total 4 -> 2
    const d = computePaddingHeightWidth(1, 1, 2, 2, 5, 5, 3, 3, Padding.SAME);
    expect(d).toMatchObject({ height: 2, width: 2, outHeight: 5, outWidth: 5 });
    // VALID never pads
    expect(computePaddingHeightWidth(2, 2, 1, 1, 9, 9, 3, 3, Padding.VALID)).toMatchObject({
      height: 0,
      width: 0,
      outHeight: 4,
      outWidth: 4,
    });
  });

  it('filter tap ranges match the per-tap inside-image test', () => {
    for (let origin = -7; origin <= 9; origin++) {
      for (let dil = 1; dil <= 3; dil++) {
        for (const extent of [1, 4, 6]) {
          const size = 4;
          const inside: number[] = [];
          for (let k = 0; k < size; k++) {
            const v = origin + k * dil;
            if (v >= 0 && v < extent) inside.push(k);
          }
          const k0 = firstTap(origin, dil);
          const k1 = endTap(origin, dil, extent, size);
          const got: number[] = [];
          for (let k = k0; k < k1; k++) got.push(k);
          expect(got, `origin ${origin} dilation ${dil} extent ${extent}`).toEqual(inside);
        }
      }
    }
  });
});

describe('populateConvolutionQuantizationParams', () => {
  const buffers = () => ({ multiplier: new Int32Array(3), shift: new Int32Array(3) });

  it('computes per-channel multipliers from input*filter/output scales', () => {
    const input = qtensor(0, TensorType.INT8, [1, 2, 2, 1], [0.5], [0]);
    const filter = qtensor(1, TensorType.INT8, [3, 1, 1, 1], [0.25, 0.5, 0.75], [0, 0, 0]);
    const output = qtensor(2, TensorType.INT8, [1, 2, 2, 3], [1], [-3]);
    const b = buffers();
    const range = populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.RELU, 3, 0, b);
    // 0.125 = 2^30 * 2^(-2-31+... ) i.e. multiplier 2^30, shift -2; 0.25 -> shift -1; 0.375 = 0.75 * 2^-1
    expect(Array.from(b.multiplier)).toEqual([1073741824, 1073741824, 1610612736]);
    expect(Array.from(b.shift)).toEqual([-2, -1, -1]);
    expect(range).toEqual([-3, 127]); // RELU: max(-128, zero point)
  });

  it('broadcasts a per-tensor filter scale', () => {
    const input = qtensor(0, TensorType.INT8, [1, 1, 1, 1], [1], [0]);
    const filter = qtensor(1, TensorType.INT8, [3, 1, 1, 1], [0.5], [0]);
    const output = qtensor(2, TensorType.INT8, [1, 1, 1, 3], [1], [0]);
    const b = buffers();
    populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.NONE, 3, 0, b);
    expect(Array.from(b.shift)).toEqual([0, 0, 0]);
    expect(Array.from(b.multiplier)).toEqual([1073741824, 1073741824, 1073741824]);
  });

  it('rejects a wrong scale count, quantized dimension and non-zero filter zero points', () => {
    const input = qtensor(0, TensorType.INT8, [1, 1, 1, 1], [1], [0]);
    const output = qtensor(2, TensorType.INT8, [1, 1, 1, 3], [1], [0]);
    const call = (filter: Tensor) => () =>
      populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.NONE, 3, 0, buffers());
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1], [0, 0]))).toThrow(/2 scales, expected 1 or 3/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 3], [1, 1, 1], [0, 0, 0], 3))).toThrow(/quantized along dimension 3, expected 0/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1, 1], [0, 2, 0]))).toThrow(/zero point 1 is 2/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 0, 1], [0, 0, 0]))).toThrow(KernelError);
    const noQuant = new Tensor(1, 'f', TensorType.INT8, Int32Array.from([3, 1, 1, 1]), null, false);
    expect(call(noQuant)).toThrow(/filter \(tensor 1\) has no quantization/);
    try {
      call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1], [0, 0]))();
    } catch (e) {
      expect(e).toBeInstanceOf(KernelError);
      expect((e as KernelError).nodeIndex).toBe(7);
      expect((e as KernelError).op).toBe('CONV_2D');
    }
  });
});

describe('Int64Words', () => {
  it('reads int64 tensor elements as exact numbers', () => {
    const t = new Tensor(0, 'b', TensorType.INT64, Int32Array.from([4]), null, false);
    t.bind(new ArrayBuffer(32), 0, AllocationType.MmapRo);
    const values = [0n, -1n, 123456789012345n, -(2n ** 40n) - 5n];
    (t.data as BigInt64Array).set(values);
    const w = new Int64Words();
    const words = w.of(t);
    expect(w.of(t)).toBe(words); // cached
    expect([0, 1, 2, 3].map((i) => int64At(words, i))).toEqual(values.map(Number));
  });
});

// Independent BigInt statement of TFLM's requantization, to cross-check the core functions the kernels use.
const I32_MIN = -2147483648;
function mbqmRef(x: number, m: number, shift: number): number {
  const left = shift > 0 ? shift : 0;
  const right = shift > 0 ? 0 : -shift;
  const xs = BigInt.asIntN(32, BigInt(x) << BigInt(left));
  let high: bigint;
  if (xs === BigInt(I32_MIN) && m === I32_MIN) high = 2147483647n;
  else {
    const ab = xs * BigInt(m);
    const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
    high = (ab + nudge) / (1n << 31n); // BigInt division truncates like C
  }
  if (right === 0) return Number(high);
  const d = 1n << BigInt(right);
  let q = high / d;
  const r = high - q * d;
  if (2n * (r < 0n ? -r : r) >= d) q += high < 0n ? -1n : 1n; // round half away from zero
  return Number(q);
}
function mbqm64Ref(x: number, m: number, shift: number): number {
  const reduced = m < 0x7fff0000 ? BigInt((m + 32768) >> 16) : 0x7fffn;
  const total = BigInt(15 - shift);
  return Number(BigInt.asIntN(32, (BigInt(x) * reduced + (1n << (total - 1n))) >> total));
}

describe('requantization used by the kernels (cross-check with BigInt)', () => {
  it('matches TFLM MultiplyByQuantizedMultiplier for int32 and int64 accumulators', () => {
    let s = 12345;
    const rnd = () => {
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      return s;
    };
    for (let i = 0; i < 400; i++) {
      const m = 1073741824 + (rnd() & 0x3fffffff);
      const shift = ((rnd() >>> 0) % 20) - 14;
      const x = rnd() >> ((rnd() >>> 0) % 24);
      expect(multiplyByQuantizedMultiplier(x, m, shift), `x=${x} m=${m} s=${shift}`).toBe(mbqmRef(x, m, shift));
      const x64 = x * 1024 + (rnd() & 1023);
      const s64 = shift > 7 ? 7 : shift;
      expect(multiplyByQuantizedMultiplierInt64(x64, m, s64), `x64=${x64} m=${m} s=${s64}`).toBe(mbqm64Ref(x64, m, s64));
    }
  });
});

describe('calculateActivationRangeFloat', () => {
  it('uses float lowest()/max() for the open ends, as TFLM CalculateActivationRange<float>', () => {
    expect(calculateActivationRangeFloat(ActivationFunctionType.NONE)).toEqual([-3.4028234663852886e38, 3.4028234663852886e38]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU)).toEqual([0, 3.4028234663852886e38]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU6)).toEqual([0, 6]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU_N1_TO_1)).toEqual([-1, 1]);
  });
});
