/**
 * Every reference kernel that declares `inPlace` must give the same output when output 0 really aliases
 * the declared input (same bytes), as the interpreter's in-place mode arranges; and the declarations must
 * leave out inputs that cannot be shared (other element width, broadcast input).
 */
import { describe, expect, it } from 'vitest';
import { AllocationType, TensorType, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessOptions, type HarnessTensorSpec } from '@micrort/core/testing';
import { ABS } from './abs.js';
import { ADD } from './add.js';
import { CAST } from './cast.js';
import { COS } from './cos.js';
import { DIV } from './div.js';
import { broadcastInPlace, flatInPlace, sameShapeUpToLeadingOnes } from './in-place-common.js';
import { LEAKY_RELU } from './leaky-relu.js';
import { LOGISTIC } from './logistic.js';
import { MAXIMUM, MINIMUM } from './maximum-minimum.js';
import { MUL } from './mul.js';
import { QUANTIZE } from './quantize.js';
import { RELU } from './relu.js';
import { RELU6 } from './relu6.js';
import { RESHAPE } from './reshape.js';
import { SIN } from './sin.js';
import { SOFTMAX } from './softmax.js';
import { SUB } from './sub.js';
import { TANH } from './tanh.js';

/** Deterministic pseudo-random values in [lo, hi] (integers unless float). */
function values(n: number, lo: number, hi: number, seed: number, float = false): number[] {
  let s = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const u = s / 2 ** 32;
    out.push(float ? lo + u * (hi - lo) : lo + Math.floor(u * (hi - lo + 1)));
  }
  return out;
}

const count = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const i8 = (shape: number[], scale: number, zp: number, seed?: number): HarnessTensorSpec => ({
  type: TensorType.INT8,
  shape,
  scale,
  zeroPoint: zp,
  ...(seed !== undefined ? { data: values(count(shape), -128, 127, seed) } : {}),
});
const i16 = (shape: number[], scale: number, zp: number, seed?: number): HarnessTensorSpec => ({
  type: TensorType.INT16,
  shape,
  scale,
  zeroPoint: zp,
  ...(seed !== undefined ? { data: values(count(shape), -32768, 32767, seed) } : {}),
});
const f32 = (shape: number[], seed?: number, range = 4): HarnessTensorSpec => ({
  type: TensorType.FLOAT32,
  shape,
  ...(seed !== undefined ? { data: values(count(shape), -range, range, seed, true) } : {}),
});
const i32 = (shape: number[], seed?: number): HarnessTensorSpec => ({
  type: TensorType.INT32,
  shape,
  ...(seed !== undefined ? { data: values(count(shape), -1000, 1000, seed) } : {}),
});

interface Case {
  name: string;
  opts: HarnessOptions;
  /** Input positions the kernel must declare. */
  declares: number[] | null;
}

const unary = (
  name: string,
  registration: Registration,
  input: HarnessTensorSpec,
  output: HarnessTensorSpec,
  builtinData: HarnessOptions['builtinData'] = null,
  declares: number[] | null = [0],
): Case => ({
  name,
  opts: { registration, tensors: [input, output], inputs: [0], outputs: [1], builtinData },
  declares,
});
const binary = (
  name: string,
  registration: Registration,
  a: HarnessTensorSpec,
  b: HarnessTensorSpec,
  out: HarnessTensorSpec,
  declares: number[] | null,
): Case => ({
  name,
  opts: { registration, tensors: [a, b, out], inputs: [0, 1], outputs: [2], builtinData: { fusedActivationFunction: 0 } as never },
  declares,
});

