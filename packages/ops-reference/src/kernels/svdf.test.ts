import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, ArenaRegion, KernelError, TensorType, type SVDFOptions, type TfLiteContext } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { SVDF } from './svdf.js';

// TFLM svdf_test.cc: 2x2x10 (batch 2, input size 2, 10 invocations), 4 units, rank 2, memory 10.
const INPUT_2x2x10 = [
  0.12609188, -0.46347019, 0.35867718, 0.36897406, 0.14278367, -1.64410412, -0.57290924, 0.12729003, 0.49837467, 0.19278903, 0.17660543,
  0.52949083, -0.11186574, 0.13164264, -0.72674477, -0.5683046, -0.68892461, 0.37783599, -0.63690937, 0.44483393, -0.81299269, -0.86831826,
  -0.95760226, 1.82078898, -1.45006323, -0.82251364, -1.65087092, -1.89238167, 0.03966608, -0.24936394, 2.06740379, -1.51439476, 0.11771342,
  -0.23761693, 0.31088525, -1.55601168, -0.89477462, 1.67204106, -0.6230064, 0.29819036,
];
const FEATURE_WEIGHTS_2x2x10 = [
  -0.31930989, 0.0079667, 0.39296314, 0.37613347, 0.12416199, 0.15785322, 0.27901134, 0.3905206, 0.21931258, -0.36137494, -0.10640851,
  0.31053296, -0.36118156, -0.0976817, -0.36916667, 0.22197971,
];
const TIME_WEIGHTS_2x2x10 = [
  -0.31930989, 0.37613347, 0.27901134, -0.36137494, -0.36118156, 0.22197971, 0.27557442, -0.06634006, 0.0079667, 0.12416199, 0.3905206,
  -0.10640851, -0.0976817, 0.15294972, 0.39635518, -0.02702999, 0.39296314, 0.15785322, 0.21931258, 0.31053296, -0.36916667, 0.38031587,
  -0.21580373, 0.27072677, 0.23622236, 0.34936687, 0.18174365, 0.35907319, -0.17493086, 0.324846, -0.10781813, 0.27201805, 0.14324132,
  -0.23681851, -0.27115166, -0.01580888, -0.14943552, 0.15465137, 0.09784451, -0.0337657, -0.14884081, 0.19931212, -0.36002168, 0.34663299,
  -0.11405486, 0.12672701, 0.39463779, -0.07886535, -0.06384811, 0.08249187, -0.26816407, -0.19905911, 0.29211238, 0.31264046, -0.28664589,
  0.05698794, 0.11613581, 0.14078894, 0.02187902, -0.21781836, -0.15567942, 0.08693647, -0.38256618, 0.36580828, -0.22922277, -0.0226903,
  0.12878349, -0.28122205, -0.10850525, -0.11955214, 0.27179423, -0.04710215, 0.31069002, 0.22672787, 0.09580326, 0.08682203, 0.1258215,
  0.1851041, 0.29228821, 0.12366763,
];
const GOLDEN_2x2x10 = [
  -0.044205, -0.013757, 0.050369, -0.018447, 0.07301, 0.025142, -0.021154, 0.013551, -0.209613, -0.062421, 0.150209, -0.108334, 0.028256,
  -0.00695, -0.030885, 0.009603, -0.0768, -0.037075, -0.087198, -0.155183, 0.091069, 0.098446, -0.016083, 0.106475, -0.082123, -0.162238,
  -0.084434, -0.141074, -0.02934, -0.090685, 0.053302, -0.030604, -0.20144, 0.088424, 0.139877, 0.012416, -0.113212, 0.103893, -0.100842,
  0.12278, -0.166632, -0.116705, 0.175298, -0.047163, 0.313077, -0.166485, -0.28586, 0.129069, -0.625911, 0.046134, 0.138081, -0.129581,
  -0.521455, -0.061579, 0.230289, 0.114963, -0.216693, -0.161643, -0.179177, -0.052599, -0.213239, 0.029502, 0.260858, 0.275045, -0.213689,
  -0.323608, -0.285635, -0.317687, -0.324092, -0.317972, -0.20845, -0.462504, -0.255126, -0.218576, -0.041528, 0.179421, -0.440583,
  0.072127, -0.284136, 0.24157,
];
const BATCH = 2;
const UNITS = 4;
const INPUT_SIZE = 2;
const MEMORY = 10;
const RANK = 2;
const FILTERS = UNITS * RANK;

