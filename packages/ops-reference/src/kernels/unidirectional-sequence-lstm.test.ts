import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  ArenaRegion,
  KernelError,
  TensorType,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { LstmTensor } from './lstm-common.js';
import { UNIDIRECTIONAL_SEQUENCE_LSTM } from './unidirectional-sequence-lstm.js';

// TFLM kernels/testdata/lstm_test_data.cc: the 2x3x2x2 model (batch 2, 3 time steps, input 2, state 2),
// Get2X2LstmEvalCheckData() goldens and the int8 / int16 quantization settings.
const B = 2;
const T = 3;
const I = 2;
const S = 2;
interface GateData {
  input: number[];
  recurrent: number[];
  bias: number[];
}
/** In `Gate` order: forget, input, cell, output. */
const GATES: GateData[] = [
  { input: [-10, -10, -20, -20], recurrent: [-10, -10, -20, -20], bias: [1, 2] },
  { input: [10, 10, 20, 20], recurrent: [10, 10, 20, 20], bias: [-1, -2] },
  { input: [1, 1, 1, 1], recurrent: [1, 1, 1, 1], bias: [0, 0] },
  { input: [1, 1, 1, 1], recurrent: [1, 1, 1, 1], bias: [0, 0] },
];
const INPUT = [0.2, 0.3, 0.2, 0.3, 0.2, 0.3, -0.98, 0.62, 0.01, 0.99, 0.49, -0.32];
const EXPECTED_OUTPUT = [
  0.26455893, 0.26870455, 0.47935803, 0.47937014, 0.58013272, 0.58013278, -1.41184672e-3, -1.43329117e-5, 0.46887168, 0.46891281,
  0.50054074, 0.50054148,
];
const EXPECTED_HIDDEN = [0.58013272, 0.58013278, 0.50054074, 0.50054148];
const EXPECTED_CELL = [0.89740515, 0.8974053, 0.80327607, 0.80327785];

const GATE_SLOTS = [
  [LstmTensor.INPUT_TO_FORGET_WEIGHTS, LstmTensor.RECURRENT_TO_FORGET_WEIGHTS, LstmTensor.FORGET_GATE_BIAS],
  [LstmTensor.INPUT_TO_INPUT_WEIGHTS, LstmTensor.RECURRENT_TO_INPUT_WEIGHTS, LstmTensor.INPUT_GATE_BIAS],
  [LstmTensor.INPUT_TO_CELL_WEIGHTS, LstmTensor.RECURRENT_TO_CELL_WEIGHTS, LstmTensor.CELL_GATE_BIAS],
  [LstmTensor.INPUT_TO_OUTPUT_WEIGHTS, LstmTensor.RECURRENT_TO_OUTPUT_WEIGHTS, LstmTensor.OUTPUT_GATE_BIAS],
] as const;

interface Q {
  scale: number;
  zeroPoint: number;
}
interface Variant {
  activation: TensorType;
  weight: TensorType;
  bias: TensorType;
  cell: TensorType;
  input?: Q;
  hidden?: Q;
  cellQ?: Q;
  /** Per gate: weight scale and bias scale. */
  gateScales?: [number, number][];
}

const FLOAT: Variant = { activation: TensorType.FLOAT32, weight: TensorType.FLOAT32, bias: TensorType.FLOAT32, cell: TensorType.FLOAT32 };
const INT8: Variant = {
  activation: TensorType.INT8,
  weight: TensorType.INT8,
  bias: TensorType.INT32,
  cell: TensorType.INT16,
  input: { scale: 0.00784313725490196, zeroPoint: 0 },
  hidden: { scale: 0.004705882165580988, zeroPoint: -21 },
  cellQ: { scale: 0.00024414062, zeroPoint: 0 },
  gateScales: [
    [0.15748031496062992, 0.0012351397251814111],
    [0.15748031496062992, 0.0012351397251814111],
    [0.007874015748031496, 6.175698625907056e-5],
    [0.007874015748031496, 6.175698625907056e-5],
  ],
};
const INT16: Variant = {
  activation: TensorType.INT16,
  weight: TensorType.INT8,
  bias: TensorType.INT64,
  cell: TensorType.INT16,
  input: { scale: 3.0518044e-5, zeroPoint: 0 },
  hidden: { scale: 2.1362956633198035e-5, zeroPoint: 0 },
  cellQ: { scale: 0.00024414062, zeroPoint: 0 },
  gateScales: [
    [0.15748031496062992, 4.8059911474468205e-6],
    [0.15748031496062992, 4.8059911474468205e-6],
    [0.007874015748031496, 2.40299557372341e-7],
    [0.007874015748031496, 2.40299557372341e-7],
  ],
};

