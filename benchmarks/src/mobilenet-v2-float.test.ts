import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { MOBILENET_V2_STAGES, buildMobileNetV2Float } from './mobilenet-v2-float.js';

describe('the float MobileNetV2-shaped model', () => {
  it("has MobileNetV2's layers (35 convs, 17 depthwise, 10 residual adds) and runs in micrort", () => {
    // a small input keeps the test fast; the layer structure is the same at 224
    const model = loadModel(buildMobileNetV2Float({ size: 32, classes: 10 }));
    const counts: Record<string, number> = {};
    const interp = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    for (const n of interp.nodes()) counts[n.op] = (counts[n.op] ?? 0) + 1;
    const blocks = MOBILENET_V2_STAGES.reduce((s, st) => s + st.n, 0);
    expect(blocks).toBe(17);
    expect(counts).toEqual({
      CONV_2D: 1 + (blocks - 1) + blocks + 1,
      DEPTHWISE_CONV_2D: 17,
      ADD: 10,
      AVERAGE_POOL_2D: 1,
      RESHAPE: 1,
      FULLY_CONNECTED: 1,
      SOFTMAX: 1,
    });
    expect(Array.from(interp.input(0).dims)).toEqual([1, 32, 32, 3]);
    const x = interp.input(0).data as Float32Array;
    for (let i = 0; i < x.length; i++) x[i] = Math.sin(i);
    interp.invoke();
    const y = Array.from(interp.output(0).data as Float32Array);
    expect(y).toHaveLength(10);
    expect(y.every(Number.isFinite)).toBe(true);
    expect(y.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    // seeded weights: not a uniform distribution (the network is not degenerate)
    expect(Math.max(...y) - Math.min(...y)).toBeGreaterThan(1e-3);
  });

  it('is the same bytes every time', () => {
    const a = buildMobileNetV2Float({ size: 32, classes: 10 });
    const b = buildMobileNetV2Float({ size: 32, classes: 10 });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