function options(rank: number, activation = ActivationFunctionType.NONE): SVDFOptions {
  return { rank, fusedActivationFunction: activation, asymmetricQuantizeInputs: false };
}

/** tflite::Quantize of the test helpers: round half away from zero, then zero point, clamped to the type. */
function quantize(values: readonly number[], scale: number, zeroPoint: number, lo: number, hi: number): number[] {
  return values.map((v) => {
    const q = Math.fround(v / Math.fround(scale));
    const r = (q < 0 ? -Math.round(-q) : Math.round(q)) + zeroPoint;
    return Math.min(hi, Math.max(lo, r));
  });
}

/**
 * A minimal invoke-phase context over a prepared harness (its tensors, fresh scratch regions), so an
 * allocation measurement sees only the kernel's own allocations.
 */
function invokeOnly(h: KernelHarness): () => void {
  const scratch = h.scratchSizes.map((s) => new ArenaRegion(new ArrayBuffer(Math.max(16, s)), 0, s));
  const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]!, getScratchBuffer: (i: number) => scratch[i]! } as TfLiteContext;
  const reg = SVDF;
  return () => reg.invoke(ctx, h.node);
}

function svdfHarness(tensors: HarnessTensorSpec[], rank: number, activation = ActivationFunctionType.NONE): KernelHarness {
  return new KernelHarness({ registration: SVDF, tensors, inputs: [0, 1, 2, 3, 4], outputs: [5], builtinData: options(rank, activation) });
}

describe('SVDF float32 (TFLM svdf_test 2x2x10 goldens)', () => {
  const build = () =>
    svdfHarness(
      [
        { type: TensorType.FLOAT32, shape: [BATCH, INPUT_SIZE] },
        { type: TensorType.FLOAT32, shape: [FILTERS, INPUT_SIZE], data: FEATURE_WEIGHTS_2x2x10, constant: true },
        { type: TensorType.FLOAT32, shape: [FILTERS, MEMORY], data: TIME_WEIGHTS_2x2x10, constant: true },
        { type: TensorType.FLOAT32, shape: [UNITS], data: new Array(UNITS).fill(0), constant: true },
        { type: TensorType.FLOAT32, shape: [BATCH, MEMORY * FILTERS], variable: true },
        { type: TensorType.FLOAT32, shape: [BATCH, UNITS] },
      ],
      RANK,
    );
  const step = BATCH * INPUT_SIZE;
  const outStep = BATCH * UNITS;

  it('matches the golden over 10 invokes (state carried across invokes)', () => {
    const h = build().prepare();
    expect(h.scratchSizes).toEqual([BATCH * FILTERS * 4]);
    for (let i = 0; i < 10; i++) {
      h.setInput(0, INPUT_2x2x10.slice(i * step, (i + 1) * step)).invoke();
      const out = h.outputArray();
      out.forEach((v, j) => expect(v).toBeCloseTo(GOLDEN_2x2x10[i * outStep + j]!, 5));
    }
  });

  it('reset clears the state: the first step repeats', () => {
    const h = build().prepare();
    for (let i = 0; i < 3; i++) h.setInput(0, INPUT_2x2x10.slice(i * step, (i + 1) * step)).invoke();
    expect(h.outputArray()[0]).not.toBeCloseTo(GOLDEN_2x2x10[0]!, 3);
    h.reset().setInput(0, INPUT_2x2x10.slice(0, step)).invoke();
    h.outputArray().forEach((v, j) => expect(v).toBeCloseTo(GOLDEN_2x2x10[j]!, 5));
  });

  it('applies the fused activation (RELU)', () => {
    const h = svdfHarness(
      [
        { type: TensorType.FLOAT32, shape: [1, 1], data: [2] },
        { type: TensorType.FLOAT32, shape: [2, 1], data: [1, -1], constant: true },
        { type: TensorType.FLOAT32, shape: [2, 1], data: [1, 1], constant: true },
        { type: TensorType.FLOAT32, shape: [2], data: [0.5, 0.5], constant: true },
        { type: TensorType.FLOAT32, shape: [1, 2], variable: true },
        { type: TensorType.FLOAT32, shape: [1, 2] },
      ],
      1,
      ActivationFunctionType.RELU,
    );
    // unit 0: 2 * 1 + 0.5 = 2.5; unit 1: 2 * -1 + 0.5 = -1.5 -> 0
    expect(h.invoke().outputArray()).toEqual([2.5, 0]);
  });
});

