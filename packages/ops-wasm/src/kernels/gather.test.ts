import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { expectSameBytes, quantFor, randomByteType, randomElementBytes } from '../__tests__/single-op-bytes.js';
import { int, rng, wasm } from '../__tests__/single-op.js';
import { PROVIDER } from '../provider.js';

const INDEX_TYPES = [TensorType.INT32, TensorType.INT64, TensorType.INT16] as const;

/** Index tensor bytes of `type` holding `values`. */
function indexBytes(type: TensorType, values: number[]): Int8Array {
  if (type === TensorType.INT64) return new Int8Array(BigInt64Array.from(values.map(BigInt)).buffer);
  if (type === TensorType.INT16) return new Int8Array(Int16Array.from(values).buffer);
  return new Int8Array(Int32Array.from(values).buffer);
}

interface GatherCase {
  type: TensorType;
  size: number;
  shape: number[];
  indexType: TensorType;
  indexShape: number[];
  values: number[];
  axis: number;
  axisValue: number;
  batchDims: number;
  constant: boolean;
}

function randomGather(r: () => number): GatherCase {
  const { type, size } = randomByteType(r, [
    [TensorType.BOOL, 1],
    [TensorType.FLOAT16, 2],
    [TensorType.UINT32, 4],
    [TensorType.COMPLEX64, 8],
  ]);
  const rank = int(r, 1, 5);
  const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 && r() < 0.3 ? int(r, 9, 40) : int(r, 1, 5)));
  const axis = int(r, 0, rank - 1);
  const batchDims = r() < 0.3 ? int(r, 0, axis) : 0;
  const indexShape = shape.slice(0, batchDims).concat(Array.from({ length: int(r, 0, 3) }, () => int(r, 1, 4)));
  const count = indexShape.reduce((a, x) => a * x, 1);
  const values = Array.from({ length: count }, () => int(r, 0, shape[axis]! - 1));
  return {
    type,
    size,
    shape,
    indexType: INDEX_TYPES[int(r, 0, 2)]!,
    indexShape,
    values,
    axis,
    axisValue: r() < 0.3 ? axis - rank : axis,
    batchDims,
    constant: r() < 0.4,
  };
}

function gatherModel(c: GatherCase): ModelDef {
  const b = new ModelBuilder();
  const pT = b.addTensor({ name: 'params', type: c.type, shape: c.shape, ...quantFor(c.type) });
  const data = indexBytes(c.indexType, c.values);
  const iT = b.addTensor({
    name: 'indices',
    type: c.indexType,
    shape: c.indexShape,
    ...(c.constant ? { data: new Uint8Array(data.buffer) } : {}),
  });
  const outShape = [...c.shape.slice(0, c.axis), ...c.indexShape.slice(c.batchDims), ...c.shape.slice(c.axis + 1)];
  const oT = b.addTensor({ name: 'out', type: c.type, shape: outShape, ...quantFor(c.type) });
  b.addOperator({
    op: BuiltinOperator.GATHER,
    version: 7,
    inputs: [pT, iT],
    outputs: [oT],
    options: { axis: c.axisValue, batchDims: c.batchDims },
  });
  b.setInputs(c.constant ? [pT] : [pT, iT]).setOutputs([oT]);
  return b.buildDef();
}

/** The message of the error `def`'s invoke throws, with or without ops-wasm, and which provider ran the node. */
function invokeError(def: ModelDef, inputs: Int8Array[], withWasm: boolean): { message: string; provider: string } {
  const resolver = registerReferenceOps(new OpResolver());
  if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
  }).allocateTensors();
  inputs.forEach((x, i) => it_.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  const provider = it_.nodes()[0]!.provider;
  try {
    it_.invoke();
  } catch (e) {
    return { message: (e as Error).message, provider };
  }
  return { message: 'no error', provider };
}

describe('GATHER (wasm, gather_bytes) equals ops-reference byte for byte', () => {
  it('on 120 random cases: ranks 1-5, every axis (negative too), batch_dims, int16/int32/int64 indices (constant or data), scalar indices, 1- to 8-byte elements', () => {
    const seen = { batchDims: 0, scalar: 0, constant: 0, data: 0, int16: 0, int64: 0, wide: 0, narrow: 0, negativeAxis: 0 };
    for (let seed = 1; seed <= 120; seed++) {
      const r = rng(seed + 8000);
      const c = randomGather(r);
      const elements = c.shape.reduce((a, x) => a * x, 1);
      const inputs = [randomElementBytes(r, c.type, c.size, elements)];
      if (!c.constant) inputs.push(indexBytes(c.indexType, c.values));
      expectSameBytes(gatherModel(c), inputs, 1, JSON.stringify(c));
      const inner = c.shape.slice(c.axis + 1).reduce((a, x) => a * x, 1) * c.size;
      if (c.batchDims > 0) seen.batchDims++;
      if (c.indexShape.length === c.batchDims) seen.scalar++;
      if (c.constant) seen.constant++;
      else seen.data++;
      if (c.indexType === TensorType.INT16) seen.int16++;
      if (c.indexType === TensorType.INT64) seen.int64++;
      if (inner > 8) seen.wide++;
      if (inner <= 8) seen.narrow++;
      if (c.axisValue < 0) seen.negativeAxis++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });

  it('an index out of range fails the invoke with ops-reference error (position and value), for each index type and sign', () => {
    let checked = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const r = rng(seed + 9000);
      const c = { ...randomGather(r), indexType: INDEX_TYPES[seed % 3]!, constant: false };
      if (c.values.length === 0) continue;
      // one index (or two: the first is reported) just past either end, or far beyond
      const bad = [c.shape[c.axis]!, -1, c.shape[c.axis]! + 1000, -30000][seed % 4]!;
      c.values[int(r, 0, c.values.length - 1)] = bad;
      if (seed % 2 === 0) c.values[int(r, 0, c.values.length - 1)] = -2;
      const elements = c.shape.reduce((a, x) => a * x, 1);
      const inputs = [randomElementBytes(r, c.type, c.size, elements), indexBytes(c.indexType, c.values)];
      const def = gatherModel(c);
      const ref = invokeError(def, inputs, false);
      const got = invokeError(def, inputs, true);
      expect(got.provider, JSON.stringify(c)).toBe(PROVIDER);
      expect(ref.message, JSON.stringify(c)).toMatch(/out of range: the gathered axis has size/);
      expect(got.message, JSON.stringify(c)).toBe(ref.message);
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('declines string params (ops-reference serves them)', () => {
    const b = new ModelBuilder();
    const pT = b.addTensor({ name: 'params', type: TensorType.STRING, shape: [3] });
    const iT = b.addTensor({ name: 'indices', type: TensorType.INT32, shape: [2], data: new Uint8Array(Int32Array.of(2, 0).buffer) });
    const oT = b.addTensor({ name: 'out', type: TensorType.STRING, shape: [2] });
    b.addOperator({ op: BuiltinOperator.GATHER, version: 7, inputs: [pT, iT], outputs: [oT], options: { axis: 0, batchDims: 0 } });
    b.setInputs([pT]).setOutputs([oT]);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const it_ = new MicroInterpreter(b.buildDef(), resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking });
    expect(it_.nodes()[0]!.provider).not.toBe(PROVIDER);
  });
});
