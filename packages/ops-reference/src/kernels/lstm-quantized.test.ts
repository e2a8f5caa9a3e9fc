/**
 * LSTM's quantized kernels refuse what TFLite refuses (or what they cannot run as TFLite does) with a
 * KernelError naming the problem: the 8x8_16 integer cell (lstm-integer-tflite.ts) and the BASIC cell
 * (lstm-basic.ts). Each case mutates one thing of a model that prepares; the unmutated models prepare
 * and invoke (their values are checked against TFLite 2.9 in test/tflite-lstm-*.tflite-oracle.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType as Act, KernelError, TensorType as T } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessOptions, HarnessTensorSpec } from '@micrort/core/testing';
import { LSTM } from './lstm.js';
import { iota, spec } from './__fixtures__/data-testing.js';

const q = (type: T, shape: number[], scale: number, zeroPoint = 0, constant = true): HarnessTensorSpec =>
  spec(
    type,
    shape,
    constant
      ? iota(
          shape.reduce((a, b) => a * b, 1),
          -3,
        )
      : undefined,
    { constant, scale, zeroPoint },
  );

/** The 24 inputs, output and 5 intermediates of a plain integer LSTM (batch 2, 3 inputs, 4 cells). */
function integerLstm(): { tensors: (HarnessTensorSpec | null)[]; output: HarnessTensorSpec; intermediates: HarnessTensorSpec[] } {
  return {
    tensors: [
      spec(T.INT8, [2, 3], iota(6, -3), { scale: 0.03, zeroPoint: 0 }),
      ...[0, 1, 2, 3].map(() => q(T.INT8, [4, 3], 0.02)),
      ...[0, 1, 2, 3].map(() => q(T.INT8, [4, 4], 0.02)),
      null,
      null,
      null,
      ...[0, 1, 2, 3].map(() => q(T.INT32, [4], 0.0006)),
      null,
      null,
      spec(T.INT8, [2, 4], undefined, { variable: true, scale: 1 / 128, zeroPoint: 0 }),
      spec(T.INT16, [2, 4], undefined, { variable: true, scale: 1 / 2048, zeroPoint: 0 }),
      null,
      null,
      null,
      null,
    ],
    output: spec(T.INT8, [2, 4], undefined, { scale: 1 / 128, zeroPoint: 0 }),
    intermediates: [
      ...[0, 1, 2, 3].map(() => spec(T.INT16, [], undefined, { scale: 1 / 4096, zeroPoint: 0 })),
      spec(T.INT8, [], undefined, { scale: 1 / 128, zeroPoint: 0 }),
    ],
  };
}

/** The BASIC cell (batch 2, 3 inputs, depth 4), uint8. */
function basicLstm(): { tensors: HarnessTensorSpec[]; outputs: HarnessTensorSpec[] } {
  const act = { scale: 1 / 128, zeroPoint: 128 };
  return {
    tensors: [
      spec(T.UINT8, [2, 3], iota(6, 100), act),
      spec(T.UINT8, [2, 4], iota(8, 120), act),
      spec(T.UINT8, [16, 7], iota(112, 60), { constant: true, scale: 0.02, zeroPoint: 128 }),
      spec(T.INT32, [16], iota(16, -8), { constant: true, scale: 0.02 / 128, zeroPoint: 0 }),
      spec(T.INT16, [2, 4], iota(8, -4), { scale: 1 / 2048, zeroPoint: 0 }),
    ],
    outputs: [
      spec(T.UINT8, [2, 4], undefined, act),
      spec(T.INT16, [2, 4], undefined, { scale: 1 / 2048, zeroPoint: 0 }),
      spec(T.UINT8, [2, 7], undefined, act),
      spec(T.INT16, [2, 16], undefined, { scale: 1 / 4096, zeroPoint: 0 }),
    ],
  };
}

function harness(
  inputs: (HarnessTensorSpec | null)[],
  outputs: HarnessTensorSpec[],
  intermediates: HarnessTensorSpec[],
  kernelType: number,
): KernelHarness {
  const tensors: HarnessTensorSpec[] = [];
  const at = inputs.map((t) => (t === null ? -1 : tensors.push(t) - 1));
  const outAt = outputs.map((t) => tensors.push(t) - 1);
  const interAt = intermediates.map((t) => tensors.push(t) - 1);
  const opts: HarnessOptions = {
    registration: LSTM,
    tensors,
    inputs: at,
    outputs: outAt,
    intermediates: interAt,
    builtinData: { fusedActivationFunction: Act.TANH, cellClip: 0, projClip: 0, kernelType, asymmetricQuantizeInputs: false },
  };
  return new KernelHarness(opts);
}

