import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, TensorType, quantizeMultiplier } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAC, REQUANT } from '../counters.js';
import { kernelFor } from '../__tests__/harness-cases.js';
import { randomInt8, refAdd, refMul, rng } from '../__tests__/reference-math.js';
import type { SimdMode } from '../options.js';
import { calculateActivationRangeQuantized } from '@micrort/kernel-support';

interface EwCase {
  shape: number[];
  s1: number;
  z1: number;
  s2: number;
  z2: number;
  so: number;
  zo: number;
  activation?: ActivationFunctionType;
  seed?: number;
}

function build(kind: 'add' | 'mul', c: EwCase, mode: SimdMode) {
  const r = rng(c.seed ?? 1);
  const n = c.shape.reduce((a, b) => a * b, 1);
  const a = randomInt8(r, n);
  const b = randomInt8(r, n);
  const { reg, counters } = kernelFor(kind === 'add' ? BuiltinOperator.ADD : BuiltinOperator.MUL, mode);
  const activation = c.activation ?? ActivationFunctionType.NONE;
  const harness = new KernelHarness({
    registration: reg,
    tensors: [
      { type: TensorType.INT8, shape: c.shape, data: a, scale: c.s1, zeroPoint: c.z1 },
      { type: TensorType.INT8, shape: c.shape, data: b, scale: c.s2, zeroPoint: c.z2 },
      { type: TensorType.INT8, shape: c.shape, scale: c.so, zeroPoint: c.zo },
    ],
    inputs: [0, 1],
    outputs: [2],
    builtinData: kind === 'add' ? { fusedActivationFunction: activation, potScaleInt16: true } : { fusedActivationFunction: activation },
  });
  const [lo, hi] = calculateActivationRangeQuantized(activation, harness.tensors[2]!);
  const f = Math.fround;
  let expected: Int8Array;
  if (kind === 'add') {
    const twiceMax = 2 * Math.max(f(c.s1), f(c.s2));
    const q1 = quantizeMultiplier(f(c.s1) / twiceMax);
    const q2 = quantizeMultiplier(f(c.s2) / twiceMax);
    const qo = quantizeMultiplier(twiceMax / ((1 << 20) * f(c.so)));
    expected = refAdd(a, b, {
      in1Off: -c.z1,
      in2Off: -c.z2,
      outOff: c.zo,
      leftShift: 20,
      m1: q1.multiplier,
      s1: q1.shift,
      m2: q2.multiplier,
      s2: q2.shift,
      mo: qo.multiplier,
      so: qo.shift,
      lo,
      hi,
    });
  } else {
    const q = quantizeMultiplier((f(c.s1) * f(c.s2)) / f(c.so));
    expected = refMul(a, b, -c.z1, -c.z2, c.zo, q.multiplier, q.shift, lo, hi);
  }
  return { harness, expected, counters };
}

const cases: { name: string; c: EwCase }[] = [
  {
    name: '4-D, 2*3*3*5 = 90 elements (word blocks + 2 leftover)',
    c: { shape: [2, 3, 3, 5], s1: 0.05, z1: 3, s2: 0.08, z2: -20, so: 0.1, zo: 7 },
  },
  {
    name: 'equal scales, RELU, 7 elements',
    c: { shape: [7], s1: 0.02, z1: -128, s2: 0.02, z2: 127, so: 0.03, zo: -128, activation: ActivationFunctionType.RELU, seed: 2 },
  },
  { name: 'output multiplier > 1 for MUL', c: { shape: [3, 4], s1: 0.5, z1: 0, s2: 0.4, z2: 1, so: 0.01, zo: 0, seed: 3 } },
];

for (const kind of ['add', 'mul'] as const) {
  describe(`${kind.toUpperCase()} (arm_elementwise_${kind}_s8) matches the TFLM reference`, () => {
    for (const pc of cases) {
      for (const mode of ['fast', 'emulated'] as SimdMode[]) {
        it(`${pc.name} [${mode}]`, () => {
          const { harness, expected, counters } = build(kind, pc.c, mode);
          harness.invoke();
          expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
          if (mode === 'emulated') {
            const n = expected.length;
            expect(counters.get(0)!.counts[REQUANT]).toBe(kind === 'add' ? 3 * n : n);
            if (kind === 'mul') expect(counters.get(0)!.counts[MAC]).toBe(n);
          }
        });
      }
    }
  });
}

describe('element-wise support', () => {
  it('declines broadcasting so the reference broadcast kernel serves it', () => {
    const { reg } = kernelFor(BuiltinOperator.ADD, 'fast');
    const h = new KernelHarness({
      registration: reg,
      tensors: [
        { type: TensorType.INT8, shape: [2, 3], scale: 0.1 },
        { type: TensorType.INT8, shape: [1, 3], scale: 0.1 },
        { type: TensorType.INT8, shape: [2, 3], scale: 0.1 },
      ],
      inputs: [0, 1],
      outputs: [2],
      builtinData: { fusedActivationFunction: 0, potScaleInt16: true },
    });
    expect(h.supports()).toBe(false);
    expect(h.supportsAnswer()).toBe('broadcasting [2,3] with [1,3] (handles same-shape inputs)');
  });
});
