import { describe, expect, it } from 'vitest';
import { BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { TestGraph } from './__tests__/graph.js';
import { nodeMacs } from './spatial-ops.js';

describe("describeSpatialOp over ops-reference's declarations (Registration.spatial)", () => {
  it("CONV_2D SAME: TFLite's padding of the whole tensor, the input zero point as fill, MACs per output", () => {
    const g = new TestGraph();
    const x = g.activation([1, 9, 10, 3], TensorType.INT8, -7);
    const y = g.activation([1, 5, 5, 4]);
    const n = g.conv(x, y, 3, 2, Padding.SAME, 3, 4);
    const op = g.describe(n);
    // height 9 → 5 with stride 2: total padding (5-1)*2+3-9 = 2 → 1 before, 1 after; width 10 → 5: 1 → 0 before, 1 after.
    expect(op).toMatchObject({
      kind: 'window',
      fill: -7,
      macsPerOutput: 27,
      h: { padBefore: 1, padAfter: 1, stride: 2 },
      w: { padBefore: 0, padAfter: 1 },
    });
    expect(nodeMacs(g.codes[n]!, g.nodes[n]!, g.tensors)).toBe(5 * 5 * 4 * 27);
  });

  it('VALID convolutions have no fill; float fills with 0', () => {
    const g = new TestGraph();
    const x = g.activation([1, 8, 8, 2], TensorType.FLOAT32);
    const y = g.activation([1, 6, 6, 2], TensorType.FLOAT32);
    const n = g.dw(x, y, 3, 1, Padding.VALID, 2);
    expect(g.describe(n)).toMatchObject({ kind: 'window', fill: null, macsPerOutput: 9 });
    const z = g.activation([1, 6, 6, 2], TensorType.FLOAT32);
    const m = g.dw(y, z, 3, 1, Padding.SAME, 2);
    expect(g.describe(m)).toMatchObject({ fill: 0 });
  });

  it('MAX_POOL_2D pads with the lowest value; AVERAGE_POOL_2D with padding is refused, without is fine', () => {
    const g = new TestGraph();
    const x = g.activation([1, 7, 7, 2]);
    const y = g.activation([1, 4, 4, 2]);
    const pool = { padding: Padding.SAME, strideH: 2, strideW: 2, filterHeight: 3, filterWidth: 3 };
    const mp = g.op(BuiltinOperator.MAX_POOL_2D, [x], y, pool);
    expect(g.describe(mp)).toMatchObject({ kind: 'window', fill: -128 });
    const ap = g.op(BuiltinOperator.AVERAGE_POOL_2D, [x], y, pool);
    expect(g.describe(ap)).toMatch(/averages over the in-image taps only/);
    const z = g.activation([1, 3, 3, 2]);
    const valid = g.op(BuiltinOperator.AVERAGE_POOL_2D, [x], z, { ...pool, padding: Padding.VALID });
    expect(g.describe(valid)).toMatchObject({ kind: 'window', fill: null });
  });

  it('PAD of height and width: shifts and the output zero point; channels only: elementwise; both or batch: refused', () => {
    const g = new TestGraph();
    const x = g.activation([1, 4, 4, 2], TensorType.INT8, 5);
    const y = g.activation([1, 5, 7, 2], TensorType.INT8, 5);
    const n = g.op(BuiltinOperator.PAD, [x, g.constant([4, 2], TensorType.INT32, [0, 0, 1, 0, 2, 1, 0, 0])], y, null);
    expect(g.describe(n)).toEqual({
      kind: 'pad',
      spatialInputs: [0],
      macsPerOutput: 0,
      top: 1,
      bottom: 0,
      left: 2,
      right: 1,
      value: 5,
    });
    const z = g.activation([1, 4, 4, 3], TensorType.INT8, 5);
    const c = g.op(BuiltinOperator.PAD, [x, g.constant([4, 2], TensorType.INT32, [0, 0, 0, 0, 0, 0, 0, 1])], z, null);
    expect(g.describe(c)).toEqual({ kind: 'elementwise', spatialInputs: [0], macsPerOutput: 0 });
    const w = g.activation([1, 5, 4, 3], TensorType.INT8, 5);
    const both = g.op(BuiltinOperator.PAD, [x, g.constant([4, 2], TensorType.INT32, [0, 0, 1, 0, 0, 0, 0, 1])], w, null);
    expect(g.describe(both)).toMatch(/pads the channel axis and height or width together/);
    const v = g.activation([2, 4, 4, 2], TensorType.INT8, 5);
    const batch = g.op(BuiltinOperator.PAD, [x, g.constant([4, 2], TensorType.INT32, [0, 1, 0, 0, 0, 0, 0, 0])], v, null);
    expect(g.describe(batch)).toMatch(/input batch 1 differs from output batch 2/);
  });

  it('elementwise: constants may vary along channels only; activations must not be broadcast over height or width', () => {
    const g = new TestGraph();
    const x = g.activation([1, 4, 4, 2]);
    const y = g.activation([1, 4, 4, 2]);
    const ok = g.op(BuiltinOperator.ADD, [x, g.constant([2])], y, {});
    expect(g.describe(ok)).toMatchObject({ kind: 'elementwise', spatialInputs: [0] });
    const spatialConst = g.op(BuiltinOperator.ADD, [x, g.constant([1, 4, 4, 2])], y, {});
    expect(g.describe(spatialConst)).toMatch(/varies over height or width/);
    const b = g.activation([1, 1, 1, 2]);
    const broadcast = g.op(BuiltinOperator.MUL, [x, b], y, {});
    expect(g.describe(broadcast)).toMatch(/broadcast over height or width/);
  });

  it('refuses non-spatial ops, rank-2 tensors and constant spatial inputs', () => {
    const g = new TestGraph();
    const x = g.activation([1, 8]);
    const y = g.activation([1, 8]);
    const n = g.op(BuiltinOperator.RESHAPE, [x], y, null);
    expect(g.describe(n)).toMatch(/RESHAPE: output \(tensor 1\) has rank 2/);
    const c = g.constant([1, 4, 4, 1]);
    const o = g.activation([1, 4, 4, 1]);
    const r = g.op(BuiltinOperator.RELU, [c], o, null);
    expect(g.describe(r)).toMatch(/is a constant/);
  });
});
