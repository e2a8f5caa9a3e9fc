/**
 * "invoke() allocates nothing" for the recurrent kernels of tflite-recurrent.ts: each is prepared with
 * KernelHarness (LSTM with every variant at once: peephole, layer norm, projection with bias and
 * clips; BIDIRECTIONAL_SEQUENCE_RNN with aux weights and merged outputs), then invoked many times
 * through a bare invoke-phase context while V8's heap usage is watched.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType as Act, TensorType } from '@micrort/core';
import type { BuiltinOptions } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessOptions, HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { tfliteRecurrentKernels } from './tflite-recurrent.js';
import { iota, spec } from '../kernels/__fixtures__/data-testing.js';
import { UNIDIRECTIONAL_SEQUENCE_LSTM } from '../kernels/unidirectional-sequence-lstm.js';

const F = TensorType.FLOAT32;
const reg = (name: string) => tfliteRecurrentKernels.find((r) => r.name === name)!;
const wave = (n: number, k = 0.7) => iota(n).map((v) => Math.sin(v * k) * 0.5);
const x = (shape: number[]) => spec(F, shape, wave(shape.reduce((a, b) => a * b, 1)));
const w = (shape: number[], k = 1.3) =>
  spec(
    F,
    shape,
    wave(
      shape.reduce((a, b) => a * b, 1),
      k,
    ),
    { constant: true },
  );
const state = (shape: number[]) => spec(F, shape, undefined, { variable: true });
const out = (shape: number[]) => spec(F, shape);

/** Harness options: `tensors` in order, `inputs` by position (-1: omitted), the rest outputs. */
function opts(
  name: string,
  inputs: (HarnessTensorSpec | null)[],
  outputs: HarnessTensorSpec[],
  builtinData: BuiltinOptions,
): [string, HarnessOptions] {
  const tensors: HarnessTensorSpec[] = [];
  const at = inputs.map((t) => (t === null ? -1 : tensors.push(t) - 1));
  const outAt = outputs.map((t) => tensors.push(t) - 1);
  return [name, { registration: reg(name.split(' ')[0]!), tensors, inputs: at, outputs: outAt, builtinData }];
}

const rnnCell = (units: number, inputSize: number, batch: number) => [
  w([units, inputSize]),
  w([units, units], 0.9),
  w([units]),
  state([batch, units]),
];