const CASES: Case[] = [
  binary('ADD int8', ADD, i8([2, 3, 4], 0.05, 3, 1), i8([2, 3, 4], 0.04, -7, 2), i8([2, 3, 4], 0.07, 1), [0, 1]),
  binary('ADD int8, input 2 broadcast', ADD, i8([2, 3, 4], 0.05, 3, 3), i8([4], 0.04, -7, 4), i8([2, 3, 4], 0.07, 1), [0]),
  binary('ADD float32, input 1 broadcast', ADD, f32([1, 4], 5), f32([3, 1, 4], 6), f32([3, 1, 4]), [1]),
  binary('SUB int16', SUB, i16([5, 6], 0.001, 0, 7), i16([5, 6], 0.002, 0, 8), i16([5, 6], 0.003, 0), [0, 1]),
  binary('MUL int8', MUL, i8([33], 0.05, 3, 9), i8([33], 0.04, -7, 10), i8([33], 0.02, 1), [0, 1]),
  binary('MUL int32, scalar broadcast', MUL, i32([1], 11), i32([2, 8], 12), i32([2, 8]), [1]),
  binary('DIV float32', DIV, f32([17], 13), f32([17], 14), f32([17]), [0, 1]),
  binary('MAXIMUM int8, broadcast', MAXIMUM, i8([3, 5], 0.1, 0, 15), i8([1, 5], 0.1, 0, 16), i8([3, 5], 0.1, 0), [0]),
  binary('MINIMUM float32', MINIMUM, f32([9], 17), f32([9], 18), f32([9]), [0, 1]),
  unary('RELU int8', RELU, i8([40], 0.1, 5, 19), i8([40], 0.05, -128)),
  unary('RELU6 float32', RELU6, f32([40], 20, 10), f32([40])),
  unary('LEAKY_RELU int16', LEAKY_RELU, i16([40], 0.01, 0, 21), i16([40], 0.02, 0), { alpha: 0.2 } as never),
  unary('LOGISTIC int8', LOGISTIC, i8([64], 0.1, 2, 22), i8([64], 1 / 256, -128)),
  unary('TANH int16', TANH, i16([64], 1 / 4096, 0, 23), i16([64], 1 / 32768, 0)),
  unary('ABS int8 with rescale', ABS, i8([30], 0.1, 4, 24), i8([30], 0.05, -3)),
  unary('SIN float32', SIN, f32([12], 25), f32([12])),
  unary('COS float32', COS, f32([12], 26), f32([12])),
  unary('CAST int32 → float32', CAST, i32([20], 27), f32([20])),
  unary('QUANTIZE int8 → int8', QUANTIZE, i8([50], 0.1, 3, 28), i8([50], 0.07, -5)),
  unary('RESHAPE int16', RESHAPE, i16([4, 6], 1, 0, 29), i16([2, 12], 1, 0)),
  unary('SOFTMAX float32', SOFTMAX, f32([3, 7], 30), f32([3, 7]), { beta: 1 } as never),
  unary('SOFTMAX int8', SOFTMAX, i8([3, 7], 0.1, 0, 31), i8([3, 7], 1 / 256, -128), { beta: 1 } as never),
  unary('SOFTMAX int16', SOFTMAX, i16([2, 9], 0.001, 0, 32), i16([2, 9], 1 / 32768, 0), { beta: 1 } as never),
  // Declined: the element widths differ, so element i of the output covers other input elements.
  unary('QUANTIZE int16 → int8', QUANTIZE, i16([10], 0.01, 0, 33), i8([10], 0.1, 0), null, null),
  unary('CAST int8 → int32', CAST, i8([10], 1, 0, 34), i32([10]), null, null),
  unary('SOFTMAX int8 → int16', SOFTMAX, i8([2, 4], 0.1, 0, 35), i16([2, 4], 1 / 65536, -32768), { beta: 1 } as never, null),
];

function declared(c: Case): number[] | null {
  const h = new KernelHarness(c.opts).prepare();
  const phaseCtx = { ...h.context, phase: 'prepare', getTensor: (i: number) => h.tensors[i]! } as typeof h.context;
  const d = c.opts.registration.inPlace?.(phaseCtx, h.node) ?? null;
  return d === null ? null : typeof d === 'number' ? [d] : [...d];
}

/** Runs the case with output 0 bound onto the bytes of input `position`. */
function runAliased(c: Case, position: number): number[] {
  const h = new KernelHarness(c.opts).prepare();
  const input = h.tensors[c.opts.inputs[position]!]!;
  const output = h.tensors[c.opts.outputs[0]!]!;
  expect(output.byteLength).toBe(input.byteLength);
  output.bind(input.bytes.buffer, input.bytes.byteOffset, AllocationType.ArenaRw);
  h.invoke();
  return h.outputArray();
}

describe('reference kernels in place', () => {
  for (const c of CASES) {
    it(`${c.name}: declares ${JSON.stringify(c.declares)} and aliasing changes nothing`, () => {
      expect(declared(c)).toEqual(c.declares);
      const expected = new KernelHarness(c.opts).invoke().outputArray();
      for (const p of c.declares ?? []) expect(runAliased(c, p)).toEqual(expected);
    });
  }

  it('an aliasing the kernel does not declare really breaks it (so the checks above can fail)', () => {
    // int8 → int16 SOFTMAX writes 2 bytes per element: output element c overwrites input elements 2c, 2c+1.
    const c = CASES.find((k) => k.name === 'SOFTMAX int8 → int16')!;
    const expected = new KernelHarness(c.opts).invoke().outputArray();
    const h = new KernelHarness(c.opts).prepare();
    h.tensors[1]!.bind(h.tensors[0]!.bytes.buffer, 0, AllocationType.ArenaRw);
    h.invoke();
    expect(h.outputArray()).not.toEqual(expected);
  });
});

describe('in-place helpers', () => {
  it('compares shapes right-aligned', () => {
    expect(sameShapeUpToLeadingOnes([1, 1, 3, 4], [3, 4])).toBe(true);
    expect(sameShapeUpToLeadingOnes([3, 4], [1, 4])).toBe(false);
    expect(sameShapeUpToLeadingOnes([], [1])).toBe(true);
  });

  it('exports the helpers used by the registrations', () => {
    expect(ADD.inPlace).toBe(broadcastInPlace);
    expect(RELU.inPlace).toBe(flatInPlace);
  });
});
