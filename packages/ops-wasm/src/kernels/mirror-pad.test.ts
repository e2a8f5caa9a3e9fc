import { BuiltinOperator, MirrorPadMode, ModelBuilder, TensorType } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { expectSameBytes, quantFor, randomByteType, randomElementBytes } from '../__tests__/single-op-bytes.js';
import { int, rng, runBoth } from '../__tests__/single-op.js';
import { mergeCopyAxes, mirrorPadCopies } from './mirror-pad.js';

interface MirrorCase {
  type: TensorType;
  size: number;
  shape: number[];
  pads: number[];
  mode: MirrorPadMode;
  int64: boolean;
}

/** Paddings TFLM accepts for an axis of `n` in `mode`: left at most n - offset, right up to 2 past that (TFLM's clamp). */
function randomPads(r: () => number, n: number, mode: MirrorPadMode): [number, number] {
  const most = n - (mode === MirrorPadMode.REFLECT ? 1 : 0);
  if (r() < 0.3) return [0, 0];
  return [int(r, 0, most), r() < 0.15 ? most + int(r, 1, 2) : int(r, 0, most)];
}

function mirrorModel(c: MirrorCase) {
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: c.type, shape: c.shape, ...quantFor(c.type) });
  const rank = c.shape.length;
  const pT = b.addTensor({
    name: 'paddings',
    shape: [rank, 2],
    ...(c.int64
      ? { type: TensorType.INT64, data: BigInt64Array.from(c.pads.map(BigInt)) }
      : { type: TensorType.INT32, data: Int32Array.from(c.pads) }),
  });
  const outT = b.addTensor({
    name: 'out',
    type: c.type,
    shape: c.shape.map((n, a) => n + c.pads[2 * a]! + c.pads[2 * a + 1]!),
    ...quantFor(c.type),
  });
  b.addOperator({ op: BuiltinOperator.MIRROR_PAD, version: 3, inputs: [inT, pT], outputs: [outT], options: { mode: c.mode } });
  b.setInputs([inT]).setOutputs([outT]);
  return b.buildDef();
}

