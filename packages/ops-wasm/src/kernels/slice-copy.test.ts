import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { int, int8s, pick, rng, runBoth } from '../__tests__/single-op.js';

/** The types drawn, with their element sizes: every size transpose_bytes moves (1, 2, 4, 8 bytes). */
const TYPES = [
  [TensorType.INT8, 1],
  [TensorType.UINT8, 1],
  [TensorType.INT16, 2],
  [TensorType.FLOAT32, 4],
  [TensorType.INT32, 4],
  [TensorType.INT64, 8],
] as const;

type Builder = ModelBuilder;

function randomType(r: () => number): { type: TensorType; size: number } {
  const [type, size] = TYPES[int(r, 0, TYPES.length - 1)]!;
  return { type, size };
}

function quant(type: TensorType) {
  return type === TensorType.INT8 || type === TensorType.UINT8 ? { quantization: { scale: 0.5, zeroPoint: 1 } } : {};
}

/** Random input bytes for `n` elements (float32 finite: no NaN payloads for the reference to quieten). */
function inputBytes(r: () => number, type: TensorType, size: number, n: number): Int8Array {
  if (type === TensorType.BOOL) return Int8Array.from({ length: n }, () => int(r, 0, 1));
  return type === TensorType.FLOAT32 ? new Int8Array(Float32Array.from({ length: n }, () => r() * 200 - 100).buffer) : int8s(r, n * size);
}

/** An int32 or int64 (at random) constant index tensor. */
function indexTensor(b: Builder, r: () => number, name: string, values: number[], int64 = r() < 0.5) {
  return b.addTensor({
    name,
    shape: [values.length],
    ...(int64
      ? { type: TensorType.INT64, data: BigInt64Array.from(values.map(BigInt)) }
      : { type: TensorType.INT32, data: Int32Array.from(values) }),
  });
}

function randomShape(r: () => number, rank: number): number[] {
  // small axes, and now and then a long innermost one (whole rows by memory.copy)
  return Array.from({ length: rank }, (_, i) => (i === rank - 1 && r() < 0.4 ? int(r, 9, 40) : int(r, 1, 6)));
}

/** Runs `def` on both packages; expects ops-wasm to serve `nodes` nodes and every output to match byte for byte. */
function expectSame(def: ReturnType<Builder['buildDef']>, input: Int8Array, nodes: number, desc: string): Int8Array[] {
  const run = runBoth(def, [input]);
  expect(run.served, desc).toBe(nodes);
  expect(run.got.length, desc).toBe(run.ref.length);
  run.got.forEach((g, i) => expect(g, `${desc} output ${i}`).toEqual(run.ref[i]));
  return run.got;
}

interface StridedCase {
  type: TensorType;
  size: number;
  shape: number[];
  begin: number[];
  end: number[];
  strides: number[];
  beginMask: number;
  endMask: number;
  shrinkMask: number;
  offset: boolean;
}

function randomStrided(r: () => number): StridedCase {
  const { type, size } = randomType(r);
  const rank = int(r, 1, 5);
  const shape = randomShape(r, rank);
  const c: StridedCase = {
    type,
    size,
    shape,
    begin: [],
    end: [],
    strides: [],
    beginMask: 0,
    endMask: 0,
    shrinkMask: 0,
    offset: r() < 0.15,
  };
  for (let a = 0; a < rank; a++) {
    const n = shape[a]!;
    if (r() < 0.15) {
      // shrunk: one valid index (negative from the end half the time), positive stride
      c.shrinkMask |= 1 << a;
      c.begin.push(r() < 0.5 ? int(r, 0, n - 1) : -int(r, 1, n));
      c.end.push(int(r, -n, n));
      c.strides.push(1);
      continue;
    }
    c.begin.push(int(r, -n - 2, n + 2));
    c.end.push(c.offset ? int(r, -n, n) : int(r, -n - 2, n + 2));
    c.strides.push(pick(r, [1, 1, 1, 2, 3, -1, -1, -2, -3]));
    if (r() < 0.2) c.beginMask |= 1 << a;
    if (r() < 0.2) c.endMask |= 1 << a;
  }
  return c;
}

