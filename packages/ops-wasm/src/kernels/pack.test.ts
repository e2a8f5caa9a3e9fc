import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { expectSameBytes, quantFor, randomByteType, randomElementBytes } from '../__tests__/single-op-bytes.js';
import { int, rng } from '../__tests__/single-op.js';

describe('PACK (wasm, on concat_bytes) equals ops-reference byte for byte', () => {
  it('on 100 random cases: 1-6 inputs of ranks 0-5, every axis (negative too), 1- to 8-byte elements, uint32', () => {
    const seen = { scalar: 0, first: 0, last: 0, negative: 0, int64: 0, int8: 0, many: 0 };
    for (let seed = 1; seed <= 100; seed++) {
      const r = rng(seed + 7000);
      const { type, size } = randomByteType(r, [[TensorType.UINT32, 4]]);
      const rank = int(r, 0, 5);
      const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 && r() < 0.3 ? int(r, 9, 40) : int(r, 1, 5)));
      const count = int(r, 1, 6);
      const axis = int(r, 0, rank);
      const axisValue = r() < 0.3 ? axis - rank - 1 : axis;
      const b = new ModelBuilder();
      const ins = Array.from({ length: count }, (_, i) => b.addTensor({ name: `in${i}`, type, shape, ...quantFor(type) }));
      const outShape = shape.slice();
      outShape.splice(axis, 0, count);
      const outT = b.addTensor({ name: 'out', type, shape: outShape, ...quantFor(type) });
      b.addOperator({
        op: BuiltinOperator.PACK,
        version: 4,
        inputs: ins,
        outputs: [outT],
        options: { valuesCount: count, axis: axisValue },
      });
      b.setInputs(ins).setOutputs([outT]);
      const elements = shape.reduce((a, x) => a * x, 1);
      const inputs = ins.map(() => randomElementBytes(r, type, size, elements));
      expectSameBytes(b.buildDef(), inputs, 1, JSON.stringify({ type, shape, count, axisValue }));
      if (rank === 0) seen.scalar++;
      if (axis === 0) seen.first++;
      if (axis === rank) seen.last++;
      if (axisValue < 0) seen.negative++;
      if (size === 8) seen.int64++;
      if (size === 1) seen.int8++;
      if (count >= 4) seen.many++;
    }
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(3);
  });

  it('stacks two [2, 300] int32 inputs along axis 1: output row k holds row k of a, then of b', () => {
    const b = new ModelBuilder();
    const a = b.addTensor({ name: 'a', type: TensorType.INT32, shape: [2, 300] });
    const c = b.addTensor({ name: 'c', type: TensorType.INT32, shape: [2, 300] });
    const outT = b.addTensor({ name: 'out', type: TensorType.INT32, shape: [2, 2, 300] });
    b.addOperator({ op: BuiltinOperator.PACK, version: 4, inputs: [a, c], outputs: [outT], options: { valuesCount: 2, axis: 1 } });
    b.setInputs([a, c]).setOutputs([outT]);
    const x = Int32Array.from({ length: 600 }, (_, i) => i);
    const y = Int32Array.from({ length: 600 }, (_, i) => -i);
    const got = new Int32Array(expectSameBytes(b.buildDef(), [new Int8Array(x.buffer), new Int8Array(y.buffer)], 1, 'axis 1')[0]!.buffer);
    expect(Array.from(got.subarray(0, 2))).toEqual([0, 1]);
    expect(got[300]).toBe(0);
    expect(got[301]).toBe(-1);
    expect(got[600]).toBe(300);
    expect(got[900]).toBe(-300);
  });
});