const cases: [string, HarnessOptions][] = [
  opts('RNN', [x([2, 3]), ...rnnCell(4, 3, 2)], [out([2, 4])], { fusedActivationFunction: Act.TANH, asymmetricQuantizeInputs: false }),
  opts(
    'RNN hybrid int8, asymmetric',
    [
      x([2, 3]),
      spec(TensorType.INT8, [4, 3], iota(12, -6), { constant: true, scale: 0.01, zeroPoint: 0 }),
      spec(TensorType.INT8, [4, 4], iota(16, -8), { constant: true, scale: 0.02, zeroPoint: 0 }),
      w([4]),
      state([2, 4]),
    ],
    [out([2, 4])],
    { fusedActivationFunction: Act.TANH, asymmetricQuantizeInputs: true },
  ),
  opts('UNIDIRECTIONAL_SEQUENCE_RNN batch-major', [x([2, 3, 3]), ...rnnCell(4, 3, 2)], [out([2, 3, 4])], {
    timeMajor: false,
    fusedActivationFunction: Act.RELU,
    asymmetricQuantizeInputs: false,
  }),
  opts(
    'BIDIRECTIONAL_SEQUENCE_RNN aux weights, merged',
    [x([3, 2, 3]), ...rnnCell(4, 3, 2), ...rnnCell(2, 3, 2), x([3, 2, 2]), w([4, 2]), w([2, 2])],
    [out([3, 2, 6])],
    { timeMajor: true, fusedActivationFunction: Act.TANH, mergeOutputs: true, asymmetricQuantizeInputs: false },
  ),
  opts(
    'LSTM peephole, layer norm, projection',
    [
      x([2, 3]),
      ...[0, 1, 2, 3].map(() => w([4, 3])),
      ...[0, 1, 2, 3].map(() => w([4, 2], 0.8)),
      ...[0, 1, 2].map(() => w([4], 0.5)),
      ...[0, 1, 2, 3].map(() => w([4], 0.3)),
      w([2, 4]),
      w([2], 0.2),
      state([2, 2]),
      state([2, 4]),
      ...[0, 1, 2, 3].map(() => w([4], 0.4)),
    ],
    [out([2, 2])],
    { fusedActivationFunction: Act.TANH, cellClip: 3, projClip: 0.5, kernelType: 0, asymmetricQuantizeInputs: false },
  ),
  opts(
    'BIDIRECTIONAL_SEQUENCE_LSTM CIFG, peephole, projection, merged',
    [
      x([3, 2, 3]),
      ...[0, 1].flatMap(() => [
        null,
        ...[0, 1, 2].map(() => w([4, 3])),
        null,
        ...[0, 1, 2].map(() => w([4, 2], 0.8)),
        null,
        w([4], 0.5),
        w([4], 0.5),
        null,
        ...[0, 1, 2].map(() => w([4], 0.3)),
        w([2, 4]),
        w([2], 0.2),
      ]),
      state([2, 2]),
      state([2, 4]),
      state([2, 2]),
      state([2, 4]),
      ...Array.from({ length: 9 }, () => null),
    ],
    [out([3, 2, 4])],
    { fusedActivationFunction: Act.TANH, cellClip: 3, projClip: 0.5, mergeOutputs: true, timeMajor: true, asymmetricQuantizeInputs: false },
  ),
  opts(
    'LSTM hybrid int8, asymmetric, peephole, projection',
    [
      x([2, 3]),
      ...[0, 1, 2, 3].map(() => spec(TensorType.INT8, [4, 3], iota(12, -6), { constant: true, scale: 0.01, zeroPoint: 0 })),
      ...[0, 1, 2, 3].map(() => spec(TensorType.INT8, [4, 2], iota(8, -4), { constant: true, scale: 0.02, zeroPoint: 0 })),
      ...[0, 1, 2].map(() => spec(TensorType.INT8, [4], iota(4, -2), { constant: true, scale: 0.05, zeroPoint: 0 })),
      ...[0, 1, 2, 3].map(() => w([4], 0.3)),
      spec(TensorType.INT8, [2, 4], iota(8, -4), { constant: true, scale: 0.03, zeroPoint: 0 }),
      w([2], 0.2),
      state([2, 2]),
      state([2, 4]),
      null,
      null,
      null,
      null,
    ],
    [out([2, 2])],
    { fusedActivationFunction: Act.TANH, cellClip: 3, projClip: 0.5, kernelType: 0, asymmetricQuantizeInputs: true },
  ),
];

/** UNIDIRECTIONAL_SEQUENCE_LSTM's float variants run TFLite's full cell too (batch-major, CIFG, projection). */
const [, sequenceLstm] = opts(
  'LSTM',
  [
    x([2, 3, 3]),
    null,
    ...[0, 1, 2].map(() => w([4, 3])),
    null,
    ...[0, 1, 2].map(() => w([4, 2], 0.8)),
    null,
    ...[0, 1].map(() => w([4], 0.5)),
    null,
    ...[0, 1, 2].map(() => w([4], 0.3)),
    w([2, 4]),
    w([2], 0.2),
    state([2, 2]),
    state([2, 4]),
    null,
    null,
    null,
    null,
  ],
  [out([2, 3, 2])],
  {
    fusedActivationFunction: Act.TANH,
    cellClip: 3,
    projClip: 0.5,
    timeMajor: false,
    asymmetricQuantizeInputs: false,
    diagonalRecurrentTensors: false,
  },
);
cases.push(['UNIDIRECTIONAL_SEQUENCE_LSTM CIFG, projection', { ...sequenceLstm, registration: UNIDIRECTIONAL_SEQUENCE_LSTM }]);

