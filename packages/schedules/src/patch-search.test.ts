import { describe, expect, it } from 'vitest';
import { BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { TestGraph } from './__tests__/graph.js';
import { describeSteps, normalLiveBytes, searchPatchStage, stageGraphOf, tileSizes, type SearchStep } from './patch-search.js';

/** input 32x32x4 → conv 3x3 → 32x32x16 → dw 3x3 s2 → 16x16x16 → conv 1x1 → 16x16x8 → RESHAPE-like tail. */
function chain() {
  const g = new TestGraph();
  const x = g.activation([1, 32, 32, 4]);
  const a = g.activation([1, 32, 32, 16]);
  const b = g.activation([1, 16, 16, 16]);
  const c = g.activation([1, 16, 16, 8]);
  const d = g.activation([1, 2048]);
  g.conv(x, a, 3, 1, Padding.SAME, 4, 16);
  g.dw(a, b, 3, 2, Padding.SAME, 16);
  g.conv(b, c, 1, 1, Padding.SAME, 16, 8);
  g.op(BuiltinOperator.RESHAPE, [c], d, null);
  const steps: SearchStep[] = g.steps();
  return { g, steps, x, d };
}

describe('searchPatchStage', () => {
  it('finds a stage below the normal peak within the budget, and the estimate counts the stage input and output', () => {
    const { g, steps, x, d } = chain();
    const input = { steps, tensors: g.tensors, graphInputs: [x], graphOutputs: [d], recomputeBudget: 0.3 };
    const r = searchPatchStage(input);
    // Normal peak: conv 0 holds x (4 KiB) and a (16 KiB).
    expect(r.normalPeak).toBe(32 * 32 * 4 + 32 * 32 * 16);
    expect(normalLiveBytes(input).live[0]).toBe(r.normalPeak);
    const best = r.best!;
    expect(best.first).toBe(0);
    expect(best.estimatedPeak).toBeLessThan(r.normalPeak);
    expect(best.extraMacs).toBeLessThanOrEqual(0.3 * r.totalMacs);
    // While the stage runs, its input and its output are live whole.
    const output = g.tensors[best.graph.output]!;
    expect(best.estimatedPeak).toBeGreaterThanOrEqual(32 * 32 * 4 + output.byteLength);
  });

  it('a zero budget allows only stages that recompute nothing; no spatial op means no stage, with the reason', () => {
    const { g, steps, x, d } = chain();
    const r = searchPatchStage({ steps, tensors: g.tensors, graphInputs: [x], graphOutputs: [d], recomputeBudget: 0 });
    if (r.best) expect(r.best.extraMacs).toBe(0);
    else expect(r.reason).toMatch(/within a recompute budget of 0 %/);
    const h = new TestGraph();
    const i = h.activation([1, 8]);
    const o = h.activation([1, 8]);
    h.op(BuiltinOperator.RESHAPE, [i], o, null);
    const none = searchPatchStage({
      steps: h.steps(),
      tensors: h.tensors,
      graphInputs: [i],
      graphOutputs: [o],
      recomputeBudget: 1,
    });
    expect(none.best).toBeNull();
    expect(none.reason).toBe('the model has no spatial operators (convolutions, pools, pads, elementwise) to tile');
  });

  it('declared in-place variants lower the estimate of the normal schedule', () => {
    const { g, steps, x, d } = chain();
    const plain = normalLiveBytes({ steps, tensors: g.tensors, graphInputs: [x], graphOutputs: [d] }).live;
    const withDw = steps.map((s, k) => (k === 1 ? { ...s, inPlace: { input: 0, tempBytes: 256 } } : s));
    const live = normalLiveBytes({ steps: withDw, tensors: g.tensors, graphInputs: [x], graphOutputs: [d] }).live;
    // At the depthwise, b (4 KiB) lies inside a (16 KiB): 4 KiB fewer, plus the 256-byte channel.
    expect(plain[1]! - live[1]!).toBe(16 * 16 * 16 - 256);
  });

  it('nodes computing from constants only (DEQUANTIZE of float16 weights) are hoisted out of a stage, their results kept alive', () => {
    const g = new TestGraph();
    const x = g.activation([1, 16, 16, 2]);
    const a = g.activation([1, 16, 16, 4]);
    const w = g.activation([4, 1, 1, 4]);
    const o = g.activation([1, 16, 16, 4]);
    const out = g.activation([1, 1024]);
    g.conv(x, a, 3, 1, Padding.SAME, 2, 4);
    g.op(BuiltinOperator.DEQUANTIZE, [g.constant([4, 1, 1, 4], TensorType.FLOAT16)], w, null);
    g.op(BuiltinOperator.CONV_2D, [a, w, g.constant([4], TensorType.INT32)], o, {
      padding: Padding.SAME,
      strideH: 1,
      strideW: 1,
      dilationHFactor: 1,
      dilationWFactor: 1,
    });
    g.op(BuiltinOperator.RESHAPE, [o], out, null);
    const steps: SearchStep[] = g.steps();
    const described = describeSteps(steps, g.tensors, [out]);
    expect([...described.constantNodes]).toEqual([1]);
    expect(described.ops[2]).toMatchObject({ kind: 'window' });
    const { lastUsed } = normalLiveBytes({ steps, tensors: g.tensors, graphInputs: [x], graphOutputs: [out] });
    const stage = stageGraphOf(steps, described, 0, 2, lastUsed, new Set([out]));
    expect(stage).toMatchObject({ hoisted: [1], kept: [w], inputs: [x], output: o });
    expect(stageGraphOf(steps, described, 1, 2, lastUsed, new Set([out]))).toBe('a stage starts and ends with a spatial node');
  });

  it('tileSizes: one per grid size, distinct', () => {
    expect(tileSizes(7, 8)).toEqual([7, 4, 3, 2, 1]);
    expect(tileSizes(56, 4)).toEqual([56, 28, 19, 14]);
  });
});