describe('SVDF integer, hand-checked (all effective scales 1: exact integer arithmetic)', () => {
  // batch 1, input size 2, 2 filters, rank 1, memory 3; input zero point 1, output zero point -3.
  const tensors = (stateType: TensorType.INT16 | TensorType.INT8): HarnessTensorSpec[] => [
    { type: TensorType.INT8, shape: [1, 2], scale: 1, zeroPoint: 1 },
    { type: TensorType.INT8, shape: [2, 2], data: [1, 2, 3, -1], constant: true, scale: 1, zeroPoint: 0 },
    { type: stateType, shape: [2, 3], data: [1, 2, 3, -1, 0, 2], constant: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT32, shape: [2], data: [10, -5], constant: true, scale: 1, zeroPoint: 0 },
    { type: stateType, shape: [1, 6], variable: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT8, shape: [1, 2], scale: 1, zeroPoint: -3 },
  ];

  for (const stateType of [TensorType.INT16, TensorType.INT8] as const) {
    it(`${TensorType[stateType].toLowerCase()} state: two invokes carry the state, reset restarts`, () => {
      const h = svdfHarness(tensors(stateType), 1).prepare();
      expect(h.scratchSizes).toEqual([2 * 4, 2 * 4]);
      // invoke 1: x - zp = [3, 1]; features [1*3+2*1, 3*3-1*1] = [5, 8]; state rows [0,0,5], [0,0,8]
      // time: [3*5, 2*8] = [15, 16]; + bias [10, -5] + zp -3 = [22, 8]
      expect(h.setInput(0, [4, 2]).invoke().outputArray()).toEqual([22, 8]);
      expect(Array.from(h.tensors[4]!.data as ArrayLike<number>)).toEqual([0, 0, 5, 0, 0, 8]);
      // invoke 2: x - zp = [0, 2]; features [4, -2]; whole state shifted left then last column written:
      // rows [0,5,4], [0,8,-2]; time [2*5+3*4, 0*8+2*-2] = [22, -4]; + bias + zp = [29, -12]
      expect(h.setInput(0, [1, 3]).invoke().outputArray()).toEqual([29, -12]);
      expect(Array.from(h.tensors[4]!.data as ArrayLike<number>)).toEqual([0, 5, 4, 0, 8, -2]);
      h.reset();
      expect(h.setInput(0, [4, 2]).invoke().outputArray()).toEqual([22, 8]);
    });
  }

  it('clamps the feature activation to the state type before storing', () => {
    const t = tensors(TensorType.INT8);
    t[1] = { ...t[1]!, data: [100, 100, -100, -100] };
    const h = svdfHarness(t, 1);
    // features [100*3+100*1, -400] = [400, -400] -> clamped [127, -128]; time [3*127, 2*-128] = [381, -256]
    // output [381+10-3, -256-5-3] = [388, -264] -> clamped [127, -128]
    expect(h.setInput(0, [4, 2]).invoke().outputArray()).toEqual([127, -128]);
    expect(Array.from(h.tensors[4]!.data as ArrayLike<number>)).toEqual([0, 0, 127, 0, 0, -128]);
  });

  it('int8 state with a zero point: zero point added after the clamp, wrapping like TFLM', () => {
    // 1 filter, memory 2, state zero point 100, output scale 4 (effective scale 2 = 1/4).
    const h = svdfHarness(
      [
        { type: TensorType.INT8, shape: [1, 1], data: [50], scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 1], data: [1], constant: true, scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 2], data: [1, 1], constant: true, scale: 1, zeroPoint: 0 },
        { type: TensorType.INT32, shape: [1], data: [0], constant: true, scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 2], data: [100, 100], variable: true, scale: 1, zeroPoint: 100 },
        { type: TensorType.INT8, shape: [1, 1], scale: 4, zeroPoint: 0 },
      ],
      1,
    );
    h.invoke();
    // feature 50 (in range) + zero point 100 = 150, stored as int8 -> -106
    expect(Array.from(h.tensors[4]!.data as Int8Array)).toEqual([100, -106]);
    // time: (100-100) + (-106-100) = -206; * 1/4 = -51.5 -> -52 (rounding half away from zero)
    expect(h.outputArray()).toEqual([-52]);
  });
});

