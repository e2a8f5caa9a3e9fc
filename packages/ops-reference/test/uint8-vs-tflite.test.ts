/**
 * uint8 kernels against TFLite itself (the oracle: TFLite 2.9's C library), byte for byte: single-op
 * models with random weights, zero points and inputs, built with ModelBuilder, and the converter-shaped
 * TF1-style quantized MobileNet block.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType as A, BuiltinOperator as Op, Padding, TensorType } from '@micrort/core';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable, randomInputs, TfliteOracle } from '@micrort/test-support/tflite-oracle';
import { mobilenetBlock, mobilenetV1, rng, Uint8ModelBuilder, type Q8 } from './uint8-models.js';
import { flexMap } from '@micrort/test-support/flexbuffers';

if (!oracleAvailable) it.skip(`uint8 kernels vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

/**
 * Runs micrort and TFLite on `bytes` with `sets` random input sets (the first replaced by `fixed` when
 * given); returns a mismatch summary per set. With `offByOne`, uint8 outputs may differ by 1.
 */
function check(bytes: Uint8Array, sets = 2, fixed?: Uint8Array[], offByOne = false): string[] {
  const inputs = new TfliteOracle(bytes).inputs;
  const out: string[] = [];
  for (let s = 0; s < sets; s++) {
    const cmp = compareWithTflite(bytes, s === 0 && fixed ? fixed : randomInputs(inputs, 1000 + s));
    if (offByOne) {
      cmp.got.forEach((g, j) => {
        const far = g.findIndex((v, i) => Math.abs(v - cmp.expected[j]![i]!) > 1);
        if (far >= 0)
          out.push(`set ${s} output ${j}: element ${far} differs by more than 1 (micrort ${g[far]}, TFLite ${cmp.expected[j]![far]})`);
      });
      continue;
    }
    for (const o of cmp.outputs)
      if (!o.pass)
        out.push(
          `set ${s} output ${o.index}: ${o.mismatches}/${o.elements} differ, first at ${o.firstMismatchAt} (micrort ${cmp.got[o.index]![o.firstMismatchAt]}, TFLite ${cmp.expected[o.index]![o.firstMismatchAt]})`,
        );
  }
  return out;
}

const q = (scale: number, zeroPoint: number): Q8 => ({ scale, zeroPoint });

interface ConvCase {
  name: string;
  inShape: [number, number, number, number];
  filter: [number, number];
  outChannels: number;
  stride: number;
  dilation?: number;
  padding: Padding;
  act: A;
  bias: boolean;
  depthwise?: boolean;
}

function convModel(c: ConvCase, seed: number): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const [n, h, w, cin] = c.inShape;
  const qi = q(0.05 + m.next() * 0.05, 100 + Math.floor(m.next() * 50));
  const qf = q(0.005 + m.next() * 0.02, 90 + Math.floor(m.next() * 70));
  const qo = q(0.1 + m.next() * 0.2, Math.floor(m.next() * 255));
  const dil = c.dilation ?? 1;
  const eff = (k: number) => (k - 1) * dil + 1;
  const out = (size: number, k: number) =>
    c.padding === Padding.SAME ? Math.ceil(size / c.stride) : Math.floor((size - eff(k)) / c.stride) + 1;
  const oh = out(h, c.filter[0]);
  const ow = out(w, c.filter[1]);
  const x = m.act('x', [n, h, w, cin], qi);
  const cout = c.depthwise ? cin * (c.outChannels / cin) : c.outChannels;
  const filter = c.depthwise
    ? m.weights('f', [1, c.filter[0], c.filter[1], cout], qf)
    : m.weights('f', [cout, c.filter[0], c.filter[1], cin], qf);
  const inputs = [x, filter];
  if (c.bias) inputs.push(m.bias('b', cout, qi.scale, qf.scale));
  const y = m.act('y', [n, oh, ow, cout], qo);
  const common = {
    padding: c.padding,
    strideH: c.stride,
    strideW: c.stride,
    dilationHFactor: dil,
    dilationWFactor: dil,
    fusedActivationFunction: c.act,
  };
  if (c.depthwise) m.op(Op.DEPTHWISE_CONV_2D, inputs, [y], { ...common, depthMultiplier: cout / cin });
  else m.op(Op.CONV_2D, inputs, [y], common);
  return m.build([x], [y]);
}

