import { BuiltinOperator, KernelError, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { int, int8s, rng, runBoth, wasm } from '../__tests__/single-op.js';

const TYPES = [TensorType.INT8, TensorType.INT16, TensorType.FLOAT32, TensorType.INT64] as const;
/** One type per element size, for the SIMD paths (uint8 stands for the 1-byte types beside int8). */
const BY_SIZE = [
  ['uint8', TensorType.UINT8],
  ['int8', TensorType.INT8],
  ['int16', TensorType.INT16],
  ['float32', TensorType.FLOAT32],
  ['int64', TensorType.INT64],
] as const;
const SIZE = new Map<TensorType, number>([
  [TensorType.UINT8, 1],
  [TensorType.INT8, 1],
  [TensorType.INT16, 2],
  [TensorType.FLOAT32, 4],
  [TensorType.INT64, 8],
]);

function shuffled(r: () => number, n: number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

function buildTranspose(seed: number) {
  const r = rng(seed);
  const rank = int(r, 1, 6);
  const type = TYPES[int(r, 0, TYPES.length - 1)]!;
  const shape = Array.from({ length: rank }, () => int(r, 1, 5));
  return transposeModel(r, type, shape, shuffled(r, rank), seed);
}

/** A TRANSPOSE of a random `type` tensor of `shape` by `perm` (int32 or int64 at random), with its input. */
function transposeModel(r: () => number, type: TensorType, shape: number[], perm: number[], seed: number) {
  const rank = shape.length;
  const b = new ModelBuilder();
  const q = type === TensorType.INT8 || type === TensorType.UINT8 ? { quantization: { scale: 0.1, zeroPoint: 3 } } : {};
  const inT = b.addTensor({ name: 'in', type, shape, ...q });
  const permData =
    r() < 0.5
      ? { type: TensorType.INT32, data: Int32Array.from(perm) }
      : { type: TensorType.INT64, data: BigInt64Array.from(perm.map(BigInt)) };
  const pT = b.addTensor({ name: 'perm', shape: [rank], ...permData });
  const outT = b.addTensor({ name: 'out', type, shape: perm.map((p) => shape[p]!), ...q });
  b.addOperator({ op: BuiltinOperator.TRANSPOSE, version: 2, inputs: [inT, pT], outputs: [outT] });
  b.setInputs([inT]).setOutputs([outT]);
  const n = shape.reduce((a, x) => a * x, 1);
  // random bytes; float32 stays finite (no NaN payloads for the reference to quieten)
  const input =
    type === TensorType.FLOAT32
      ? new Int8Array(Float32Array.from({ length: n }, () => r() * 200 - 100).buffer)
      : int8s(r, n * SIZE.get(type)!);
  return { def: b.buildDef(), inputs: [input], desc: JSON.stringify({ seed, type, shape, perm }) };
}

/** Runs a TRANSPOSE on both packages; expects ops-wasm to take it and match byte for byte. */
function expectSame(m: ReturnType<typeof transposeModel>): void {
  const r = runBoth(m.def, m.inputs);
  expect(r.served, m.desc).toBe(1);
  expect(r.got[0], m.desc).toEqual(r.ref[0]);
}

/** Image sizes [H, W]: one pixel, widths not a multiple of 16, and whole vectors (16 pixels and more). */
const IMAGES = [
  [1, 1],
  [1, 7],
  [3, 5],
  [2, 8],
  [4, 4],
  [5, 13],
  [4, 16],
  [3, 37],
  [9, 17],
];

describe('TRANSPOSE (wasm) equals ops-reference byte for byte', () => {
  // NCHW → NHWC interleaves C planes (transpose-planes.ts interleave<C>x<es>); NHWC → NCHW splits them
  // (deinterleave<C>x<es>); 8-byte elements and C > 4 take the tiles or the general loops.
  for (const [name, type] of BY_SIZE) {
    for (const c of [2, 3, 4, 5]) {
      it(`NCHW → NHWC and back, ${name}, C = ${c}, batch 1-3, ${IMAGES.length} image sizes`, () => {
        const r = rng(1000 * c + type);
        for (const [h, w] of IMAGES) {
          const n = int(r, 1, 3);
          expectSame(transposeModel(r, type, [n, c, h!, w!], [0, 2, 3, 1], 0));
          expectSame(transposeModel(r, type, [n, h!, w!, c], [0, 3, 1, 2], 0));
        }
      });
    }
  }

  // [N, A, B] → [N, B, A] (and the same inside more axes) in SIMD tiles of 16 / es elements with
  // element-by-element edges (transpose-tiles.ts); a perm keeping the innermost axis copies whole rows.
  for (const [name, type] of BY_SIZE) {
    it(`tiled 2-D transposes and row copies, ${name}`, () => {
      const r = rng(77 + type);
      const sides = [5, 8, 16, 17, 31, 40];
      for (let i = 0; i < 8; i++) {
        const a = sides[int(r, 0, sides.length - 1)]!;
        const b = sides[int(r, 0, sides.length - 1)]!;
        expectSame(transposeModel(r, type, [int(r, 1, 3), a, b], [0, 2, 1], i));
        expectSame(transposeModel(r, type, [a, b], [1, 0], i));
        expectSame(transposeModel(r, type, [2, a, 3, b], [2, 0, 3, 1], i));
        expectSame(transposeModel(r, type, [a, 2, b], [1, 0, 2], i));
      }
    });
  }

  it('on 150 random tensors of rank 1-6 (int8, int16, float32, int64) with random permutations', () => {
    for (let seed = 1; seed <= 150; seed++) expectSame(buildTranspose(seed));
  });

  it('NCHW → NHWC of a [1, 3, 5, 7] int8 image', () => {
    const b = new ModelBuilder();
    const inT = b.addTensor({ name: 'in', type: TensorType.INT8, shape: [1, 3, 5, 7], quantization: { scale: 1, zeroPoint: 0 } });
    const pT = b.addTensor({ name: 'perm', type: TensorType.INT32, shape: [4], data: Int32Array.from([0, 2, 3, 1]) });
    const outT = b.addTensor({ name: 'out', type: TensorType.INT8, shape: [1, 5, 7, 3], quantization: { scale: 1, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.TRANSPOSE, inputs: [inT, pT], outputs: [outT] });
    b.setInputs([inT]).setOutputs([outT]);
    const x = Int8Array.from({ length: 105 }, (_, i) => i);
    const r = runBoth(b.buildDef(), [x]);
    const want = new Int8Array(105);
    for (let h = 0; h < 5; h++) for (let w = 0; w < 7; w++) for (let c = 0; c < 3; c++) want[(h * 7 + w) * 3 + c] = x[c * 35 + h * 7 + w]!;
    expect(r.got[0]).toEqual(want);
  });

  it('rejects a perm that repeats an axis with a KernelError naming it', () => {
    const b = new ModelBuilder();
    const inT = b.addTensor({ name: 'in', type: TensorType.INT8, shape: [2, 3], quantization: { scale: 1, zeroPoint: 0 } });
    const pT = b.addTensor({ name: 'perm', type: TensorType.INT32, shape: [2], data: Int32Array.from([1, 1]) });
    const outT = b.addTensor({ name: 'out', type: TensorType.INT8, shape: [3, 3], quantization: { scale: 1, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.TRANSPOSE, inputs: [inT, pT], outputs: [outT] });
    b.setInputs([inT]).setOutputs([outT]);
    const resolver = registerReferenceOps(new OpResolver());
    resolver.registerAll(wasm().kernels, { fallback: true });
    const it = new MicroInterpreter(b.buildDef(), resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking });
    expect(() => it.allocateTensors()).toThrow(KernelError);
    expect(() => it.allocateTensors()).toThrow(/axis 1 repeated/);
  });
});