function expectRefusal(h: KernelHarness, pattern: RegExp): void {
  let error: unknown = null;
  try {
    h.prepare();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(KernelError);
  expect((error as Error).message).toMatch(pattern);
}

describe('LSTM integer (8x8_16) cell: refusals', () => {
  it('the unmutated model prepares and invokes', () => {
    const m = integerLstm();
    const h = harness(m.tensors, [m.output], m.intermediates, 0).prepare();
    h.invoke();
    h.invoke();
  });

  const cases: [string, (m: ReturnType<typeof integerLstm>) => void, RegExp][] = [
    ['4 intermediate tensors', (m) => m.intermediates.pop(), /5 intermediate tensors, got 4/],
    ['12 intermediate tensors (8x8_8)', (m) => m.intermediates.push(...Array.from({ length: 7 }, () => m.intermediates[0]!)), /8x8_8/],
    ['weights that are not constants', (m) => (m.tensors[2] = q(T.INT8, [4, 3], 0.02, 0, false)), /must be a constant/],
    [
      'a float32 cell state',
      (m) => (m.tensors[19] = spec(T.FLOAT32, [2, 4], undefined, { variable: true })),
      /cell state .* must be int16/,
    ],
    [
      'a cell scale not a power of two',
      (m) => (m.tensors[19] = spec(T.INT16, [2, 4], undefined, { variable: true, scale: 0.0003, zeroPoint: 0 })),
      /not a power of two/,
    ],
    [
      'a cell scale outside the integer tanh',
      (m) => (m.tensors[19] = spec(T.INT16, [2, 4], undefined, { variable: true, scale: 2 ** -20, zeroPoint: 0 })),
      /0\.\.6 integer bits/,
    ],
    ['a missing forget gate bias', (m) => (m.tensors[13] = null), /forget gate bias \(input 13\) is missing/],
    ['int16 weights', (m) => (m.tensors[3] = q(T.INT16, [4, 3], 0.02)), /input-to-cell weights .* must be int8/],
    [
      'an unquantized hidden intermediate',
      (m) => (m.intermediates[4] = spec(T.INT8, [])),
      /intermediate tensor \d+ of an integer LSTM must be quantized/,
    ],
    [
      'peephole with more outputs than cells',
      (m) => {
        // 5 outputs projected from 4 cells, with peepholes.
        for (const i of [5, 6, 7, 8]) m.tensors[i] = q(T.INT8, [4, 5], 0.02);
        m.tensors[10] = q(T.INT16, [4], 0.0002);
        m.tensors[11] = q(T.INT16, [4], 0.0002);
        m.tensors[9] = q(T.INT16, [4], 0.0002);
        m.tensors[16] = q(T.INT8, [5, 4], 0.015);
        m.tensors[18] = spec(T.INT8, [2, 5], undefined, { variable: true, scale: 1 / 128, zeroPoint: 0 });
        m.output = spec(T.INT8, [2, 5], undefined, { scale: 1 / 128, zeroPoint: 0 });
      },
      /reads past the peephole weights/,
    ],
  ];
  it.each(cases)('refuses %s', (_, mutate, pattern) => {
    const m = integerLstm();
    mutate(m);
    expectRefusal(harness(m.tensors, [m.output], m.intermediates, 0), pattern);
  });
});

describe('LSTM BASIC cell: refusals', () => {
  it('the unmutated model prepares and invokes', () => {
    const m = basicLstm();
    const h = harness(m.tensors, m.outputs, [], 1).prepare();
    h.invoke();
  });

  const cases: [string, (m: ReturnType<typeof basicLstm>) => void, RegExp][] = [
    [
      'a state with 3 integer bits',
      (m) => (m.outputs[1] = spec(T.INT16, [2, 4], undefined, { scale: 1 / 4096, zeroPoint: 0 })),
      /4 integer bits/,
    ],
    ['int8 activations', (m) => (m.tensors[0] = spec(T.INT8, [2, 3], iota(6), { scale: 1 / 128, zeroPoint: 0 })), /unsupported types int8/],
    [
      'weights of the wrong width',
      (m) => (m.tensors[2] = spec(T.UINT8, [16, 6], iota(96), { constant: true, scale: 0.02, zeroPoint: 128 })),
      /expected \[16, 7\]/,
    ],
    ['three outputs', (m) => m.outputs.pop(), /5 inputs and 4 outputs/],
    [
      'a previous state of 3 rows',
      (m) => (m.tensors[4] = spec(T.INT16, [3, 4], iota(12), { scale: 1 / 2048, zeroPoint: 0 })),
      /expected \[2, 4\]/,
    ],
  ];
  it.each(cases)('refuses %s', (_, mutate, pattern) => {
    const m = basicLstm();
    mutate(m);
    expectRefusal(harness(m.tensors, m.outputs, [], 1), pattern);
  });
});