/** UNIDIRECTIONAL_SEQUENCE_LSTM hybrid (EvalHybrid): int8 weights batch-major asymmetric, uint8 weights time-major. */
for (const [type, timeMajor] of [
  [TensorType.INT8, false],
  [TensorType.UINT8, true],
] as const) {
  const q = (shape: number[], scale: number) =>
    spec(type, shape, type === TensorType.INT8 ? iota(shape[0]! * (shape[1] ?? 1), -6) : iota(shape[0]! * (shape[1] ?? 1), 120), {
      constant: true,
      scale,
      zeroPoint: 0,
    });
  const [, hybrid] = opts(
    'LSTM',
    [
      x([2, 3, 3]),
      ...[0, 1, 2, 3].map(() => q([4, 3], 0.01)),
      ...[0, 1, 2, 3].map(() => q([4, 4], 0.02)),
      ...[0, 1, 2].map(() => q([4], 0.05)),
      ...[0, 1, 2, 3].map(() => w([4], 0.3)),
      null,
      null,
      state([timeMajor ? 3 : 2, 4]),
      state([timeMajor ? 3 : 2, 4]),
      null,
      null,
      null,
      null,
    ],
    [out([2, 3, 4])],
    {
      fusedActivationFunction: Act.TANH,
      cellClip: 3,
      projClip: 0,
      timeMajor,
      asymmetricQuantizeInputs: !timeMajor,
      diagonalRecurrentTensors: false,
    },
  );
  const name = `UNIDIRECTIONAL_SEQUENCE_LSTM hybrid ${type === TensorType.INT8 ? 'int8 batch-major, asymmetric' : 'uint8 time-major'}, peephole`;
  cases.push([name, { ...hybrid, registration: UNIDIRECTIONAL_SEQUENCE_LSTM }]);
}

/** LSTM's integer (8x8_16) cell: the plain cell, and CIFG with peephole, layer norm and projection. */
for (const full of [false, true]) {
  const q = (type: TensorType, shape: number[], data: number[], scale: number, zeroPoint = 0) =>
    spec(type, shape, data, { constant: true, scale, zeroPoint });
  const nOutput = full ? 3 : 4;
  const i8 = (rows: number, cols: number, scale: number) => q(TensorType.INT8, [rows, cols], iota(rows * cols, -9), scale);
  const vec16 = (lo: number, scale: number) =>
    q(
      TensorType.INT16,
      [4],
      iota(4, lo).map((v) => v * 97),
      scale,
    );
  const bias = () =>
    q(
      TensorType.INT32,
      [4],
      iota(4, -2).map((v) => v * 300),
      0.0006,
    );
  const inputs: (HarnessTensorSpec | null)[] = [
    spec(
      TensorType.INT8,
      [2, 3],
      iota(6, -3).map((v) => v * 20),
      { scale: 0.03, zeroPoint: 2 },
    ),
    ...[0, 1, 2, 3].map((g) => (full && g === 0 ? null : i8(4, 3, 0.02))),
    ...[0, 1, 2, 3].map((g) => (full && g === 0 ? null : i8(4, nOutput, 0.02))),
    ...[0, 1, 2].map((g) => (full && g > 0 ? vec16(-2, 0.0002) : null)),
    ...[0, 1, 2, 3].map((g) => (full && g === 0 ? null : bias())),
    full ? i8(nOutput, 4, 0.015) : null,
    full ? q(TensorType.INT32, [nOutput], [100, -200, 300], 0.0001) : null,
    spec(TensorType.INT8, [2, nOutput], undefined, { variable: true, scale: 1 / 128, zeroPoint: -3 }),
    spec(TensorType.INT16, [2, 4], undefined, { variable: true, scale: 1 / 2048, zeroPoint: 0 }),
    ...[0, 1, 2, 3].map((g) => (full && g > 0 ? vec16(100, 1 / 16384) : null)),
  ];
  const [name, o] = opts(
    `LSTM integer 8x8_16${full ? ' CIFG, peephole, layer norm, projection' : ''}`,
    inputs,
    [spec(TensorType.INT8, [2, nOutput], undefined, { scale: 1 / 128, zeroPoint: -3 })],
    { fusedActivationFunction: Act.TANH, cellClip: 1, projClip: 0.4, kernelType: 0, asymmetricQuantizeInputs: false },
  );
  const first = o.tensors.length;
  const gate = (s: number) => spec(TensorType.INT16, [], undefined, { scale: s, zeroPoint: 0 });
  o.tensors.push(
    gate(0.0007),
    gate(0.0005),
    gate(0.0009),
    gate(0.0006),
    spec(TensorType.INT8, [], undefined, { scale: 0.008, zeroPoint: 1 }),
  );
  cases.push([name, { ...o, intermediates: [0, 1, 2, 3, 4].map((i) => first + i) }]);
}