const RANGES: Partial<Record<TensorType, [number, number]>> = {
  [TensorType.INT8]: [-128, 127],
  [TensorType.INT16]: [-32768, 32767],
  [TensorType.INT32]: [-2147483648, 2147483647],
  [TensorType.INT64]: [-(2 ** 53), 2 ** 53],
};

/** tflite::Quantize / SymmetricQuantize of the test helpers: round half away from zero, clamped. */
function quantize(values: readonly number[], type: TensorType, q?: Q): number[] {
  if (!q) return [...values];
  const [lo, hi] = RANGES[type]!;
  const scale = Math.fround(q.scale);
  return values.map((v) => {
    const x = v / scale;
    return Math.min(hi, Math.max(lo, (x < 0 ? -Math.round(-x) : Math.round(x)) + q.zeroPoint));
  });
}
function dequantize(values: ArrayLike<number>, q?: Q): number[] {
  return Array.from(values, (v) => (q ? (v - q.zeroPoint) * Math.fround(q.scale) : v));
}

/**
 * A minimal invoke-phase context over a prepared harness (its tensors, fresh scratch regions), so an
 * allocation measurement sees only the kernel's own allocations.
 */
function invokeOnly(h: KernelHarness): () => void {
  const scratch = h.scratchSizes.map((s) => new ArenaRegion(new ArrayBuffer(Math.max(16, s)), 0, s));
  const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]!, getScratchBuffer: (i: number) => scratch[i]! } as TfLiteContext;
  const reg = UNIDIRECTIONAL_SEQUENCE_LSTM;
  return () => reg.invoke(ctx, h.node);
}

function lstmOptions(overrides: Partial<UnidirectionalSequenceLSTMOptions> = {}): UnidirectionalSequenceLSTMOptions {
  return {
    fusedActivationFunction: ActivationFunctionType.TANH,
    cellClip: 6,
    projClip: 3,
    timeMajor: false,
    asymmetricQuantizeInputs: true,
    diagonalRecurrentTensors: false,
    ...overrides,
  };
}

interface Built {
  h: KernelHarness;
  /** Tensor index of the hidden state, cell state and input. */
  hidden: number;
  cell: number;
}

/**
 * A harness for the 2x3x2x2 model in `variant`, batch-major (or time-major with the same data
 * rearranged), with `timeSteps` steps; extra tensors (by slot) can be added to test rejections.
 */
function build(
  variant: Variant,
  opts: {
    timeMajor?: boolean;
    timeSteps?: number;
    cellClip?: number;
    extra?: Record<number, HarnessTensorSpec>;
    activation?: ActivationFunctionType;
  } = {},
): Built {
  const timeSteps = opts.timeSteps ?? T;
  const tensors: HarnessTensorSpec[] = [];
  const inputs = new Array<number>(LstmTensor.COUNT).fill(-1);
  const add = (slot: number, spec: HarnessTensorSpec) => {
    inputs[slot] = tensors.length;
    tensors.push(spec);
  };
  const inShape = opts.timeMajor ? [timeSteps, B, I] : [B, timeSteps, I];
  add(LstmTensor.INPUT, { type: variant.activation, shape: inShape, ...variant.input });
  GATES.forEach((g, gi) => {
    const [inSlot, recSlot, biasSlot] = GATE_SLOTS[gi]!;
    const [wScale, bScale] = variant.gateScales?.[gi] ?? [0, 0];
    const wq = variant.gateScales ? { scale: wScale, zeroPoint: 0 } : undefined;
    const bq = variant.gateScales ? { scale: bScale, zeroPoint: 0 } : undefined;
    add(inSlot, { type: variant.weight, shape: [S, I], data: quantize(g.input, variant.weight, wq), constant: true, ...wq });
    add(recSlot, { type: variant.weight, shape: [S, S], data: quantize(g.recurrent, variant.weight, wq), constant: true, ...wq });
    const bias = quantize(g.bias, variant.bias, bq);
    add(biasSlot, {
      type: variant.bias,
      shape: [S],
      data: variant.bias === TensorType.INT64 ? bias.map(BigInt) : bias,
      constant: true,
      ...bq,
    });
  });
  add(LstmTensor.OUTPUT_STATE, {
    type: variant.activation,
    shape: [B, S],
    variable: true,
    data: quantize([0, 0, 0, 0], variant.activation, variant.hidden),
    ...variant.hidden,
  });
  add(LstmTensor.CELL_STATE, { type: variant.cell, shape: [B, S], variable: true, ...variant.cellQ });
  for (const [slot, spec] of Object.entries(opts.extra ?? {})) add(Number(slot), spec);
  const outShape = opts.timeMajor ? [timeSteps, B, S] : [B, timeSteps, S];
  const out = tensors.length;
  tensors.push({ type: variant.activation, shape: outShape, ...variant.hidden });
  const h = new KernelHarness({
    registration: UNIDIRECTIONAL_SEQUENCE_LSTM,
    tensors,
    inputs,
    outputs: [out],
    builtinData: lstmOptions({
      timeMajor: opts.timeMajor ?? false,
      cellClip: opts.cellClip ?? 6,
      fusedActivationFunction: opts.activation ?? ActivationFunctionType.TANH,
    }),
  });
  return { h, hidden: inputs[LstmTensor.OUTPUT_STATE]!, cell: inputs[LstmTensor.CELL_STATE]! };
}