describe('SVDF integer vs. the float golden (TFLM svdf_test quantized 2x2x10, tolerance 1)', () => {
  for (const stateType of [TensorType.INT16, TensorType.INT8] as const) {
    it(`${TensorType[stateType].toLowerCase()} state and time weights`, () => {
      const tMax = stateType === TensorType.INT16 ? 32767 : 127;
      const tMin = -tMax - 1;
      const inputScale = Math.fround(2.5 / 127);
      const featureScale = Math.fround(1 / 127);
      const timeScale = Math.fround(1 / tMax);
      const stateScale = Math.fround(1.49 / tMax);
      const outputScale = Math.fround(1 / 127);
      const h = svdfHarness(
        [
          { type: TensorType.INT8, shape: [BATCH, INPUT_SIZE], scale: inputScale, zeroPoint: 0 },
          {
            type: TensorType.INT8,
            shape: [FILTERS, INPUT_SIZE],
            data: quantize(FEATURE_WEIGHTS_2x2x10, featureScale, 0, -128, 127),
            constant: true,
            scale: featureScale,
          },
          {
            type: stateType,
            shape: [FILTERS, MEMORY],
            data: quantize(TIME_WEIGHTS_2x2x10, timeScale, 0, tMin, tMax),
            constant: true,
            scale: timeScale,
          },
          { type: TensorType.INT32, shape: [UNITS], data: [0, 0, 0, 0], constant: true, scale: Math.fround(timeScale * stateScale) },
          { type: stateType, shape: [BATCH, MEMORY * FILTERS], variable: true, scale: stateScale, zeroPoint: 0 },
          { type: TensorType.INT8, shape: [BATCH, UNITS], scale: outputScale, zeroPoint: 0 },
        ],
        RANK,
        ActivationFunctionType.RELU, // ignored on the integer path, as in TFLM (the golden has negatives)
      ).prepare();
      const inputs = quantize(INPUT_2x2x10, inputScale, 0, -128, 127);
      const golden = quantize(GOLDEN_2x2x10, outputScale, 0, -128, 127);
      const step = BATCH * INPUT_SIZE;
      for (let i = 0; i < 10; i++) {
        h.setInput(0, inputs.slice(i * step, (i + 1) * step)).invoke();
        h.outputArray().forEach((v, j) => expect(Math.abs(v - golden[i * BATCH * UNITS + j]!)).toBeLessThanOrEqual(1));
      }
    });
  }
});

