import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildDeepLabV3Float } from './deeplab-v3-float.js';

describe('the float DeepLabV3-shaped model', () => {
  it("has DeepLabV3's MobileNetV2 layers at output stride 16 and its head, and runs in micrort", () => {
    // a small input keeps the test fast; the layer structure is the same at 257
    const model = loadModel(buildDeepLabV3Float({ size: 33, classes: 5 }));
    const interp = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    const counts: Record<string, number> = {};
    for (const n of interp.nodes()) counts[n.op] = (counts[n.op] ?? 0) + 1;
    // the stem and MobileNetV2's 33 block convs (16 expansions, 17 projections), then image pooling's, aspp0's,
    // the projection's and the logits' convs
    expect(counts).toEqual({
      CONV_2D: 1 + 33 + 4,
      DEPTHWISE_CONV_2D: 17,
      ADD: 10,
      AVERAGE_POOL_2D: 1,
      RESIZE_BILINEAR: 2,
      CONCATENATION: 1,
    });
    // output stride 16: the stage that would halve 3x3 to 2x2 keeps 3x3 and its depthwise layers are dilated
    const dw = model.subgraphs[0]!.operators.filter((op) => model.operatorCodes[op.opcodeIndex]!.builtinCode === 4);
    const dilations = dw.map((op) => (op.builtinOptions as { dilationHFactor: number }).dilationHFactor);
    expect(dilations).toEqual([...Array<number>(13).fill(1), 2, 2, 2, 2]);
    expect(Array.from(interp.input(0).dims)).toEqual([1, 33, 33, 3]);
    expect(Array.from(interp.output(0).dims)).toEqual([1, 33, 33, 5]);
    const x = interp.input(0).data as Float32Array;
    for (let i = 0; i < x.length; i++) x[i] = Math.sin(i);
    interp.invoke();
    const y = Array.from(interp.output(0).data as Float32Array);
    expect(y.every(Number.isFinite)).toBe(true);
    expect(Math.max(...y) - Math.min(...y)).toBeGreaterThan(1e-3);
  });

  it('is the same bytes every time', () => {
    const a = buildDeepLabV3Float({ size: 33, classes: 5 });
    expect(Buffer.from(a).equals(Buffer.from(buildDeepLabV3Float({ size: 33, classes: 5 })))).toBe(true);
  });
});