function stridedModel(c: StridedCase, r: () => number) {
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: c.type, shape: c.shape, ...quant(c.type) });
  const int64 = r() < 0.5;
  const bT = indexTensor(b, r, 'begin', c.begin, int64);
  const eT = indexTensor(b, r, 'end', c.end, int64);
  const sT = indexTensor(b, r, 'strides', c.strides, int64);
  const outT = b.addTensor({ name: 'out', type: c.type, shape: [1], ...quant(c.type) }); // shape set in prepare
  b.addOperator({
    op: BuiltinOperator.STRIDED_SLICE,
    version: 4,
    inputs: [inT, bT, eT, sT],
    outputs: [outT],
    options: {
      beginMask: c.beginMask,
      endMask: c.endMask,
      ellipsisMask: 0,
      newAxisMask: 0,
      shrinkAxisMask: c.shrinkMask,
      offset: c.offset,
    },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return b.buildDef();
}

describe('STRIDED_SLICE (wasm, a strided copy) equals ops-reference byte for byte', () => {
  it('on 100 random cases: ranks 1-5, negative indices and strides, begin/end masks, shrunk axes, offset, 1- to 8-byte elements', () => {
    const seen = { negative: 0, shrink: 0, masks: 0, offset: 0, int8: 0, int64: 0, empty: 0 };
    for (let seed = 1; seed <= 100; seed++) {
      const r = rng(seed);
      const c = randomStrided(r);
      const elements = c.shape.reduce((a, x) => a * x, 1);
      const got = expectSame(stridedModel(c, r), inputBytes(r, c.type, c.size, elements), 1, JSON.stringify(c));
      if (c.strides.some((s) => s < 0)) seen.negative++;
      if (c.shrinkMask) seen.shrink++;
      if (c.beginMask || c.endMask) seen.masks++;
      if (c.offset) seen.offset++;
      if (c.size === 1) seen.int8++;
      if (c.size === 8) seen.int64++;
      if (got[0]!.length === 0) seen.empty++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });

  it('a negative stride walks backwards: int8 [2, 5], begin [1, -1], end [-3, -6], strides [-1, -2] is [9, 7, 5, 4, 2, 0]', () => {
    const c: StridedCase = {
      type: TensorType.INT8,
      size: 1,
      shape: [2, 5],
      begin: [1, -1],
      end: [-3, -6],
      strides: [-1, -2],
      beginMask: 0,
      endMask: 0,
      shrinkMask: 0,
      offset: false,
    };
    const got = expectSame(
      stridedModel(c, rng(1)),
      Int8Array.from({ length: 10 }, (_, i) => i),
      1,
      'reverse',
    );
    expect(Array.from(got[0]!)).toEqual([9, 7, 5, 4, 2, 0]);
  });
});

describe('SLICE (wasm) equals ops-reference byte for byte', () => {
  it('on 70 random cases: ranks 1-5, size -1, empty slices, int32 and int64 begin/size, 1- to 8-byte elements', () => {
    const seen = { minusOne: 0, empty: 0, int8: 0, int64: 0 };
    for (let seed = 1; seed <= 70; seed++) {
      const r = rng(seed + 5000);
      const { type, size } = randomType(r);
      const shape = randomShape(r, int(r, 1, 5));
      const begin = shape.map((n) => int(r, 0, n));
      const sizes = shape.map((n, a) => (r() < 0.25 ? -1 : int(r, 0, n - begin[a]!)));
      const b = new ModelBuilder();
      const inT = b.addTensor({ name: 'in', type, shape, ...quant(type) });
      const int64 = r() < 0.5;
      const bT = indexTensor(b, r, 'begin', begin, int64);
      const sT = indexTensor(b, r, 'size', sizes, int64);
      const outT = b.addTensor({
        name: 'out',
        type,
        shape: shape.map((n, a) => (sizes[a] === -1 ? n - begin[a]! : sizes[a]!)),
        ...quant(type),
      });
      b.addOperator({ op: BuiltinOperator.SLICE, version: 4, inputs: [inT, bT, sT], outputs: [outT] });
      b.setInputs([inT]).setOutputs([outT]);
      const elements = shape.reduce((a, x) => a * x, 1);
      const got = expectSame(b.buildDef(), inputBytes(r, type, size, elements), 1, JSON.stringify({ type, shape, begin, sizes }));
      if (sizes.includes(-1)) seen.minusOne++;
      if (got[0]!.length === 0) seen.empty++;
      if (size === 1) seen.int8++;
      if (size === 8) seen.int64++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });

  it('declines begin and size computed at invoke (ops-reference serves them)', () => {
    const b = new ModelBuilder();
    const inT = b.addTensor({ name: 'in', type: TensorType.INT8, shape: [4, 4], ...quant(TensorType.INT8) });
    const bT = b.addTensor({ name: 'begin', type: TensorType.INT32, shape: [2] });
    const sT = b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2] });
    const outT = b.addTensor({ name: 'out', type: TensorType.INT8, shape: [2, 3], ...quant(TensorType.INT8) });
    b.addOperator({ op: BuiltinOperator.SLICE, version: 4, inputs: [inT, bT, sT], outputs: [outT] });
    b.setInputs([inT, bT, sT]).setOutputs([outT]);
    const run = runBoth(b.buildDef(), [
      int8s(rng(2), 16),
      new Int8Array(Int32Array.of(1, 0).buffer),
      new Int8Array(Int32Array.of(2, 3).buffer),
    ]);
    expect(run.served).toBe(0);
    expect(run.got[0]).toEqual(run.ref[0]);
  });
});

type SplitKind = 'SPLIT' | 'SPLIT_V' | 'UNPACK';

