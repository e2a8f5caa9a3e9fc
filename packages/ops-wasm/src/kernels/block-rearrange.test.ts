import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { int, int8s, rng, runBoth } from '../__tests__/single-op.js';

const TYPES = [
  [TensorType.FLOAT32, 4],
  [TensorType.INT8, 1],
  [TensorType.UINT8, 1],
  [TensorType.INT32, 4],
  [TensorType.INT64, 8],
] as const;

interface Case {
  op: 'DEPTH_TO_SPACE' | 'SPACE_TO_DEPTH';
  type: TensorType;
  size: number;
  bs: number;
  /** The input shape, NHWC. */
  shape: [number, number, number, number];
}

function randomCase(seed: number): Case {
  const r = rng(seed);
  const [type, size] = TYPES[int(r, 0, TYPES.length - 1)]!;
  const bs = int(r, 1, 4);
  const n = int(r, 1, 3);
  if (r() < 0.5) {
    // depth a multiple of bs²: a few values per output pixel, or many (whole vectors and tails)
    const c = bs * bs * (r() < 0.3 ? int(r, 17, 40) : int(r, 1, 5));
    return { op: 'DEPTH_TO_SPACE', type, size, bs, shape: [n, int(r, 1, 7), int(r, 1, 9), c] };
  }
  return {
    op: 'SPACE_TO_DEPTH',
    type,
    size,
    bs,
    shape: [n, bs * int(r, 1, 5), bs * int(r, 1, 7), r() < 0.3 ? int(r, 17, 40) : int(r, 1, 6)],
  };
}

function outShape(c: Case): number[] {
  const [n, h, w, d] = c.shape;
  return c.op === 'DEPTH_TO_SPACE' ? [n, h * c.bs, w * c.bs, d / (c.bs * c.bs)] : [n, h / c.bs, w / c.bs, d * c.bs * c.bs];
}

/** A one-node model of `c` (or, with `roundTrip`, the op followed by its inverse) and random input bytes. */
function build(c: Case, r: () => number, roundTrip = false) {
  const b = new ModelBuilder();
  const q = c.type === TensorType.INT8 || c.type === TensorType.UINT8 ? { quantization: { scale: 0.5, zeroPoint: 1 } } : {};
  const inT = b.addTensor({ name: 'in', type: c.type, shape: c.shape, ...q });
  const midT = b.addTensor({ name: 'mid', type: c.type, shape: outShape(c), ...q });
  const code = c.op === 'DEPTH_TO_SPACE' ? BuiltinOperator.DEPTH_TO_SPACE : BuiltinOperator.SPACE_TO_DEPTH;
  b.addOperator({ op: code, version: 1, inputs: [inT], outputs: [midT], options: { blockSize: c.bs } });
  let outT = midT;
  if (roundTrip) {
    outT = b.addTensor({ name: 'out', type: c.type, shape: c.shape, ...q });
    const inverse = code === BuiltinOperator.DEPTH_TO_SPACE ? BuiltinOperator.SPACE_TO_DEPTH : BuiltinOperator.DEPTH_TO_SPACE;
    b.addOperator({ op: inverse, version: 1, inputs: [midT], outputs: [outT], options: { blockSize: c.bs } });
  }
  b.setInputs([inT]).setOutputs([outT]);
  const elements = c.shape.reduce((a, x) => a * x, 1);
  // float32 stays finite (no NaN payloads for the reference to quieten)
  const input =
    c.type === TensorType.FLOAT32
      ? new Int8Array(Float32Array.from({ length: elements }, () => r() * 200 - 100).buffer)
      : int8s(r, elements * c.size);
  return { def: b.buildDef(), input };
}

describe('DEPTH_TO_SPACE and SPACE_TO_DEPTH (wasm, as a transpose of a 6-D view) equal ops-reference byte for byte', () => {
  it('on 120 random cases: float32, int8, uint8, int32, int64; block sizes 1-4; batches; depths short of a vector and past it', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 120; seed++) {
      const c = randomCase(seed);
      const { def, input } = build(c, rng(seed * 7919));
      const run = runBoth(def, [input]);
      const desc = JSON.stringify(c);
      expect(run.served, desc).toBe(1);
      expect(run.got[0], desc).toEqual(run.ref[0]);
      seen.add(`${c.op}/${c.type}`);
    }
    expect(seen.size).toBe(10);
  });

  it('an element lands where the op says: DEPTH_TO_SPACE of [1, 1, 2, 8] int8 with block 2', () => {
    const c: Case = { op: 'DEPTH_TO_SPACE', type: TensorType.INT8, size: 1, bs: 2, shape: [1, 1, 2, 8] };
    const { def } = build(c, rng(1));
    const input = Int8Array.from({ length: 16 }, (_, i) => i);
    const run = runBoth(def, [input]);
    expect(run.served).toBe(1);
    // out[h][w][c] = in[h / 2][w / 2][((h % 2) * 2 + w % 2) * 2 + c]
    expect(Array.from(run.got[0]!)).toEqual([0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15]);
  });

  it("each is the other one's inverse (two nodes, both in WebAssembly)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const c = randomCase(seed + 1000);
      const { def, input } = build(c, rng(seed), true);
      const run = runBoth(def, [input]);
      expect(run.served, JSON.stringify(c)).toBe(2);
      expect(run.got[0], JSON.stringify(c)).toEqual(input);
    }
  });

  it('int16 is refused with a reason naming it (TFLM refuses it; neither package takes it)', () => {
    const c: Case = { op: 'SPACE_TO_DEPTH', type: TensorType.INT16, size: 2, bs: 2, shape: [1, 2, 2, 3] };
    const { def } = build(c, rng(3));
    expect(() => runBoth(def, [new Int8Array(24)])).toThrow(/int16/);
  });
});
