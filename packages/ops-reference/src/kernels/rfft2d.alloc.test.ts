/**
 * RFFT2D → COMPLEX_ABS (a magnitude spectrum) in a model made by the model writer, through the
 * interpreter: complex64 tensors are planned and bound like any other, the result equals |DFT|, and
 * invoke() allocates nothing. In a file of its own, as the other allocation tests.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { registerReferenceOps } from '../index.js';

describe('RFFT2D → COMPLEX_ABS model', () => {
  it('gives the magnitude spectrum and allocates nothing in invoke', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 8, 8] });
    const len = b.addTensor({ name: 'fft_length', type: TensorType.INT32, shape: [2], data: Int32Array.of(8, 8) });
    const spectrum = b.addTensor({ name: 'spectrum', type: TensorType.COMPLEX64, shape: [2, 8, 5] });
    const magnitude = b.addTensor({ name: 'magnitude', type: TensorType.FLOAT32, shape: [2, 8, 5] });
    b.addOperator({ op: BuiltinOperator.RFFT2D, inputs: [x, len], outputs: [spectrum] });
    b.addOperator({ op: BuiltinOperator.COMPLEX_ABS, inputs: [spectrum], outputs: [magnitude] });
    const model = loadModel(b.setInputs([x]).setOutputs([magnitude]).build());
    const it_ = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: createPlanner('greedy') }).allocateTensors();
    // slice 0: a constant 1 (all energy at DC: 64); slice 1: cos(2π·2·n2/8) along rows (bins ±2: 32 each)
    const input = new Float32Array(128);
    for (let i = 0; i < 64; i++) input[i] = 1;
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) input[64 + r * 8 + c] = Math.cos((2 * Math.PI * 2 * c) / 8);
    it_.setInput(0, input);
    it_.invoke();
    const out = Array.from(it_.output(0).data as Float32Array, (v) => Math.round(v * 1e4) / 1e4);
    const want = new Array<number>(80).fill(0);
    want[0] = 64;
    want[40 + 2] = 32;
    expect(out).toEqual(want);
    const m = measureAllocation(() => it_.invoke(), { warmup: 2000, trials: 5, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