const CONV_CASES: ConvCase[] = [
  {
    name: '3x3 stride 1 SAME relu6',
    inShape: [1, 9, 8, 5],
    filter: [3, 3],
    outChannels: 7,
    stride: 1,
    padding: Padding.SAME,
    act: A.RELU6,
    bias: true,
  },
  {
    name: '3x3 stride 2 VALID none',
    inShape: [2, 9, 9, 3],
    filter: [3, 3],
    outChannels: 4,
    stride: 2,
    padding: Padding.VALID,
    act: A.NONE,
    bias: true,
  },
  { name: '1x1 relu', inShape: [1, 5, 5, 16], filter: [1, 1], outChannels: 12, stride: 1, padding: Padding.SAME, act: A.RELU, bias: true },
  {
    name: '3x2 dilation 2 SAME',
    inShape: [1, 10, 7, 4],
    filter: [3, 2],
    outChannels: 3,
    stride: 1,
    dilation: 2,
    padding: Padding.SAME,
    act: A.NONE,
    bias: true,
  },
];

/** Random uint8 quantization: scale in [lo, lo + span), zero point anywhere in 0..255. */
function randomQ(next: () => number, lo = 0.01, span = 0.1): Q8 {
  return q(lo + next() * span, Math.floor(next() * 256));
}

/** One binary op on two uint8 graph inputs (shapes may broadcast), with random quantization. */
function binaryModel(
  op: Op,
  shape1: number[],
  shape2: number[],
  outShape: number[],
  seed: number,
  act: A = A.NONE,
  options?: object,
): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const qa = randomQ(m.next);
  const qb = op === Op.MAXIMUM || op === Op.MINIMUM ? qa : randomQ(m.next);
  const qo =
    op === Op.MAXIMUM || op === Op.MINIMUM
      ? qa
      : op === Op.MUL
        ? randomQ(m.next, 0.005, 0.02)
        : op === Op.DIV
          ? randomQ(m.next, 0.05, 0.5)
          : randomQ(m.next, 0.02, 0.1);
  const a = m.act('a', shape1, qa);
  const b = m.act('b', shape2, qb);
  const y = m.act('y', outShape, qo);
  m.op(op, [a, b], [y], options ?? (op === Op.MAXIMUM || op === Op.MINIMUM ? undefined : { fusedActivationFunction: act }));
  return m.build([a, b], [y]);
}

function fcModel(batches: number, depth: number, units: number, seed: number, act: A, int16Out = false): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const qi = randomQ(m.next, 0.02, 0.05);
  const qf = randomQ(m.next, 0.002, 0.01);
  const x = m.act('x', [batches, depth], qi);
  const w = m.weights('w', [units, depth], qf);
  const b = m.bias('b', units, qi.scale, qf.scale);
  const y = int16Out
    ? m.b.addTensor({ name: 'y', type: TensorType.INT16, shape: [batches, units], quantization: { scale: 0.001, zeroPoint: 0 } })
    : m.act('y', [batches, units], randomQ(m.next, 0.05, 0.2));
  m.op(Op.FULLY_CONNECTED, [x, w, b], [y], { fusedActivationFunction: act });
  return m.build([x], [y]);
}

/** Every uint8 value once, in a [2, 8, 16] tensor. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => (i * 37) & 255);

/** One unary op on a uint8 graph input. */
function unaryModel(op: Op, seed: number, qIn: Q8, qOut: Q8, options?: object, shape = [2, 8, 16]): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const x = m.act('x', shape, qIn);
  const y = m.act('y', shape, qOut);
  m.op(op, [x], [y], options);
  return m.build([x], [y]);
}

