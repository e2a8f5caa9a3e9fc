import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, FullyConnectedWeightsFormat, KernelError, TensorType, type FullyConnectedOptions } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { FULLY_CONNECTED } from './fully-connected.js';

const opts = (o: Partial<FullyConnectedOptions> = {}): FullyConnectedOptions => ({
  fusedActivationFunction: ActivationFunctionType.NONE,
  weightsFormat: FullyConnectedWeightsFormat.DEFAULT,
  keepNumDims: false,
  asymmetricQuantizeInputs: false,
  quantizedBiasType: 0,
  ...o,
});

// TFLM fully_connected_test.cc "SimpleTest": 2x10 input, 3x10 weights, bias [1, 2, 3].
const SIMPLE_INPUT = [1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10];
const SIMPLE_WEIGHTS = [...Array(3)].flatMap(() => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
const SIMPLE_GOLDEN = [24, 25, 26, 58, 59, 60];

function run(tensors: HarnessTensorSpec[], inputs: number[], builtinData = opts()): KernelHarness {
  return new KernelHarness({ registration: FULLY_CONNECTED, tensors, inputs, outputs: [tensors.length - 1], builtinData }).invoke();
}

/** TFLM MultiplyByQuantizedMultiplier (int32, double rounding) with BigInt, independent of the kernel's math. */
function mbqm(x: number, m: number, shift: number): number {
  const left = shift > 0 ? shift : 0;
  const right = shift > 0 ? 0 : -shift;
  const a = BigInt.asIntN(32, BigInt(x) << BigInt(left));
  const ab = a * BigInt(m);
  const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
  const hi = Number(BigInt.asIntN(32, (ab + nudge) / (1n << 31n)));
  const mask = (1 << right) - 1;
  const rem = hi & mask;
  const threshold = (mask >> 1) + (hi < 0 ? 1 : 0);
  return (hi >> right) + (rem > threshold ? 1 : 0);
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

describe('FULLY_CONNECTED float32', () => {
  const f32 = (shape: number[], data?: number[], constant = false): HarnessTensorSpec => ({
    type: TensorType.FLOAT32,
    shape,
    data,
    constant,
  });
  it('computes the TFLM SimpleTest goldens', () => {
    const h = run([f32([2, 10], SIMPLE_INPUT), f32([3, 10], SIMPLE_WEIGHTS, true), f32([3], [1, 2, 3], true), f32([2, 3])], [0, 1, 2]);
    expect(h.outputArray()).toEqual(SIMPLE_GOLDEN);
  });
  it('runs without a bias (omitted with -1 or absent)', () => {
    const t = [f32([2, 10], SIMPLE_INPUT), f32([3, 10], SIMPLE_WEIGHTS, true), f32([2, 3])];
    expect(run(t, [0, 1, -1]).outputArray()).toEqual([23, 23, 23, 57, 57, 57]);
    expect(run(t, [0, 1]).outputArray()).toEqual([23, 23, 23, 57, 57, 57]);
  });
  it('applies fused RELU (TFLM relu_golden)', () => {
    const w = [...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((v) => -v), ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]];
    const h = run(
      [f32([2, 10], SIMPLE_INPUT), f32([3, 10], w, true), f32([3], [1, -2, 3], true), f32([2, 3])],
      [0, 1, 2],
      opts({ fusedActivationFunction: ActivationFunctionType.RELU }),
    );
    expect(h.outputArray()).toEqual([24, 0, 26, 58, 0, 60]);
  });
  it('clamps infinities to ±FLT_MAX as TFLM does with activation NONE', () => {
    const h = run([f32([1, 2], [Infinity, 1]), f32([1, 2], [1, 1], true), f32([1])], [0, 1]);
    expect(h.outputArray()[0]).toBe(3.4028234663852886e38);
  });
  it('keeps leading dimensions with keep_num_dims and rejects a flattened output', () => {
    const t = [f32([2, 1, 10], SIMPLE_INPUT), f32([3, 10], SIMPLE_WEIGHTS, true), f32([3], [1, 2, 3], true), f32([2, 1, 3])];
    expect(run(t, [0, 1, 2], opts({ keepNumDims: true })).outputArray()).toEqual(SIMPLE_GOLDEN);
    const bad = [f32([2, 1, 10], SIMPLE_INPUT), f32([3, 10], SIMPLE_WEIGHTS, true), f32([3], [1, 2, 3], true), f32([2, 3])];
    expect(() => run(bad, [0, 1, 2], opts({ keepNumDims: true }))).toThrow(/keep_num_dims/);
    // without keep_num_dims the same tensors are fine (batches = 2)
    expect(run(bad, [0, 1, 2]).outputArray()).toEqual(SIMPLE_GOLDEN);
  });
  it('rejects int16 weights with a float32 input, shuffled weights, TANH, and inconsistent shapes', () => {
    const i16w = { type: TensorType.INT16, shape: [3, 10], data: SIMPLE_WEIGHTS, constant: true, scale: 1, zeroPoint: 0 };
    expect(() => run([f32([2, 10], SIMPLE_INPUT), i16w, f32([2, 3])], [0, 1])).toThrow(/filter type int16/);
    const t = [f32([2, 10], SIMPLE_INPUT), f32([3, 10], SIMPLE_WEIGHTS, true), f32([2, 3])];
    expect(() => run(t, [0, 1], opts({ weightsFormat: FullyConnectedWeightsFormat.SHUFFLED4x16INT8 }))).toThrow(/shuffled/);
    expect(() => run(t, [0, 1], opts({ fusedActivationFunction: ActivationFunctionType.TANH }))).toThrow(KernelError);
    expect(() => run([f32([2, 9]), f32([3, 10], SIMPLE_WEIGHTS, true), f32([2, 3])], [0, 1])).toThrow(
      /18 elements, expected batches 2 x accum_depth 10/,
    );
    expect(() => run([f32([2, 10]), f32([3, 10], SIMPLE_WEIGHTS, true), f32([2, 4])], [0, 1])).toThrow(/last dimension 4/);
    expect(() => run([f32([2, 10]), f32([3, 10], SIMPLE_WEIGHTS, true), f32([2], [1, 2], true), f32([2, 3])], [0, 1, 2])).toThrow(/bias/);
  });
});

describe('FULLY_CONNECTED int8', () => {
  // input scale 0.5, zp -1; weights scale 1; bias scale 0.5; output scale 1, zp -1 → multiplier 0.5, exact
  const input = (data = SIMPLE_INPUT) => ({
    type: TensorType.INT8,
    shape: [2, 10],
    data: data.map((x) => x * 2 - 1),
    scale: 0.5,
    zeroPoint: -1,
  });
  const weights = (data = SIMPLE_WEIGHTS, scale: number | number[] = 1, quantizedDimension = 0) => ({
    type: TensorType.INT8,
    shape: [3, 10],
    data,
    constant: true,
    scale,
    zeroPoint: Array.isArray(scale) ? scale.map(() => 0) : 0,
    quantizedDimension,
  });
  const bias = (data = [1, 2, 3], scale = 0.5) => ({
    type: TensorType.INT32,
    shape: [3],
    data: data.map((x) => x / scale),
    constant: true,
    scale,
    zeroPoint: 0,
  });
  const output = (scale = 1, zeroPoint = -1) => ({ type: TensorType.INT8, shape: [2, 3], scale, zeroPoint });

  it('computes the SimpleTest goldens exactly (per-tensor)', () => {
    const h = run([input(), weights(), bias(), output()], [0, 1, 2]);
    expect(h.outputArray()).toEqual(SIMPLE_GOLDEN.map((g) => g - 1));
  });
  it('applies a non-zero filter zero point per tensor', () => {
    const w = { ...weights(SIMPLE_WEIGHTS.map((v) => v + 3)), zeroPoint: 3 };
    expect(run([input(), w, bias(), output()], [0, 1, 2]).outputArray()).toEqual(SIMPLE_GOLDEN.map((g) => g - 1));
  });
  it('saturates at the int8 range and at the RELU6 range', () => {
    const big = run([input(), weights(SIMPLE_WEIGHTS.map((v) => v * 10)), bias(), output(1, 0)], [0, 1, 2]);
    // 10x the products: 230+1, 230+2, ... → clamped to 127
    expect(big.outputArray()).toEqual([127, 127, 127, 127, 127, 127]);
    const relu6 = run(
      [input(), weights(), bias(), output(0.25, -128)],
      [0, 1, 2],
      opts({ fusedActivationFunction: ActivationFunctionType.RELU6 }),
    );
    // RELU6 max = -128 + round(6 / 0.25) = -104
    expect(relu6.outputArray()).toEqual([-104, -104, -104, -104, -104, -104]);
    const relu = run(
      [input(SIMPLE_INPUT.map((v) => -v)), weights(), bias(), output(1, 5)],
      [0, 1, 2],
      opts({ fusedActivationFunction: ActivationFunctionType.RELU }),
    );
    // outputs are negative reals → clamped at the quantized 0, i.e. the zero point 5
    expect(relu.outputArray()).toEqual([5, 5, 5, 5, 5, 5]);
  });
  it('uses one multiplier per channel with per-channel filter scales', () => {
    // channel c has scale 2^-c, weights stored 2^c times larger: same real weights → same goldens
    const w = weights(
      SIMPLE_WEIGHTS.map((v, i) => v * 2 ** Math.floor(i / 10)),
      [1, 0.5, 0.25],
    );
    // per-channel bias scale is input_scale * filter_scale[c] = 0.5 * 2^-c
    const b = { type: TensorType.INT32, shape: [3], data: [2, 8, 24], constant: true, scale: [0.5, 0.25, 0.125], zeroPoint: [0, 0, 0] };
    const h = run([input(), w, b, output()], [0, 1, 2]);
    expect(h.outputArray()).toEqual(SIMPLE_GOLDEN.map((g) => g - 1));
    expect(h.persistentBytes).toBe(64 + 16 + 16); // op data + two 3-int32 arrays (each 16-byte aligned)
  });
  it('rejects a per-channel filter with the wrong number of scales or axis', () => {
    expect(() => run([input(), weights(SIMPLE_WEIGHTS, [1, 0.5]), bias(), output()], [0, 1, 2])).toThrow(/2 scales for 3 output channels/);
    expect(() => run([input(), weights(SIMPLE_WEIGHTS, [1, 0.5, 0.25], 1), bias(), output()], [0, 1, 2])).toThrow(/quantized_dimension 1/);
  });
  it('rejects a bias whose scale is far from input_scale * filter_scale', () => {
    expect(() => run([input(), weights(), bias([1, 2, 3], 0.25), output()], [0, 1, 2])).toThrow(/bias scale/);
  });
  it('matches a BigInt re-derivation of TFLM on random data (per-tensor and per-channel)', () => {
    const r = rng(1234);
    const rand8 = () => ((r() & 0xff) << 24) >> 24;
    for (let trial = 0; trial < 20; trial++) {
      const batches = 1 + (r() % 3);
      const depth = 1 + (r() % 40);
      const units = 1 + (r() % 6);
      const inScale = Math.fround(0.01 + (r() % 1000) / 5000);
      const perChannel = trial % 2 === 1;
      const wScales = [...Array(perChannel ? units : 1)].map(() => Math.fround(0.001 + (r() % 1000) / 20000));
      const outScale = Math.fround(0.05 + (r() % 1000) / 1000);
      const inZp = rand8();
      const outZp = rand8();
      const x = [...Array(batches * depth)].map(rand8);
      const w = [...Array(units * depth)].map(rand8);
      const b = [...Array(units)].map(() => (r() % 20001) - 10000);
      const tensors: HarnessTensorSpec[] = [
        { type: TensorType.INT8, shape: [batches, depth], data: x, scale: inScale, zeroPoint: inZp },
        {
          type: TensorType.INT8,
          shape: [units, depth],
          data: w,
          constant: true,
          scale: perChannel ? wScales : wScales[0]!,
          zeroPoint: perChannel ? wScales.map(() => 0) : 0,
        },
        { type: TensorType.INT32, shape: [units], data: b, constant: true, scale: Math.fround(inScale * wScales[0]!), zeroPoint: 0 },
        { type: TensorType.INT8, shape: [batches, units], scale: outScale, zeroPoint: outZp },
      ];
      const got = run(tensors, [0, 1, 2]).outputArray();
      const want: number[] = [];
      for (let bi = 0; bi < batches; bi++)
        for (let u = 0; u < units; u++) {
          let acc = 0;
          for (let d = 0; d < depth; d++) acc += w[u * depth + d]! * (x[bi * depth + d]! - inZp);
          acc += b[u]!;
          const real = perChannel ? (inScale * wScales[u]!) / outScale : Math.fround(inScale * wScales[0]!) / outScale;
          // QuantizeMultiplier by hand: frexp, round half away from zero
          let e = Math.floor(Math.log2(real)) + 1;
          while (real / 2 ** e >= 1) e++;
          while (real / 2 ** e < 0.5) e--;
          let m = Math.round((real / 2 ** e) * 2 ** 31);
          let s = e;
          if (m === 2 ** 31) {
            m /= 2;
            s++;
          }
          want.push(Math.min(127, Math.max(-128, mbqm(acc, m, s) + outZp)));
        }
      expect(got, `trial ${trial}`).toEqual(want);
    }
  });
  it('does not allocate in invoke', () => {
    const h = new KernelHarness({
      registration: FULLY_CONNECTED,
      tensors: [input(), weights(), bias(), output()],
      inputs: [0, 1, 2],
      outputs: [3],
      builtinData: opts(),
    }).prepare();
    const ctx = invokeContext(h);
    const node = h.node;
    expect(leastAllocation(() => FULLY_CONNECTED.invoke(ctx, node))).toBeLessThan(8);
  });
});

describe('FULLY_CONNECTED int16 x int8', () => {
  // input scale 1, weights scale 1, output scale 1: multiplier 1.0 → (2^30, shift 1), exact
  const input = (data = SIMPLE_INPUT) => ({ type: TensorType.INT16, shape: [2, 10], data, scale: 1, zeroPoint: 0 });
  const weights = (data = SIMPLE_WEIGHTS, scale: number | number[] = 1) => ({
    type: TensorType.INT8,
    shape: [3, 10],
    data,
    constant: true,
    scale,
    zeroPoint: Array.isArray(scale) ? scale.map(() => 0) : 0,
  });
  const output = () => ({ type: TensorType.INT16, shape: [2, 3], scale: 1, zeroPoint: 0 });

  it('accumulates in int64 with an int64 bias', () => {
    const bias = { type: TensorType.INT64, shape: [3], data: [1n, 2n, 3n], constant: true, scale: 1, zeroPoint: 0 };
    expect(run([input(), weights(), bias, output()], [0, 1, 2]).outputArray()).toEqual(SIMPLE_GOLDEN);
  });
  it('accumulates in int32 with an int32 bias', () => {
    const bias = { type: TensorType.INT32, shape: [3], data: [1, 2, 3], constant: true, scale: 1, zeroPoint: 0 };
    expect(run([input(), weights(), bias, output()], [0, 1, 2]).outputArray()).toEqual(SIMPLE_GOLDEN);
  });
  it('handles a large int64 bias and saturates to int16', () => {
    const bias = { type: TensorType.INT64, shape: [3], data: [40000n, -40000n, 1000000000n], constant: true, scale: 1, zeroPoint: 0 };
    expect(run([input(), weights(), bias, output()], [0, 1, 2]).outputArray()).toEqual([32767, -32768, 32767, 32767, -32768, 32767]);
  });
  it('uses the 16-bit reduced multiplier of the int64 path, double rounding on the int32 path', () => {
    // output scale 3: multiplier 1/3 → (0x55555555, shift -1); the int64 path reduces it to 0x5555
    const out = { type: TensorType.INT16, shape: [1, 1], scale: 3, zeroPoint: 0 };
    const x = { type: TensorType.INT16, shape: [1, 1], data: [1], scale: 1, zeroPoint: 0 };
    const w = { type: TensorType.INT8, shape: [1, 1], data: [1], constant: true, scale: 1, zeroPoint: 0 };
    const b64 = { type: TensorType.INT64, shape: [1], data: [0n], constant: true, scale: 1, zeroPoint: 0 };
    const b32 = { type: TensorType.INT32, shape: [1], data: [0], constant: true, scale: 1, zeroPoint: 0 };
    // acc = 1: int64 path (1 * 0x5555 + 2^15) >> 16 = 0; int32 path SRDHM → round(2/3) = 1, then 1/2 → 1
    expect(run([x, w, b64, out], [0, 1, 2]).outputArray()).toEqual([0]);
    expect(run([x, w, b32, out], [0, 1, 2]).outputArray()).toEqual([1]);
    expect(mbqm(1, 0x55555555, -1)).toBe(1);
    // a large accumulator: 30000 * 100 + 1 = 3000001 → 1000000 saturates
    expect(run([{ ...x, data: [30000] }, { ...w, data: [100] }, { ...b64, data: [1n] }, out], [0, 1, 2]).outputArray()).toEqual([32767]);
  });
  it('without a bias uses the int64 accumulator only for quantized_bias_type INT64', () => {
    const t = [input(), weights(), output()];
    expect(run(t, [0, 1]).outputArray()).toEqual([23, 23, 23, 57, 57, 57]);
    expect(run(t, [0, 1], opts({ quantizedBiasType: TensorType.INT64 })).outputArray()).toEqual([23, 23, 23, 57, 57, 57]);
  });
  it('supports per-channel weights', () => {
    const w = weights(
      SIMPLE_WEIGHTS.map((v, i) => v * 2 ** Math.floor(i / 10)),
      [1, 0.5, 0.25],
    );
    const bias = { type: TensorType.INT64, shape: [3], data: [1n, 4n, 12n], constant: true, scale: [1, 0.5, 0.25], zeroPoint: [0, 0, 0] };
    expect(run([input(), w, bias, output()], [0, 1, 2]).outputArray()).toEqual(SIMPLE_GOLDEN);
  });
  it('rejects non-zero int16 zero points and an int64 bias beyond 2^47', () => {
    const bias = { type: TensorType.INT64, shape: [3], data: [1n, 2n, 3n], constant: true, scale: 1, zeroPoint: 0 };
    expect(() => run([{ ...input(), zeroPoint: 1 }, weights(), bias, output()], [0, 1, 2])).toThrow(/zero point 0/);
    const huge = { ...bias, data: [1n, 2n ** 48n, 3n] };
    expect(() => run([input(), weights(), huge, output()], [0, 1, 2])).toThrow(/element 1 is outside/);
  });
});

/** A bare invoke-phase context over a prepared harness (the harness' own context allocates in its guards). */
function invokeContext(h: KernelHarness) {
  const fail = (): never => {
    throw new Error('not available in invoke');
  };
  return {
    ...h.context,
    phase: h.context.phase,
    allocatePersistentBuffer: fail,
    requestScratchBufferInArena: fail,
    getTensor: fail,
    getEvalTensor: (i: number) => h.tensors[i]!,
  };
}

/** Bytes per invoke, the least of three measurements (JIT tiering on a busy machine can add a few bytes to one run). */
function leastAllocation(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 8; i++)
    best = Math.min(best, measureAllocation(fn, { warmup: 5000, trials: 5, iterations: 2000 }).bytesPerCall);
  return best;
}
