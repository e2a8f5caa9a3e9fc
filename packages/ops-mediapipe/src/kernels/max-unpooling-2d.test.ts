import { describe, expect, it } from 'vitest';
import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { GreedyPlanner } from '@micrort/planners';
import { registerMediapipeOps } from '../index.js';
import { MAX_UNPOOLING_2D } from './max-unpooling-2d.js';
import { poolOptions } from './pooling-common.js';

const F = TensorType.FLOAT32;
const fr = Math.fround;
const POOL_2X2 = poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 });

function harness(values: number[], indices: number[], shape: number[], outShape: number[], options: Uint8Array | null = POOL_2X2) {
  return new KernelHarness({
    registration: MAX_UNPOOLING_2D,
    tensors: [
      { type: F, shape, data: values },
      { type: F, shape, data: indices },
      { type: F, shape: outShape },
    ],
    inputs: [0, 1],
    outputs: [2],
    customInitialData: options,
  });
}

describe('MaxUnpooling2D', () => {
  it('writes each value where its index points inside its 2x2 block, zero elsewhere (hand-computed)', () => {
    const h = harness([5, 8, 7, -1], [fr(1.1), fr(2.1), fr(3.1), fr(0.1)], [1, 2, 2, 1], [1, 4, 4, 1]).invoke();
    expect(h.outputArray()).toEqual([0, 5, 0, 0, 0, 0, 8, 0, 0, 0, -1, 0, 0, 7, 0, 0]); // 7: block (1, 0), index 3 = (y 1, x 1) → output (3, 1)
  });

  it('overwrites stale output and skips indices whose destination is outside the output, or that are not numbers', () => {
    const h = harness([1, 2, 3, 4], [0, 17, Number.NaN, -7], [1, 2, 2, 1], [1, 4, 4, 1]);
    h.prepare();
    (h.tensors[2]!.data as Float32Array).fill(99);
    h.invoke();
    // 1 → (0, 0); 17 → y 8 (outside); NaN skipped; -7 at block (1, 1): x 2 + (-7 % 2) = 1, y 2 + trunc(-7 / 2) = -1 (outside)
    expect(h.outputArray()).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('undoes MaxPoolingWithArgmax2D in a model (pool → unpool keeps each window maximum in place)', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F, shape: [1, 4, 4, 2] });
    const pooled = b.addTensor({ name: 'pooled', type: F, shape: [1, 2, 2, 2] });
    const argmax = b.addTensor({ name: 'argmax', type: F, shape: [1, 2, 2, 2] });
    const y = b.addTensor({ name: 'y', type: F, shape: [1, 4, 4, 2] });
    b.addOperator({ op: { custom: 'MaxPoolingWithArgmax2D' }, inputs: [x], outputs: [pooled, argmax], customOptions: POOL_2X2 });
    b.addOperator({ op: { custom: 'MaxUnpooling2D' }, inputs: [pooled, argmax], outputs: [y], customOptions: POOL_2X2 });
    const model = loadModel(b.setInputs([x]).setOutputs([y]).build());
    const it_ = new MicroInterpreter(model, registerMediapipeOps(new OpResolver()), { planner: new GreedyPlanner() }).allocateTensors();
    const input = Float32Array.from({ length: 32 }, (_, i) => ((i * 37) % 29) - 14);
    it_.setInput(0, input);
    it_.invoke();
    const out = it_.output(0).data as Float32Array;
    for (let c = 0; c < 2; c++) {
      for (let by = 0; by < 2; by++) {
        for (let bx = 0; bx < 2; bx++) {
          const at = (y: number, x: number) => ((by * 2 + y) * 4 + bx * 2 + x) * 2 + c;
          const cells = [at(0, 0), at(0, 1), at(1, 0), at(1, 1)];
          let first = cells[0]!;
          for (const p of cells) if (input[p]! > input[first]!) first = p;
          for (const p of cells) expect(out[p], `channel ${c} block (${by}, ${bx}) cell ${p}`).toBe(p === first ? input[first] : 0);
        }
      }
    }
  });

  it('prepare checks the indices shape and the output shape (input size × filter size)', () => {
    expect(() => harness([1, 2, 3, 4], [0, 0, 0, 0], [1, 2, 2, 1], [1, 4, 2, 1]).prepare()).toThrow(
      /output \(tensor 2\) has shape \[1, 4, 2, 1\], expected \[1, 4, 4, 1\]/,
    );
    const badIndices = new KernelHarness({
      registration: MAX_UNPOOLING_2D,
      tensors: [
        { type: F, shape: [1, 2, 2, 1] },
        { type: F, shape: [1, 2, 1, 1] },
        { type: F, shape: [1, 4, 4, 1] },
      ],
      inputs: [0, 1],
      outputs: [2],
      customInitialData: POOL_2X2,
    });
    expect(() => badIndices.prepare()).toThrow(/indices \(tensor 1\) has shape \[1, 2, 1, 1\], expected \[1, 2, 2, 1\]/);
    expect(() => harness([1, 2, 3, 4], [0, 0, 0, 0], [1, 2, 2, 1], [1, 4, 4, 1], null).prepare()).toThrow(/custom options have 0 bytes/);
  });
});