/** LSTM's BASIC kernel (kernel_type 1), uint8 and float32, the states as variables (copied back each invoke). */
for (const quantized of [true, false]) {
  const t = (q: TensorType) => (quantized ? q : F);
  const act = { scale: 1 / 128, zeroPoint: 128 };
  const values = (n: number, lo: number, k: number) => iota(n).map((v) => (quantized ? lo + ((v * k) % 200) : Math.sin(v * k) * 0.5));
  const [name, o] = opts(
    `LSTM BASIC ${quantized ? 'uint8' : 'float32'}`,
    [
      spec(t(TensorType.UINT8), [2, 3], values(6, 20, 37), quantized ? act : {}),
      spec(t(TensorType.UINT8), [2, 4], undefined, { variable: true, ...(quantized ? act : {}) }),
      spec(t(TensorType.UINT8), [16, 7], values(112, 30, 13), { constant: true, ...(quantized ? { scale: 0.02, zeroPoint: 128 } : {}) }),
      spec(t(TensorType.INT32), [16], values(16, -100, 7), { constant: true, ...(quantized ? { scale: 0.02 / 128, zeroPoint: 0 } : {}) }),
      spec(t(TensorType.INT16), [2, 4], undefined, { variable: true, ...(quantized ? { scale: 1 / 2048, zeroPoint: 0 } : {}) }),
    ],
    [
      spec(t(TensorType.UINT8), [2, 4], undefined, quantized ? act : {}),
      spec(t(TensorType.INT16), [2, 4], undefined, quantized ? { scale: 1 / 2048, zeroPoint: 0 } : {}),
      spec(t(TensorType.UINT8), [2, 7], undefined, quantized ? act : {}),
      spec(t(TensorType.INT16), [2, 16], undefined, quantized ? { scale: 1 / 4096, zeroPoint: 0 } : {}),
    ],
    { fusedActivationFunction: Act.TANH, cellClip: 0, projClip: 0, kernelType: 1, asymmetricQuantizeInputs: false },
  );
  cases.push([name, o]);
}

describe('TFLite recurrent builtins allocate nothing in invoke()', () => {
  it('covers every kernel of tflite-recurrent.ts', () => {
    const covered = new Set(cases.map(([, o]) => o.registration));
    expect(tfliteRecurrentKernels.filter((r) => !covered.has(r)).map((r) => r.name)).toEqual([]);
  });

  it.each(cases)('%s', (_, options) => {
    const h = new KernelHarness(options).prepare();
    const ctx = invokeOnlyContext(h);
    const r = options.registration;
    const m = measureAllocation(() => r.invoke(ctx, h.node), { warmup: 3000, trials: 5, iterations: 500 });
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});