const data = (b: Built, index: number) => Array.from(b.h.tensors[index]!.data as ArrayLike<number>);

/** Batch-major [B, T, X] -> time-major [T, B, X]. */
function toTimeMajor(values: readonly number[], steps: number, width: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < steps; t++)
    for (let b = 0; b < B; b++) out.push(...values.slice((b * steps + t) * width, (b * steps + t + 1) * width));
  return out;
}

function expectClose(got: readonly number[], expected: readonly number[], tol: number): void {
  expect(got.length).toBe(expected.length);
  got.forEach((v, i) => expect(Math.abs(v - expected[i]!), `element ${i}: ${v} vs ${expected[i]}`).toBeLessThanOrEqual(tol));
}

describe('UNIDIRECTIONAL_SEQUENCE_LSTM float32 (TFLM 2x3x2x2 goldens)', () => {
  it('matches the output, hidden and cell state goldens', () => {
    const m = build(FLOAT);
    m.h.setInput(0, INPUT).invoke();
    expectClose(m.h.outputArray(), EXPECTED_OUTPUT, 1e-6);
    expectClose(data(m, m.hidden), EXPECTED_HIDDEN, 1e-6);
    expectClose(data(m, m.cell), EXPECTED_CELL, 1e-6);
    expect(m.h.scratchSizes).toEqual([B * S * 4, B * S * 4, B * S * 4, B * S * 4]);
  });

  it('time-major gives the same result as batch-major', () => {
    const m = build(FLOAT, { timeMajor: true });
    m.h.setInput(0, toTimeMajor(INPUT, T, I)).invoke();
    expectClose(m.h.outputArray(), toTimeMajor(EXPECTED_OUTPUT, T, S), 1e-6);
    expectClose(data(m, m.cell), EXPECTED_CELL, 1e-6);
  });

  it('the state persists across invokes and reset clears it', () => {
    const m = build(FLOAT);
    m.h.setInput(0, INPUT).invoke();
    m.h.invoke();
    // a second invoke starts from the first one's state: its first step differs from the golden's
    expect(Math.abs(m.h.outputArray()[0]! - EXPECTED_OUTPUT[0]!)).toBeGreaterThan(1e-3);
    m.h.reset().invoke();
    expectClose(m.h.outputArray(), EXPECTED_OUTPUT, 1e-6);
  });

  it('clips the cell state to cell_clip', () => {
    const m = build(FLOAT, { cellClip: 0.5 });
    m.h.setInput(0, INPUT).invoke();
    for (const c of data(m, m.cell)) expect(Math.abs(c)).toBeLessThanOrEqual(0.5);
    expect(data(m, m.cell)).toContain(0.5);
  });
});

describe('UNIDIRECTIONAL_SEQUENCE_LSTM int8 x int8 -> int16 cell (TFLM 2x3x2x2, quantized)', () => {
  it('dequantized output, hidden and cell within the TFLM test tolerances', () => {
    const m = build(INT8);
    m.h.setInput(0, quantize(INPUT, TensorType.INT8, INT8.input)).invoke();
    expectClose(dequantize(m.h.outputArray(), INT8.hidden), EXPECTED_OUTPUT, 1e-2);
    expectClose(dequantize(data(m, m.hidden), INT8.hidden), EXPECTED_HIDDEN, 1e-2);
    expectClose(dequantize(data(m, m.cell), INT8.cellQ), EXPECTED_CELL, 1e-2);
    expect(m.h.scratchSizes).toEqual([B * S * 2, B * S * 2, B * S * 2, B * S * 2]);
  });

  it('time-major is bit-exact with batch-major', () => {
    const bm = build(INT8);
    bm.h.setInput(0, quantize(INPUT, TensorType.INT8, INT8.input)).invoke();
    const tm = build(INT8, { timeMajor: true });
    tm.h.setInput(0, toTimeMajor(quantize(INPUT, TensorType.INT8, INT8.input), T, I)).invoke();
    expect(tm.h.outputArray()).toEqual(toTimeMajor(bm.h.outputArray(), T, S));
    expect(data(tm, tm.cell)).toEqual(data(bm, bm.cell));
    expect(data(tm, tm.hidden)).toEqual(data(bm, bm.hidden));
  });

  it('two invokes of 3 steps equal one invoke of 6 steps, bit for bit (state carried)', () => {
    const q = quantize(INPUT, TensorType.INT8, INT8.input);
    const second = [...q.slice(6, 12), ...q.slice(0, 6)]; // batches swapped for the second invoke
    const twice = build(INT8);
    twice.h.setInput(0, q).invoke();
    const first = twice.h.outputArray();
    twice.h.setInput(0, second).invoke();
    const once = build(INT8, { timeSteps: 6 });
    // batch-major [B, 6, I]: each batch's 3 first steps, then its 3 next
    once.h.setInput(0, [...q.slice(0, 6), ...second.slice(0, 6), ...q.slice(6, 12), ...second.slice(6, 12)]).invoke();
    const all = once.h.outputArray();
    expect([...all.slice(0, 6), ...all.slice(12, 18)]).toEqual(first);
    expect([...all.slice(6, 12), ...all.slice(18, 24)]).toEqual(twice.h.outputArray());
    expect(data(once, once.cell)).toEqual(data(twice, twice.cell));
    expect(data(once, once.hidden)).toEqual(data(twice, twice.hidden));
  });
});