/** A SPLIT, SPLIT_V or UNPACK node of a random input; every output is a model output. */
function splitModel(kind: SplitKind, r: () => number) {
  let { type, size } = randomType(r);
  // UNPACK takes no 8-byte type; float16 and bool instead
  if (kind === 'UNPACK' && size === 8)
    ({ type, size } = r() < 0.5 ? { type: TensorType.FLOAT16, size: 2 } : { type: TensorType.BOOL, size: 1 });
  const rank = int(r, 1, 4);
  const shape = randomShape(r, rank);
  const axis = int(r, 0, rank - 1);
  const axisValue = r() < 0.3 ? axis - rank : axis;
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type, shape, ...quant(type) });
  let parts: number[];
  let sizeSplits: number[] = [];
  if (kind === 'SPLIT') {
    const divisors = Array.from({ length: shape[axis]! }, (_, i) => i + 1).filter((d) => shape[axis]! % d === 0);
    const count = pick(r, divisors);
    parts = new Array<number>(count).fill(shape[axis]! / count);
  } else if (kind === 'SPLIT_V') {
    parts = [];
    for (let left = shape[axis]!; left > 0;) {
      const p = int(r, r() < 0.2 ? 0 : 1, left);
      parts.push(p);
      left -= p;
    }
    if (r() < 0.3) parts.splice(int(r, 0, parts.length), 0, 0);
    sizeSplits = parts.slice();
    if (r() < 0.4) sizeSplits[int(r, 0, parts.length - 1)] = -1;
  } else {
    parts = new Array<number>(shape[axis]!).fill(1);
  }
  const outs = parts.map((p, i) => {
    const dims = shape.slice();
    if (kind === 'UNPACK') dims.splice(axis, 1);
    else dims[axis] = p;
    return b.addTensor({ name: `out${i}`, type, shape: dims, ...quant(type) });
  });
  const axisT = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: r() < 0.5 ? [] : [1], data: Int32Array.of(axisValue) });
  if (kind === 'SPLIT')
    b.addOperator({ op: BuiltinOperator.SPLIT, version: 3, inputs: [axisT, inT], outputs: outs, options: { numSplits: parts.length } });
  else if (kind === 'SPLIT_V') {
    const sT = indexTensor(b, r, 'size_splits', sizeSplits, false);
    b.addOperator({
      op: BuiltinOperator.SPLIT_V,
      version: 2,
      inputs: [inT, sT, axisT],
      outputs: outs,
      options: { numSplits: parts.length },
    });
  } else
    b.addOperator({
      op: BuiltinOperator.UNPACK,
      version: 3,
      inputs: [inT],
      outputs: outs,
      options: { num: parts.length, axis: axisValue },
    });
  b.setInputs([inT]).setOutputs(outs);
  const elements = shape.reduce((a, x) => a * x, 1);
  return {
    def: b.buildDef(),
    input: inputBytes(r, type, size, elements),
    outputs: parts.length,
    size,
    desc: JSON.stringify({ kind, type, shape, axisValue, parts, sizeSplits }),
  };
}

describe('SPLIT, SPLIT_V and UNPACK (wasm) equal ops-reference byte for byte, every output', () => {
  for (const kind of ['SPLIT', 'SPLIT_V', 'UNPACK'] as const)
    it(`${kind}: 40 random cases, ranks 1-4, every axis (negative too), 1- to 8-byte elements`, () => {
      const seen = { many: 0, int8: 0, widest: 0 };
      for (let seed = 1; seed <= 40; seed++) {
        const m = splitModel(kind, rng(seed * 31 + kind.length));
        expectSame(m.def, m.input, 1, m.desc);
        if (m.outputs > 2) seen.many++;
        if (m.size === 1) seen.int8++;
        if (m.size === (kind === 'UNPACK' ? 2 : 8)) seen.widest++; // UNPACK takes no 8-byte type
      }
      for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
    });
});

describe('REVERSE_V2 (wasm, a copy with a negative stride) equals ops-reference byte for byte', () => {
  it('on 40 random cases: ranks 1-6, contiguous axes (negative, unsorted), every type it takes', () => {
    const seen = { one: 0, several: 0, int8: 0, int64: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed + 9000);
      let { type, size } = randomType(r);
      if (r() < 0.2) ({ type, size } = r() < 0.5 ? { type: TensorType.FLOAT16, size: 2 } : { type: TensorType.BOOL, size: 1 });
      const rank = int(r, 1, 6);
      const shape = randomShape(r, rank).map((n) => (rank > 4 ? Math.min(n, 4) : n));
      const count = int(r, 1, rank); // an empty axis list is no constant tensor to ModelBuilder
      const first = int(r, 0, rank - count);
      const axes = Array.from({ length: count }, (_, i) => (r() < 0.3 ? first + i - rank : first + i)).reverse();
      const b = new ModelBuilder();
      const inT = b.addTensor({ name: 'in', type, shape, ...quant(type) });
      const aT = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [count], data: Int32Array.from(axes) });
      const outT = b.addTensor({ name: 'out', type, shape, ...quant(type) });
      b.addOperator({ op: BuiltinOperator.REVERSE_V2, version: 3, inputs: [inT, aT], outputs: [outT] });
      b.setInputs([inT]).setOutputs([outT]);
      const elements = shape.reduce((a, x) => a * x, 1);
      expectSame(b.buildDef(), inputBytes(r, type, size, elements), 1, JSON.stringify({ type, shape, axes }));
      if (count === 1) seen.one++;
      if (count > 1) seen.several++;
      if (size === 1) seen.int8++;
      if (size === 8) seen.int64++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });
});