describe('SVDF prepare errors', () => {
  const valid = (): HarnessTensorSpec[] => [
    { type: TensorType.FLOAT32, shape: [1, 2] },
    { type: TensorType.FLOAT32, shape: [4, 2], data: new Array(8).fill(0), constant: true },
    { type: TensorType.FLOAT32, shape: [4, 3], data: new Array(12).fill(0), constant: true },
    { type: TensorType.FLOAT32, shape: [2], data: [0, 0], constant: true },
    { type: TensorType.FLOAT32, shape: [1, 12], variable: true },
    { type: TensorType.FLOAT32, shape: [1, 2] },
  ];
  it('accepts the valid float configuration', () => {
    expect(() => svdfHarness(valid(), 2).prepare()).not.toThrow();
  });
  it('rejects num_filters not divisible by rank', () => {
    expect(() => svdfHarness(valid(), 3).prepare()).toThrow(/num_filters 4 is not a multiple of rank 3/);
  });
  it('rejects a non-variable state', () => {
    const t = valid();
    t[4] = { ...t[4]!, variable: false };
    expect(() => svdfHarness(t, 2).prepare()).toThrow(KernelError);
  });
  it('rejects a state of the wrong size, naming the shapes', () => {
    const t = valid();
    t[4] = { ...t[4]!, shape: [1, 10] };
    expect(() => svdfHarness(t, 2).prepare()).toThrow(/activation state \(tensor 4\) has shape \[1, 10\], expected \[1, 12\]/);
  });
  it('rejects uint8 input', () => {
    const t = valid();
    t[0] = { type: TensorType.UINT8, shape: [1, 2], scale: 1 };
    expect(() => svdfHarness(t, 2).prepare()).toThrow(/unsupported input type uint8/);
  });
  it('rejects an int8 state with int16 time weights', () => {
    const h = svdfHarness(
      [
        { type: TensorType.INT8, shape: [1, 1], scale: 1 },
        { type: TensorType.INT8, shape: [1, 1], data: [1], constant: true, scale: 1 },
        { type: TensorType.INT16, shape: [1, 2], data: [1, 1], constant: true, scale: 1 },
        { type: TensorType.INT32, shape: [1], data: [0], constant: true, scale: 1 },
        { type: TensorType.INT8, shape: [1, 2], variable: true, scale: 1 },
        { type: TensorType.INT8, shape: [1, 1], scale: 1 },
      ],
      1,
    );
    expect(() => h.prepare()).toThrow(/activation state \(tensor 4\) has type int8, expected int16/);
  });
});

describe('SVDF invoke allocates nothing', () => {
  it('int16 state', () => {
    const t = [
      { type: TensorType.INT8, shape: [2, 8], data: new Array(16).fill(3), scale: 0.5, zeroPoint: 1 },
      { type: TensorType.INT8, shape: [8, 8], data: new Array(64).fill(2), constant: true, scale: 0.01 },
      { type: TensorType.INT16, shape: [8, 4], data: new Array(32).fill(5), constant: true, scale: 0.001 },
      { type: TensorType.INT32, shape: [4], data: [1, 2, 3, 4], constant: true, scale: 0.00001 },
      { type: TensorType.INT16, shape: [2, 32], variable: true, scale: 0.01 },
      { type: TensorType.INT8, shape: [2, 4], scale: 0.1, zeroPoint: -3 },
    ] satisfies HarnessTensorSpec[];
    const h = svdfHarness(t, 2).prepare();
    const m = measureAllocation(invokeOnly(h), { warmup: 2000, trials: 7, iterations: 500 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(2048);
  });
  it('float', () => {
    const h = svdfHarness(
      [
        { type: TensorType.FLOAT32, shape: [BATCH, INPUT_SIZE], data: INPUT_2x2x10.slice(0, 4) },
        { type: TensorType.FLOAT32, shape: [FILTERS, INPUT_SIZE], data: FEATURE_WEIGHTS_2x2x10, constant: true },
        { type: TensorType.FLOAT32, shape: [FILTERS, MEMORY], data: TIME_WEIGHTS_2x2x10, constant: true },
        { type: TensorType.FLOAT32, shape: [UNITS], data: [0, 0, 0, 0], constant: true },
        { type: TensorType.FLOAT32, shape: [BATCH, MEMORY * FILTERS], variable: true },
        { type: TensorType.FLOAT32, shape: [BATCH, UNITS] },
      ],
      RANK,
      ActivationFunctionType.TANH,
    ).prepare();
    const m = measureAllocation(invokeOnly(h), { warmup: 2000, trials: 7, iterations: 500 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(2048);
  });
});