describe('MIRROR_PAD (wasm, strided box copies) equals ops-reference byte for byte', () => {
  it('on 150 random cases: ranks 1-6, REFLECT and SYMMETRIC, borders up to the whole axis, right borders past it (clamped), 1- to 8-byte elements', () => {
    const seen = { reflect: 0, symmetric: 0, clamped: 0, full: 0, rank6: 0, single: 0, int8: 0, int64: 0 };
    for (let seed = 1; seed <= 150; seed++) {
      const r = rng(seed + 11000);
      const { type, size } = randomByteType(r);
      const rank = int(r, 1, 6);
      const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 && r() < 0.3 ? int(r, 9, 30) : int(r, 1, rank > 4 ? 3 : 5)));
      const mode = r() < 0.5 ? MirrorPadMode.REFLECT : MirrorPadMode.SYMMETRIC;
      const pads = shape.flatMap((n) => randomPads(r, n, mode));
      // (outputs of at most 40,000 elements: the reference walks them one by one)
      if (shape.reduce((a, n, i) => a * (n + pads[2 * i]! + pads[2 * i + 1]!), 1) > 40000) pads.fill(0, 0, 2 * rank - 2);
      const c: MirrorCase = { type, size, shape, pads, mode, int64: r() < 0.3 };
      const elements = shape.reduce((a, x) => a * x, 1);
      expectSameBytes(mirrorModel(c), [randomElementBytes(r, type, size, elements)], 1, JSON.stringify(c));
      const offset = mode === MirrorPadMode.REFLECT ? 1 : 0;
      if (mode === MirrorPadMode.REFLECT) seen.reflect++;
      else seen.symmetric++;
      if (shape.some((n, a) => pads[2 * a + 1]! > n - offset)) seen.clamped++;
      if (shape.some((n, a) => pads[2 * a]! === n - offset && n - offset > 0)) seen.full++;
      if (rank === 6) seen.rank6++;
      if (shape.includes(1)) seen.single++;
      if (size === 1) seen.int8++;
      if (size === 8) seen.int64++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });

  it('pads an image [1, 224, 224, 3] by 3 (REFLECT, as a style-transfer input) and [2, 40, 40, 32] by 1 (SYMMETRIC)', () => {
    for (const [shape, p, mode] of [
      [[1, 224, 224, 3], 3, MirrorPadMode.REFLECT],
      [[2, 40, 40, 32], 1, MirrorPadMode.SYMMETRIC],
    ] as const) {
      const c: MirrorCase = { type: TensorType.FLOAT32, size: 4, shape: [...shape], pads: [0, 0, p, p, p, p, 0, 0], mode, int64: false };
      const elements = shape.reduce((a: number, x: number) => a * x, 1);
      expectSameBytes(mirrorModel(c), [randomElementBytes(rng(3), c.type, 4, elements)], 1, JSON.stringify(shape));
    }
  });

  it('REFLECT [1, 2, 3] by 2 on each side is [3, 2, 1, 2, 3, 2, 1] and SYMMETRIC is [2, 1, 1, 2, 3, 3, 2]', () => {
    for (const [mode, want] of [
      [MirrorPadMode.REFLECT, [3, 2, 1, 2, 3, 2, 1]],
      [MirrorPadMode.SYMMETRIC, [2, 1, 1, 2, 3, 3, 2]],
    ] as const) {
      const c: MirrorCase = { type: TensorType.INT8, size: 1, shape: [3], pads: [2, 2], mode, int64: false };
      expect(Array.from(expectSameBytes(mirrorModel(c), [Int8Array.of(1, 2, 3)], 1, `mode ${mode}`)[0]!)).toEqual(want);
    }
  });

  it('declines paddings computed at invoke (ops-reference reports them)', () => {
    const b = new ModelBuilder();
    const inT = b.addTensor({ name: 'in', type: TensorType.FLOAT32, shape: [4, 4] });
    const pT = b.addTensor({ name: 'paddings', type: TensorType.INT32, shape: [2, 2] });
    const outT = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: [6, 6] });
    b.addOperator({
      op: BuiltinOperator.MIRROR_PAD,
      version: 3,
      inputs: [inT, pT],
      outputs: [outT],
      options: { mode: MirrorPadMode.REFLECT },
    });
    b.setInputs([inT, pT]).setOutputs([outT]);
    expect(() => runBoth(b.buildDef(), [new Int8Array(64), new Int8Array(Int32Array.of(1, 1, 1, 1).buffer)])).toThrow(/must be constant/);
  });

  it('composes at most 1 + 3 x rank copies, merged to whole rows where nothing is padded inside them', () => {
    // [1, 8, 8, 16] padded in H and W: the interior, two W slabs (rows of 16 channels), two H slabs (rows of whole output rows)
    const copies = mirrorPadCopies([1, 8, 8, 16], [0, 0, 2, 2, 2, 2, 0, 0], 1, 4).map(mergeCopyAxes);
    expect(copies.length).toBe(5);
    expect(copies[0]!.dims.slice(-2)).toEqual([8, 8 * 16]);
    expect(copies[0]!.srcStrides.slice(-2)).toEqual([8 * 16 * 4, 4]);
    expect(copies[0]!.dstStrides.slice(-2)).toEqual([12 * 16 * 4, 4]);
    expect(copies[1]!.dims.slice(-3)).toEqual([8, 2, 16]);
    expect(copies[1]!.srcStrides.slice(-3)).toEqual([12 * 16 * 4, -16 * 4, 4]);
    expect(copies[3]!.dims.slice(-2)).toEqual([2, 12 * 16]);
    expect(copies[3]!.srcStrides.slice(-2)).toEqual([-12 * 16 * 4, 4]);
    // a right border longer than the mirror: one more copy, with a stride of 0
    const clamped = mirrorPadCopies([3], [1, 4], 1, 1);
    expect(clamped.map((c) => [c.dims[0], c.srcStrides[0]])).toEqual([
      [3, 1],
      [1, -1],
      [2, -1],
      [2, 0],
    ]);
  });
});
