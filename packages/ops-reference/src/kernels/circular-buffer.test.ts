import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { createPlanner } from '@micrort/planners';
import { CIRCULAR_BUFFER, CircularBufferAbort } from './circular-buffer.js';
import { registerReferenceOps } from '../index.js';

// TFLM kernels/circular_buffer_flexbuffers_generated_data.cc: {cycles_max: 1} (the value is byte 16).
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

function harness(depth: number, slots: number, options: Uint8Array | null, opts: { variable?: boolean; h?: number } = {}) {
  const h = opts.h ?? 1;
  return new KernelHarness({
    registration: CIRCULAR_BUFFER,
    tensors: [
      { type: TensorType.INT8, shape: [1, 1, h, depth], scale: 1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [1, slots, h, depth], scale: 1, zeroPoint: 0, variable: opts.variable ?? false },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

/** Invokes once; returns whether the op ran (false: it threw CircularBufferAbort, TFLM's kTfLiteAbort). */
function step(h: KernelHarness, input: number[]): boolean {
  h.setInput(0, input);
  try {
    h.invoke();
    return true;
  } catch (e) {
    if (e instanceof CircularBufferAbort) return false;
    throw e;
  }
}

// TFLM kernels/circular_buffer_test.cc
const GOLDENS_4 = [
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
  [0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6],
  [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
];
const input = (i: number, depth: number) => Array.from({ length: depth }, (_, j) => i * depth + j + 1);

describe('CIRCULAR_BUFFER', () => {
  it('4 slots without options runs every other invoke, aborting the others (TFLM OutputTensorLength4)', () => {
    const h = harness(3, 4, null);
    for (let i = 0; i < 5; i++) {
      const ran = step(h, input(i, 3));
      expect(h.outputArray(), `invoke ${i}`).toEqual(GOLDENS_4[i]);
      expect(ran, `invoke ${i}`).toBe(i % 2 === 1);
    }
  });

  it('cycles_max 1 from the options runs every invoke (TFLM OutputTensorOnEveryIterationLength4)', () => {
    const h = harness(3, 4, config(1));
    for (let i = 0; i < 5; i++) {
      expect(step(h, input(i, 3))).toBe(true);
      expect(h.outputArray()).toEqual(GOLDENS_4[i]);
    }
  });

  it('5 slots without options run every invoke (TFLM OutputTensorLength5)', () => {
    const goldens = [
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4],
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
      [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
    ];
    const h = harness(4, 5, null);
    for (let i = 0; i < 6; i++) {
      expect(step(h, input(i, 4))).toBe(true);
      expect(h.outputArray()).toEqual(goldens[i]);
    }
  });

  it('cycles_max 3, slots of h * depth bytes; the history survives an output overwritten between invokes', () => {
    const h = harness(2, 3, config(3), { h: 2 });
    const seen: number[][] = [];
    for (let i = 0; i < 7; i++) {
      const x = input(i, 4).map((v) => v - 14);
      seen.push(x);
      const ran = step(h, x);
      expect(ran, `invoke ${i}`).toBe(i % 3 === 2);
      const want = [...new Array<number[]>(3).fill([0, 0, 0, 0]), ...seen].slice(-3).flat();
      expect(h.outputArray(), `invoke ${i}`).toEqual(want);
      h.output<Int8Array>().fill(99); // later nodes reuse the output's memory: the kernel's state must not live there
    }
  });

  it('a variable output holds the history itself (no extra arena), and the interpreter-style reset zeroes it', () => {
    const h = harness(3, 4, config(1), { variable: true }).prepare();
    expect(h.persistentBytes).toBe(16); // TFLM's 8-byte OpData, 16-byte aligned; no history buffer
    for (let i = 0; i < 4; i++) step(h, input(i, 3));
    expect(h.outputArray()).toEqual(GOLDENS_4[3]);
    h.reset();
    expect(h.outputArray()).toEqual(new Array<number>(12).fill(0));
    step(h, input(0, 3));
    expect(h.outputArray()).toEqual(GOLDENS_4[0]);
    expect(harness(3, 4, config(1)).prepare().persistentBytes).toBe(16 + 16); // non-variable: plus 12 history bytes
  });

  it('refuses what it does not handle, with reasons', () => {
    const int16 = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT16, shape: [1, 1, 1, 3] },
        { type: TensorType.INT16, shape: [1, 4, 1, 3] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(int16.supportsAnswer()).toBe('int16 input (handles int8)');
    expect(() => int16.prepare()).toThrow(/input type int16 is not supported \(TFLM handles int8 only\)/);
    expect(() => harness(3, 7, null, { h: 2 }).prepare()).not.toThrow();
    const kws = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT8, shape: [1, 1, 2, 96] },
        { type: TensorType.INT8, shape: [1, 3, 2, 96] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => kws.prepare()).toThrow(/process-wide count .* set cycles_max/);
    const mismatch = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT8, shape: [1, 1, 1, 3] },
        { type: TensorType.INT8, shape: [1, 4, 1, 4] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => mismatch.prepare()).toThrow(/same batch, h and depth/);
    const twoOut = new KernelHarness({
      registration: CIRCULAR_BUFFER,
      tensors: [
        { type: TensorType.INT8, shape: [1, 1, 1, 3] },
        { type: TensorType.INT8, shape: [1, 4, 1, 3] },
        { type: TensorType.BOOL, shape: [] },
      ],
      inputs: [0],
      outputs: [1, 2],
    });
    expect(() => twoOut.prepare()).toThrow(/second \(bool 'valid'\) output is not implemented/);
  });

  it('in a model: an aborted invoke skips the later nodes, throws CircularBufferAbort, and the interpreter runs on', () => {
    const b = new ModelBuilder();
    const q = { scale: 0.5, zeroPoint: 0 };
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, 1, 1, 2], quantization: q });
    const hist = b.addTensor({ name: 'history', type: TensorType.INT8, shape: [1, 3, 1, 2], quantization: q });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, 3, 1, 2], quantization: q });
    b.addOperator({ op: { custom: 'CIRCULAR_BUFFER' }, inputs: [x], outputs: [hist], customOptions: config(2) });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [hist], outputs: [y] });
    const model = loadModel(b.setInputs([x]).setOutputs([y]).build());
    const interp = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    const out = interp.output(0).data as Int8Array;
    const feed = (v: number[]) => {
      interp.setInput(0, Int8Array.from(v));
      const before = Array.from(out); // (the planner may give y the input's memory)
      try {
        interp.invoke();
        return true;
      } catch (e) {
        if (e instanceof CircularBufferAbort) {
          expect(e.status).toBe(-9);
          expect(Array.from(out), 'RELU must not run').toEqual(before);
          return false;
        }
        throw e;
      }
    };
    expect(feed([1, -2])).toBe(false);
    expect(feed([3, -4])).toBe(true);
    expect(Array.from(out)).toEqual([0, 0, 1, 0, 3, 0]);
    expect(feed([5, 6])).toBe(false);
    expect(feed([7, 8])).toBe(true);
    expect(Array.from(out)).toEqual([3, 0, 5, 6, 7, 8]);
  });
});