describe('UNIDIRECTIONAL_SEQUENCE_LSTM int16 x int8 -> int16 cell, int64 bias (TFLM 2x3x2x2, quantized)', () => {
  it('dequantized output, hidden and cell within the TFLM test tolerances', () => {
    const m = build(INT16);
    m.h.setInput(0, quantize(INPUT, TensorType.INT16, INT16.input)).invoke();
    expectClose(dequantize(m.h.outputArray(), INT16.hidden), EXPECTED_OUTPUT, 1e-3);
    expectClose(dequantize(data(m, m.hidden), INT16.hidden), EXPECTED_HIDDEN, 1e-3);
    expectClose(dequantize(data(m, m.cell), INT16.cellQ), EXPECTED_CELL, 1e-2);
  });

  it('reset restores the initial state: the same input gives the same bits', () => {
    const m = build(INT16);
    const q = quantize(INPUT, TensorType.INT16, INT16.input);
    m.h.setInput(0, q).invoke();
    const first = m.h.outputArray();
    m.h.invoke();
    expect(m.h.outputArray()).not.toEqual(first);
    m.h.reset().invoke();
    expect(m.h.outputArray()).toEqual(first);
  });
});

describe('UNIDIRECTIONAL_SEQUENCE_LSTM prepare errors', () => {
  const peephole: HarnessTensorSpec = { type: TensorType.FLOAT32, shape: [S], data: [0, 0], constant: true };
  it('rejects peephole weights in the integer kernel, naming the input', () => {
    expect(() => build(INT8, { extra: { [LstmTensor.CELL_TO_FORGET_WEIGHTS]: peephole } }).h.prepare()).toThrow(
      /peephole connections \(input 10\) is not supported/,
    );
  });
  it('rejects projection weights in the integer kernel', () => {
    const proj: HarnessTensorSpec = { type: TensorType.FLOAT32, shape: [S, S], data: [0, 0, 0, 0], constant: true };
    expect(() => build(INT8, { extra: { [LstmTensor.PROJECTION_WEIGHTS]: proj } }).h.prepare()).toThrow(/projection \(input 16\)/);
  });
  it('rejects layer normalization in the integer kernel', () => {
    expect(() => build(INT8, { extra: { [LstmTensor.CELL_LAYER_NORM_COEFFICIENTS]: peephole } }).h.prepare()).toThrow(
      /layer normalization \(input 22\)/,
    );
  });
  it('rejects a cell gate activation other than TANH', () => {
    expect(() => build(FLOAT, { activation: ActivationFunctionType.RELU }).h.prepare()).toThrow(/cell gate activation RELU/);
  });
  it('rejects a negative cell clip', () => {
    expect(() => build(FLOAT, { cellClip: -1 }).h.prepare()).toThrow(KernelError);
  });
  it('rejects an int8 LSTM with an int8 cell state', () => {
    expect(() => build({ ...INT8, cell: TensorType.INT8 }).h.prepare()).toThrow(
      /unsupported type combination \(input int8, weights int8, bias int32, cell state int8\)/,
    );
  });
});

describe('UNIDIRECTIONAL_SEQUENCE_LSTM invoke allocates nothing', () => {
  for (const [name, variant] of [
    ['float32', FLOAT],
    ['int8', INT8],
    ['int16', INT16],
  ] as const) {
    it(name, () => {
      const m = build(variant);
      m.h.setInput(0, quantize(INPUT, variant.activation, variant.input)).prepare();
      const r = measureAllocation(invokeOnly(m.h), { warmup: 2000, trials: 7, iterations: 500 });
      expect(r.medianTrialBytes, `heap deltas per trial: ${r.deltas.join(', ')}`).toBeLessThan(2048);
    });
  }
});