describe.skipIf(!oracleAvailable)('uint8 vs TFLite', () => {
  it('QUANTIZE: float32 → uint8, uint8 → uint8, uint8 → int8, int8 → uint8; DEQUANTIZE uint8 → float32', () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 4; seed++) {
      const m = new Uint8ModelBuilder(rng(600 + seed));
      const f = m.b.addTensor({ name: 'f', type: TensorType.FLOAT32, shape: [4, 32] });
      const a = m.act('a', [4, 32], randomQ(m.next, 0.005, 0.02));
      const b = m.act('b', [4, 32], randomQ(m.next, 0.005, 0.03));
      const qc = randomQ(m.next, 0.005, 0.03);
      const c = m.b.addTensor({
        name: 'c',
        type: TensorType.INT8,
        shape: [4, 32],
        quantization: { scale: qc.scale, zeroPoint: qc.zeroPoint - 128 },
      });
      const d = m.act('d', [4, 32], randomQ(m.next, 0.005, 0.03));
      const e = m.b.addTensor({ name: 'e', type: TensorType.FLOAT32, shape: [4, 32] });
      m.op(Op.QUANTIZE, [f], [a]);
      m.op(Op.QUANTIZE, [a], [b]);
      m.op(Op.QUANTIZE, [b], [c]);
      m.op(Op.QUANTIZE, [c], [d]);
      m.op(Op.DEQUANTIZE, [d], [e]);
      const bytes = m.build([f], [a, b, c, d, e]);
      const x = new Float32Array(128).map((_, i) => (i - 64) * 0.037 * (seed + 1));
      problems.push(...check(bytes, 1, [new Uint8Array(x.buffer)]).map((p) => `seed ${seed}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('CONCATENATION: copies inputs quantized like the output, requantizes the others (float32, roundf)', () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 6; seed++) {
      const m = new Uint8ModelBuilder(rng(700 + seed));
      const qo = randomQ(m.next, 0.02, 0.1);
      const axis = seed % 3;
      const shapes = [
        [2, 3, 4],
        [2, 3, 4],
        [2, 3, 4],
      ].map((sh, i) => sh.map((v, d) => (d === axis ? v + i : v)));
      const ins = shapes.map((sh, i) => m.act(`x${i}`, sh, i === 1 ? qo : randomQ(m.next, 0.01, 0.2)));
      const outShape = shapes[0]!.map((v, d) => (d === axis ? shapes.reduce((t, sh) => t + sh[d]!, 0) : v));
      const y = m.act('y', outShape, qo);
      m.op(Op.CONCATENATION, ins, [y], { axis: seed % 2 ? axis : axis - 3 });
      problems.push(...check(m.build(ins, [y])).map((p) => `seed ${seed}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  // micrort follows TFLite's current reference MEAN (QuantizedMeanOrSum: integer sums, 1/count folded
  // into the multiplier, TFLM's int8 path); TFLite 2.9, the oracle, still rounded a float mean for uint8
  // (and had a separate 4-D H,W kernel), so its results may differ by one step.
  it('MEAN over H,W (keep_dims) and over other axes (within one step of TFLite 2.9)', () => {
    const problems: string[] = [];
    const cases: [number[], number[], boolean, number[]][] = [
      [[1, 5, 7, 6], [1, 2], true, [1, 1, 1, 6]],
      [[2, 4, 4, 3], [2, 1], true, [2, 1, 1, 3]],
      [[2, 5, 6], [1], false, [2, 6]],
      [[3, 4, 5], [0, -1], true, [1, 4, 1]],
    ];
    cases.forEach(([shape, axes, keepDims, outShape], k) => {
      for (let seed = 0; seed < 3; seed++) {
        const m = new Uint8ModelBuilder(rng(900 + 10 * k + seed));
        const qi = randomQ(m.next, 0.01, 0.1);
        const x = m.act('x', shape, qi);
        const y = m.act('y', outShape, seed === 0 ? qi : randomQ(m.next, 0.01, 0.1));
        m.op(Op.MEAN, [x, m.int32('axes', axes)], [y], { keepDims });
        problems.push(...check(m.build([x], [y]), 2, undefined, true).map((p) => `case ${k} seed ${seed}: ${p}`));
      }
    });
    expect(problems).toEqual([]);
  });

  it("RESIZE_BILINEAR (TFLite's float template, truncated), ARG_MAX and ARG_MIN", () => {
    const problems: string[] = [];
    const cases: [number[], [number, number], boolean, boolean][] = [
      [[1, 3, 4, 2], [5, 7], false, false],
      [[1, 4, 4, 3], [7, 7], true, false],
      [[1, 8, 8, 8], [16, 16], false, true],
      [[2, 5, 3, 4], [4, 6], false, true],
    ];
    cases.forEach(([shape, size, alignCorners, halfPixelCenters], k) => {
      const m = new Uint8ModelBuilder(rng(950 + k));
      const qx = randomQ(m.next);
      const x = m.act('x', shape, qx);
      const y = m.act('y', [shape[0]!, size[0], size[1], shape[3]!], qx);
      m.op(Op.RESIZE_BILINEAR, [x, m.int32('size', size)], [y], { alignCorners, halfPixelCenters }, 3);
      problems.push(...check(m.build([x], [y])).map((p) => `resize ${k}: ${p}`));
    });
    for (const [op, axis] of [
      [Op.ARG_MAX, 1],
      [Op.ARG_MIN, -1],
    ] as const) {
      const m = new Uint8ModelBuilder(rng(960 + axis));
      const x = m.act('x', [3, 9, 4], randomQ(m.next));
      const y = m.b.addTensor({ name: 'y', type: TensorType.INT32, shape: axis === 1 ? [3, 4] : [3, 9] });
      m.op(op, [x, m.int32('axis', [axis], [])], [y], { outputType: TensorType.INT32 });
      problems.push(...check(m.build([x], [y])).map((p) => `${Op[op]}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('TFLite_Detection_PostProcess with uint8 box encodings, class predictions and anchors (TF1 quantized SSD)', () => {
    const anchors = new Float32Array(24 * 4);
    for (let i = 0; i < 24; i++) anchors.set([0.1 + 0.2 * (i % 5), 0.1 + 0.2 * Math.floor(i / 5), 0.15, 0.15], 4 * i);
    const qa = q(1 / 255, 0);
    const options = {
      max_detections: 5,
      max_classes_per_detection: 1,
      detections_per_class: 2,
      use_regular_nms: false,
      nms_score_threshold: { float: 0.2 },
      nms_iou_threshold: { float: 0.5 },
      num_classes: 3,
      y_scale: { float: 10 },
      x_scale: { float: 10 },
      h_scale: { float: 5 },
      w_scale: { float: 5 },
    };
    const problems: string[] = [];
    for (const regular of [false, true]) {
      const m = new Uint8ModelBuilder(rng(970));
      const boxes = m.act('boxes', [1, 24, 4], q(0.05, 128));
      const scores = m.act('scores', [1, 24, 4], q(1 / 256, 0));
      const anchorsQ = Uint8Array.from(anchors, (v) => Math.round(v / qa.scale));
      const a = m.b.addTensor({
        name: 'anchors',
        type: TensorType.UINT8,
        shape: [24, 4],
        data: anchorsQ,
        quantization: { scale: qa.scale, zeroPoint: qa.zeroPoint },
      });
      const outs = [[1, 5, 4], [1, 5], [1, 5], [1]].map((shape, i) => m.b.addTensor({ name: `out${i}`, type: TensorType.FLOAT32, shape }));
      m.b.addOperator({
        op: { custom: 'TFLite_Detection_PostProcess' },
        inputs: [boxes, scores, a],
        outputs: outs,
        customOptions: flexMap({ ...options, use_regular_nms: regular }),
      });
      const bytes = m.build([boxes, scores], outs);
      const cmp = compareWithTflite(bytes, randomInputs(new TfliteOracle(bytes).inputs, 31));
      for (const o of cmp.outputs) if (!o.pass) problems.push(`regular ${regular} output ${o.index}: ${o.mismatches}/${o.elements} differ`);
      expect(new Float32Array(cmp.got[3]!.slice().buffer)[0]).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });

  it('comparisons (rescaled as int8, left shift 8), REDUCE_MAX/MIN, SELECT_V2, HARD_SWISH', () => {
    const problems: string[] = [];
    const comparisons = [Op.EQUAL, Op.NOT_EQUAL, Op.GREATER, Op.GREATER_EQUAL, Op.LESS, Op.LESS_EQUAL];
    comparisons.forEach((op, k) => {
      const m = new Uint8ModelBuilder(rng(980 + k));
      const qa = randomQ(m.next, 0.01, 0.1);
      const qb = k % 2 ? qa : randomQ(m.next, 0.01, 0.1);
      const a = m.act('a', [2, 3, 8], qa);
      const b = m.act('b', [3, 1], qb);
      const y = m.b.addTensor({ name: 'y', type: TensorType.BOOL, shape: [2, 3, 8] });
      m.op(op, [a, b], [y]);
      problems.push(...check(m.build([a, b], [y])).map((p) => `${Op[op]}: ${p}`));
    });
    for (const op of [Op.REDUCE_MAX, Op.REDUCE_MIN]) {
      const m = new Uint8ModelBuilder(rng(990 + op));
      const q0 = randomQ(m.next);
      const x = m.act('x', [2, 5, 6], q0);
      const y = m.act('y', [2, 6], q0);
      m.op(op, [x, m.int32('axes', [1])], [y], { keepDims: false });
      problems.push(...check(m.build([x], [y])).map((p) => `${Op[op]}: ${p}`));
    }
    {
      const m = new Uint8ModelBuilder(rng(995));
      const q0 = randomQ(m.next);
      const c = m.b.addTensor({ name: 'c', type: TensorType.BOOL, shape: [2, 1, 4] });
      const x = m.act('x', [2, 3, 4], q0);
      const yv = m.act('y', [1, 3, 4], q0);
      const out = m.act('out', [2, 3, 4], q0);
      m.op(Op.SELECT_V2, [c, x, yv], [out]);
      problems.push(...check(m.build([c, x, yv], [out])).map((p) => `SELECT_V2: ${p}`));
    }
    for (let seed = 0; seed < 4; seed++) {
      const next = rng(996 + seed);
      const qIn = randomQ(next, 0.01, 0.05);
      problems.push(
        ...check(unaryModel(Op.HARD_SWISH, seed, qIn, randomQ(next, 0.02, 0.05)), 1, [ALL_BYTES]).map((p) => `HARD_SWISH ${seed}: ${p}`),
      );
    }
    expect(problems).toEqual([]);
  });

  it('PAD and PADV2 (pad with the output zero point or the given value), RESHAPE, TRANSPOSE, STRIDED_SLICE', () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 3; seed++) {
      const m = new Uint8ModelBuilder(rng(800 + seed));
      const qx = randomQ(m.next);
      const x = m.act('x', [1, 3, 4, 5], qx);
      const paddings = m.int32('paddings', [0, 0, 1, 2, 2, 0, 0, 1], [4, 2]);
      const p1 = m.act('pad', [1, 6, 6, 6], qx);
      m.op(Op.PAD, [x, paddings], [p1]);
      const value = m.b.addTensor({
        name: 'value',
        type: TensorType.UINT8,
        shape: [],
        data: Uint8Array.of(7 + seed),
        quantization: { scale: qx.scale, zeroPoint: qx.zeroPoint },
      });
      const p2 = m.act('padv2', [1, 6, 6, 6], qx);
      m.op(Op.PADV2, [x, paddings, value], [p2]);
      const r = m.act('reshape', [6, 36], qx);
      m.op(Op.RESHAPE, [p2, m.int32('shape', [6, 36])], [r], { newShape: Int32Array.of(6, 36) });
      const t = m.act('transpose', [36, 6], qx);
      m.op(Op.TRANSPOSE, [r, m.int32('perm', [1, 0])], [t]);
      const sl = m.act('slice', [17, 3], qx);
      m.op(Op.STRIDED_SLICE, [t, m.int32('begin', [1, 0]), m.int32('end', [35, 6]), m.int32('strides', [2, 2])], [sl], {
        beginMask: 0,
        endMask: 0,
      });
      problems.push(...check(m.build([x], [p1, sl])).map((p) => `seed ${seed}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it("LOGISTIC and TANH (TFLite's float-computed 256-entry tables), every input value", () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 8; seed++) {
      const next = rng(400 + seed);
      const qIn = randomQ(next, 0.005, 0.1);
      problems.push(
        ...check(unaryModel(Op.LOGISTIC, seed, qIn, q(1 / 256, seed % 2 ? 0 : 3)), 1, [ALL_BYTES]).map(
          (p) => `LOGISTIC seed ${seed}: ${p}`,
        ),
      );
      problems.push(
        ...check(unaryModel(Op.TANH, seed, qIn, seed % 2 ? q(1 / 128, 128) : randomQ(next, 0.005, 0.01)), 1, [ALL_BYTES]).map(
          (p) => `TANH seed ${seed}: ${p}`,
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  it('RELU, RELU6, LEAKY_RELU (requantizing to the output scale)', () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 8; seed++) {
      const next = rng(500 + seed);
      const qIn = randomQ(next, 0.01, 0.1);
      const qOut = seed % 3 === 0 ? qIn : randomQ(next, 0.01, 0.1);
      problems.push(...check(unaryModel(Op.RELU, seed, qIn, qOut)).map((p) => `RELU seed ${seed}: ${p}`));
      problems.push(...check(unaryModel(Op.RELU6, seed, qIn, qOut)).map((p) => `RELU6 seed ${seed}: ${p}`));
      problems.push(
        ...check(unaryModel(Op.LEAKY_RELU, seed, qIn, qOut, { alpha: 0.05 + next() * 0.5 })).map((p) => `LEAKY_RELU seed ${seed}: ${p}`),
      );
    }
    expect(problems).toEqual([]);
  });

  it.each([
    ['ADD', Op.ADD],
    ['SUB', Op.SUB],
    ['MUL', Op.MUL],
    ['DIV', Op.DIV],
    ['MAXIMUM', Op.MAXIMUM],
    ['MINIMUM', Op.MINIMUM],
  ] as const)('%s: same shapes, broadcasting, fused activations', (_, op) => {
    const problems: string[] = [];
    for (let seed = 0; seed < 6; seed++) {
      const act = [A.NONE, A.RELU, A.RELU6, A.RELU_N1_TO_1][seed % 4]!;
      problems.push(
        ...check(binaryModel(op, [2, 3, 4, 5], [2, 3, 4, 5], [2, 3, 4, 5], 100 * op + seed, act)).map((p) => `seed ${seed} same: ${p}`),
      );
      problems.push(
        ...check(binaryModel(op, [2, 1, 4, 5], [3, 1, 5], [2, 3, 4, 5], 100 * op + seed + 50, act)).map(
          (p) => `seed ${seed} broadcast: ${p}`,
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  it('FULLY_CONNECTED: uint8 → uint8 (activations) and uint8 → int16', () => {
    const problems: string[] = [];
    for (let seed = 0; seed < 4; seed++) {
      problems.push(
        ...check(fcModel(3, 20 + seed, 7, 300 + seed, [A.NONE, A.RELU, A.RELU6, A.RELU_N1_TO_1][seed]!)).map((p) => `seed ${seed}: ${p}`),
      );
    }
    problems.push(...check(fcModel(2, 16, 5, 310, A.NONE, true)).map((p) => `int16 out: ${p}`));
    expect(problems).toEqual([]);
  });

  it.each(CONV_CASES.map((c, i) => [c.name, c, i] as const))('CONV_2D %s', (_, c, i) => {
    expect(check(convModel(c, 10 + i))).toEqual([]);
  });

  it.each(CONV_CASES.map((c, i) => [c.name, c, i] as const))('DEPTHWISE_CONV_2D %s', (_, c, i) => {
    expect(check(convModel({ ...c, depthwise: true, outChannels: c.inShape[3] * (i % 2 === 0 ? 1 : 2) }, 20 + i))).toEqual([]);
  });

  it('the whole TF1 quantized MobileNet v1 0.25 topology (28 conv layers, 96x96 input; 16 classes so the softmax spreads)', () => {
    const bytes = mobilenetV1(11, 0.25, 96, 16);
    const inputs = new TfliteOracle(bytes).inputs;
    for (let s = 0; s < 2; s++) {
      const cmp = compareWithTflite(bytes, randomInputs(inputs, 77 + s));
      expect(cmp.outputs.map((o) => o.mismatches)).toEqual([0]);
      expect(new Set(cmp.got[0]).size).toBeGreaterThan(2);
    }
  });

  it('a TF1-style quantized MobileNet block (CONV_2D → DEPTHWISE_CONV_2D → CONV_2D → AVERAGE_POOL_2D → CONV_2D → RESHAPE → SOFTMAX)', () => {
    for (const seed of [1, 2, 3]) expect(check(mobilenetBlock(seed), 3)).toEqual([]);
  });
});
