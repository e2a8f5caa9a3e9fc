import { describe, expect, it } from 'vitest';
import { BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { TestGraph } from './__tests__/graph.js';
import { stageGeometry, tileLiveBytes, type StageGeometry } from './patch-geometry.js';

const geometry = (g: StageGeometry | string): StageGeometry => {
  if (typeof g === 'string') throw new Error(g);
  return g;
};

describe('stageGeometry', () => {
  it('walks the receptive field back through a stride-2 depthwise and a SAME conv', () => {
    const g = new TestGraph();
    const x = g.activation([1, 8, 8, 1], TensorType.INT8, 4);
    const a = g.activation([1, 8, 8, 2], TensorType.INT8, -2);
    const o = g.activation([1, 4, 4, 2]);
    g.conv(x, a, 3, 1, Padding.SAME, 1, 2);
    g.dw(a, o, 3, 2, Padding.SAME, 2);
    const geo = geometry(stageGeometry(g.stage(0, 1, [x], o), g.tensors, 2, 2));
    expect([geo.rows, geo.cols]).toEqual([2, 2]);
    const buf = (t: number) => geo.buffers[geo.bufferOf.get(t)!]!;
    // o: [2i, 2i+2); a (dw k3 s2, padding 0 before / 1 after): [4i, 4i+5); x (conv k3, padding 1): [4i-1, 4i+6).
    expect(buf(o).h).toEqual({ step: 2, lo: 0, hi: 2 });
    expect(buf(a).h).toEqual({ step: 4, lo: 0, hi: 5 });
    expect(buf(x).h).toEqual({ step: 4, lo: -1, hi: 6 });
    expect([buf(x).rows, buf(x).cols, buf(x).channels, buf(a).rows, buf(a).channels]).toEqual([7, 7, 1, 5, 2]);
    // x is padded by the conv with its zero point, a by the depthwise with its own.
    expect(buf(x).fills).toEqual([{ y0: 0, y1: 8, x0: 0, x1: 8, value: 4 }]);
    expect(buf(a).fills).toEqual([{ y0: 0, y1: 8, x0: 0, x1: 8, value: -2 }]);
    expect(geo.steps.map((s) => s.kind)).toEqual(['gather', 'node', 'node', 'scatter']);
    // MACs: a tile computes 5x5x2 conv outputs (9 MACs each) and 2x2x2 depthwise outputs (9 each).
    expect(geo.tileMacs).toBe(5 * 5 * 2 * 9 + 2 * 2 * 2 * 9);
    expect(geo.wholeMacs).toBe(8 * 8 * 2 * 9 + 4 * 4 * 2 * 9);
  });

  it('a residual ADD reads a crop of the block input, whose window the depthwise widened', () => {
    const g = new TestGraph();
    const x = g.activation([1, 6, 6, 2]);
    const m = g.activation([1, 6, 6, 2]);
    const o = g.activation([1, 6, 6, 2]);
    g.dw(x, m, 3, 1, Padding.SAME, 2);
    g.op(BuiltinOperator.ADD, [x, m], o, {});
    const geo = geometry(stageGeometry(g.stage(0, 1, [x], o), g.tensors, 3, 3));
    const bx = geo.buffers[geo.bufferOf.get(x)!]!;
    expect(bx.h).toEqual({ step: 3, lo: -1, hi: 4 });
    expect(geo.steps.map((s) => s.kind)).toEqual(['gather', 'node', 'crop', 'node', 'scatter']);
    const crop = geo.steps[2]!;
    const c = geo.buffers[(crop as { buffer: number }).buffer]!;
    expect([c.cropOf, c.h, c.rows, c.cols]).toEqual([bx.id, { step: 3, lo: 0, hi: 3 }, 3, 3]);
    expect((geo.steps[3] as { inputs: number[] }).inputs).toEqual([c.id, geo.bufferOf.get(m)]);
  });

  it("a PAD shares its input's buffer: its pad value fills outside the input image", () => {
    const g = new TestGraph();
    const x = g.activation([1, 4, 4, 1], TensorType.INT8, 9);
    const p = g.activation([1, 6, 6, 1], TensorType.INT8, 9);
    const o = g.activation([1, 4, 4, 1], TensorType.INT8, 9);
    g.op(BuiltinOperator.PAD, [x, g.constant([4, 2], TensorType.INT32, [0, 0, 1, 1, 1, 1, 0, 0])], p, null);
    g.conv(p, o, 3, 1, Padding.VALID, 1, 1);
    const geo = geometry(stageGeometry(g.stage(0, 1, [x], o), g.tensors, 2, 2));
    expect(geo.bufferOf.get(p)).toBe(geo.bufferOf.get(x));
    const b = geo.buffers[geo.bufferOf.get(x)!]!;
    expect(b.tensors).toEqual([x, p]);
    expect(b.h).toEqual({ step: 2, lo: -1, hi: 3 });
    expect(b.fills).toEqual([{ y0: 0, y1: 4, x0: 0, x1: 4, value: 9 }]);
    expect(geo.steps.map((s) => s.kind)).toEqual(['gather', 'node', 'scatter']);
  });

  it('refuses a tensor reached with two different strides, and conflicting fill values', () => {
    const g = new TestGraph();
    const x = g.activation([1, 8, 8, 1]);
    const a = g.activation([1, 4, 4, 1]);
    const b = g.activation([1, 4, 4, 1]);
    const o = g.activation([1, 4, 4, 1]);
    g.conv(x, a, 5, 1, Padding.VALID, 1, 1); // 8 → 4, stride 1
    g.conv(x, b, 1, 2, Padding.SAME, 1, 1); // 8 → 4, stride 2
    g.op(BuiltinOperator.ADD, [a, b], o, {});
    expect(stageGeometry(g.stage(0, 2, [x], o), g.tensors, 2, 2)).toMatch(/tensor 0 is read at two different scales/);

    const h = new TestGraph();
    const y = h.activation([1, 4, 4, 1], TensorType.INT8, 3);
    const m = h.activation([1, 4, 4, 1], TensorType.INT8, 3);
    const n = h.activation([1, 4, 4, 1], TensorType.INT8, 3);
    const z = h.activation([1, 4, 4, 1], TensorType.INT8, 3);
    h.op(BuiltinOperator.MAX_POOL_2D, [y], m, { padding: Padding.SAME, strideH: 1, strideW: 1, filterHeight: 3, filterWidth: 3 });
    h.dw(y, n, 3, 1, Padding.SAME, 1);
    h.op(BuiltinOperator.ADD, [m, n], z, {});
    expect(stageGeometry(h.stage(0, 2, [y], z), h.tensors, 2, 2)).toMatch(/pad it with -128 and with 3/);
  });

  it('tileLiveBytes: a buffer lives from its writer to its last reader', () => {
    const g = new TestGraph();
    const x = g.activation([1, 8, 8, 1]);
    const a = g.activation([1, 8, 8, 2]);
    const o = g.activation([1, 4, 4, 2]);
    g.conv(x, a, 3, 1, Padding.SAME, 1, 2);
    g.dw(a, o, 3, 2, Padding.SAME, 2);
    const geo = geometry(stageGeometry(g.stage(0, 1, [x], o), g.tensors, 2, 2));
    const [bx, ba, bo] = [x, a, o].map((t) => geo.buffers[geo.bufferOf.get(t)!]!.bytes) as [number, number, number];
    // gather: x; conv: x + a; dw: a + o; scatter: o.
    expect(tileLiveBytes(geo).live).toEqual([bx, bx + ba, ba + bo, bo]);
    expect(tileLiveBytes(geo, (s) => (s === 1 ? 16 : 0)).peak).toBe(Math.max(bx + ba - 16, ba + bo));
  });
});
