/**
 * CIRCULAR_BUFFER's invoke() allocates nothing when the op runs (kernel alone and through the
 * interpreter). On the invokes it aborts (TFLM's kTfLiteAbort) it throws the CircularBufferAbort made
 * in prepare; the only allocation left there is V8's own message object for a throw (about 40 bytes),
 * which JavaScript cannot avoid: bounded here at 96 bytes per aborted invoke. In a file of its own, as
 * the other allocation tests.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { createPlanner } from '@micrort/planners';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { CIRCULAR_BUFFER, CircularBufferAbort } from './circular-buffer.js';
import { registerReferenceOps } from '../index.js';

const config = (cyclesMax: number) =>
  Uint8Array.of(
    0x63,
    0x79,
    0x63,
    0x6c,
    0x65,
    0x73,
    0x5f,
    0x6d,
    0x61,
    0x78,
    0x00,
    0x01,
    0x0c,
    0x01,
    0x01,
    0x01,
    cyclesMax,
    0x04,
    0x02,
    0x24,
    0x01,
  );

describe('CIRCULAR_BUFFER: invoke() allocates nothing', () => {
  it("kernel alone, cycles_max 1: nothing; cycles_max 2: at most V8's message object per aborted invoke", () => {
    const run = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT8, shape: [1, 1, 2, 24], data: Array.from({ length: 48 }, (_, i) => i - 24) },
        { type: TensorType.INT8, shape: [1, 9, 2, 24] },
      ],
      inputs: [0],
      outputs: [1],
      customInitialData: config(1),
    }).prepare();
    const runContext = invokeOnlyContext(run);
    const every = measureAllocation(() => CIRCULAR_BUFFER.invoke(runContext, run.node), { warmup: 5000, trials: 5, iterations: 1000 });
    expect(every.medianTrialBytes, `heap deltas per 1000 invokes: ${every.deltas.join(', ')}`).toBeLessThan(2048);

    const h = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT8, shape: [1, 1, 2, 24], data: Array.from({ length: 48 }, (_, i) => i - 24) },
        { type: TensorType.INT8, shape: [1, 9, 2, 24] },
      ],
      inputs: [0],
      outputs: [1],
      customInitialData: config(2),
    }).prepare();
    const context = invokeOnlyContext(h);
    const node = h.node;
    let aborted = 0;
    const m = measureAllocation(
      () => {
        try {
          CIRCULAR_BUFFER.invoke(context, node);
        } catch (e) {
          if (!(e instanceof CircularBufferAbort)) throw e;
          aborted++;
        }
      },
      { warmup: 5000, trials: 5, iterations: 1000 },
    );
    expect(aborted).toBeGreaterThan(1000);
    // 500 aborted invokes per trial
    expect(m.medianTrialBytes, `heap deltas per 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(500 * 96);
  });

  it('through the interpreter, cycles_max 1: nothing', () => {
    const b = new ModelBuilder();
    const q = { scale: 0.25, zeroPoint: 3 };
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, 1, 1, 16], quantization: q });
    const hist = b.addTensor({ name: 'history', type: TensorType.INT8, shape: [1, 6, 1, 16], quantization: q });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, 6, 1, 16], quantization: q });
    b.addOperator({ op: { custom: 'CIRCULAR_BUFFER' }, inputs: [x], outputs: [hist], customOptions: config(1) });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [hist], outputs: [y] });
    const interp = new MicroInterpreter(loadModel(b.setInputs([x]).setOutputs([y]).build()), registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    interp.setInput(
      0,
      Int8Array.from({ length: 16 }, (_, i) => 5 * i - 40),
    );
    const m = measureAllocation(() => interp.invoke(), { warmup: 2000, trials: 5, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
