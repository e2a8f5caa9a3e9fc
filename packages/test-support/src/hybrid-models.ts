/**
 * Writer-made models of TFLite's hybrid kernels (float32 activations × int8 / uint8 / int4 weights, the
 * converter's dynamic-range quantization), for the tests that compare micrort with TFLite 2.9 (the
 * tfjs-tflite-node oracle) and with LiteRT.js: one op per model, seeded random weights and inputs.
 *
 * Each case says which runtime is its reference: `tflite29` where TFLite 2.9's kernel takes it (and does
 * not hand it to XNNPACK), `litert` for what only current LiteRT runs (per-channel FULLY_CONNECTED and
 * BATCH_MATMUL, int4 weights, hybrid TRANSPOSE_CONV, blockwise weights).
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType, type BuiltinOptionsSpec } from '@micrort/core';

/** One model with its inputs and the runtime it is checked against. */
export interface HybridCase {
  name: string;
  bytes: Uint8Array;
  /** Raw little-endian bytes of each graph input. */
  inputs: Uint8Array[];
  reference: 'tflite29' | 'litert';
  /**
   * Compare only every n-th output element (from 0), with why: where the reference computes the others
   * wrongly (TFLite's hybrid DEPTHWISE_CONV_2D reads a per-channel scale for every channel, past a
   * per-tensor filter's one scale).
   */
  only?: { every: number; why: string };
  /**
   * A LiteRT.js case whose float outputs may also differ by this fraction of the output's largest
   * magnitude: where XNNPACK runs it with its own dynamic quantization (see the LiteRT.js test).
   */
  relativeToMax?: number;
  /** Integer outputs may differ by this much (TFLite's optimized int8 kernels round ties their own way). */
  integerTolerance?: number;
}

/** Weight element types of the hybrid kernels. */
export type HybridWeightType = 'int8' | 'uint8' | 'int4';

/** A seeded generator (mulberry32) of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

const count = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** A ModelBuilder with a seeded generator and helpers for float activations and quantized weights. */
export class HybridBuilder {
  readonly b = new ModelBuilder();
  readonly inputs: number[] = [];
  readonly inputBytes: Uint8Array[] = [];
  readonly next: () => number;

  constructor(seed: number) {
    this.next = seeded(seed);
  }

  /** Random floats in [lo, hi). */
  floats(n: number, lo = -2, hi = 2): Float32Array {
    return Float32Array.from({ length: n }, () => lo + (hi - lo) * this.next());
  }

  /** A float32 graph input with random values (or the given ones). */
  input(name: string, shape: number[], values?: Float32Array): number {
    const t = this.b.addTensor({ name, type: TensorType.FLOAT32, shape });
    this.inputs.push(t);
    const v = values ?? this.floats(count(shape));
    this.inputBytes.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    return t;
  }

  /** A float32 activation (output or intermediate). */
  float(name: string, shape: number[]): number {
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape });
  }

  /** A float32 constant with random values in [lo, hi). */
  floatConst(name: string, shape: number[], lo = -1, hi = 1): number {
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape, data: this.floats(count(shape), lo, hi) });
  }

  /** A float32 variable (state) tensor. */
  state(name: string, shape: number[]): number {
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape, variable: true });
  }

  /**
   * Quantized constant weights: int8 in [-127, 127], uint8 (bytes any value, zero point 128 as the
   * converter's legacy hybrid weights carry it), int4 in [-8, 7] packed two per byte. `scales` is one
   * scale, or one per index of `dimension`.
   */
  weights(name: string, type: HybridWeightType, shape: number[], scales: number | number[], dimension = 0): number {
    const n = count(shape);
    let data: Uint8Array | Int8Array;
    if (type === 'int4') {
      data = new Uint8Array(Math.ceil(n / 2));
      for (let i = 0; i < n; i++) {
        const v = Math.floor(this.next() * 16) - 8;
        data[i >> 1] = data[i >> 1]! | ((v & 15) << (i & 1 ? 4 : 0));
      }
    } else if (type === 'uint8') data = Uint8Array.from({ length: n }, () => Math.floor(this.next() * 256));
    else data = Int8Array.from({ length: n }, () => Math.floor(this.next() * 255) - 127);
    const perChannel = Array.isArray(scales);
    const zero = type === 'uint8' ? 128 : 0;
    return this.b.addTensor({
      name,
      type: type === 'int4' ? TensorType.INT4 : type === 'uint8' ? TensorType.UINT8 : TensorType.INT8,
      shape,
      data,
      quantization: perChannel
        ? { scale: scales, zeroPoint: new Array<number>(scales.length).fill(zero), quantizedDimension: dimension }
        : { scale: scales, zeroPoint: zero },
    });
  }

  /**
   * Blockwise int4 weights [rows, cols] (LiteRT's BlockwiseQuantization, as ai-edge-quantizer writes
   * them): values in [-8, 7] packed two per byte, and a float16 scale tensor [rows, cols / blockSize]
   * with scales in [2^-8, 2^-4). `zeroPoints` names a zero-point tensor to add (all zeros), else none.
   */
  blockwiseWeights(name: string, rows: number, cols: number, blockSize: number, zeroPoints = false): number {
    const blocks = cols / blockSize;
    const half = Uint16Array.from(
      { length: rows * blocks },
      () => ((7 + Math.floor(this.next() * 4)) << 10) | Math.floor(this.next() * 1024),
    );
    const scales = this.b.addTensor({ name: `${name}_scales`, type: TensorType.FLOAT16, shape: [rows, blocks], data: half });
    const zp = zeroPoints
      ? this.b.addTensor({ name: `${name}_zero_points`, type: TensorType.INT8, shape: [rows, blocks], data: new Int8Array(rows * blocks) })
      : -1;
    const n = rows * cols;
    const data = new Uint8Array(Math.ceil(n / 2));
    for (let i = 0; i < n; i++) data[i >> 1] = data[i >> 1]! | ((Math.floor(this.next() * 16) & 15) << (i & 1 ? 4 : 0));
    return this.b.addTensor({
      name,
      type: TensorType.INT4,
      shape: [rows, cols],
      data,
      quantization: { scale: [], details: { kind: 'blockwise', scales, zeroPoints: zp, blockSize } },
    });
  }

  /** Per-channel scales: `n` values spread around `base`. */
  scales(n: number, base = 0.01): number[] {
    return Array.from({ length: n }, () => base * (0.5 + this.next()));
  }

  op(op: BuiltinOperator, inputs: number[], outputs: number[], options?: BuiltinOptionsSpec, version?: number): void {
    this.b.addOperator({ op, inputs, outputs, ...(options ? { options } : {}), ...(version ? { version } : {}) });
  }

  build(name: string, outputs: number[], reference: HybridCase['reference'], only?: HybridCase['only']): HybridCase {
    return {
      name,
      bytes: this.b.setInputs(this.inputs).setOutputs(outputs).build(),
      inputs: this.inputBytes,
      reference,
      ...(only ? { only } : {}),
    };
  }
}

/** A hybrid FULLY_CONNECTED. */
export interface FcSpec {
  batches: number;
  accum: number;
  units: number;
  weights: HybridWeightType;
  perChannel?: boolean;
  asymmetric?: boolean;
  activation?: ActivationFunctionType;
  bias?: boolean;
  /** Zero the first input row (TFLite skips the product of an all-zero input). */
  zeroInput?: boolean;
  /** LiteRT.js hands the node to XNNPACK: compared within XNNPACK_TOLERANCE of the output's range. */
  xnnpack?: boolean;
}

/**
 * How far apart (a fraction of the output's largest magnitude) micrort and LiteRT.js may be where
 * LiteRT.js runs a hybrid node through XNNPACK, which quantizes each input row asymmetrically its own way.
 */
export const XNNPACK_TOLERANCE = 0.02;

export function hybridFullyConnected(s: FcSpec, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const values = s.zeroInput ? new Float32Array(s.batches * s.accum) : undefined;
  const x = m.input('x', [s.batches, s.accum], values);
  const w = m.weights('w', s.weights, [s.units, s.accum], s.perChannel ? m.scales(s.units) : 0.01);
  const inputs = [x, w];
  if (s.bias ?? true) inputs.push(m.floatConst('b', [s.units]));
  const y = m.float('y', [s.batches, s.units]);
  m.op(BuiltinOperator.FULLY_CONNECTED, inputs, [y], {
    fusedActivationFunction: s.activation ?? ActivationFunctionType.NONE,
    asymmetricQuantizeInputs: s.asymmetric ?? false,
  });
  const name = `FULLY_CONNECTED ${s.batches}x${s.accum}→${s.units} ${s.weights}${s.perChannel ? ' per-channel' : ''}${s.asymmetric ? ' asymmetric' : ''}${s.bias === false ? ' no bias' : ''} ${ActivationFunctionType[s.activation ?? 0]}${s.zeroInput ? ' zero input' : ''}${s.xnnpack ? ' (XNNPACK in LiteRT.js)' : ''}`;
  const c = m.build(name, [y], s.perChannel || s.weights === 'int4' ? 'litert' : 'tflite29');
  return s.xnnpack ? { ...c, relativeToMax: XNNPACK_TOLERANCE } : c;
}

/** The FULLY_CONNECTED cases: TFLite 2.9 (per-tensor) and LiteRT.js (per-channel, int4). */
export function hybridFullyConnectedCases(): HybridCase[] {
  const A = ActivationFunctionType;
  const specs: FcSpec[] = [
    { batches: 1, accum: 16, units: 5, weights: 'int8' },
    { batches: 3, accum: 37, units: 8, weights: 'int8', activation: A.RELU },
    { batches: 2, accum: 20, units: 6, weights: 'int8', asymmetric: true, activation: A.RELU6 },
    { batches: 4, accum: 33, units: 7, weights: 'int8', asymmetric: true, bias: false, activation: A.TANH },
    { batches: 2, accum: 24, units: 9, weights: 'uint8', activation: A.RELU_N1_TO_1 },
    { batches: 2, accum: 12, units: 3, weights: 'int8', zeroInput: true, activation: A.RELU },
    // LiteRT.js: a fused TANH or SIGN_BIT keeps XNNPACK from taking the node, so TFLite's own kernel runs.
    // (int4 weights with ≥ 32 columns and ≥ 4 units would take LiteRT's optimized 4-bit path, whose
    // numbers are not the dequantized product; the int4 cases here stay below it.)
    { batches: 2, accum: 32, units: 6, weights: 'int8', perChannel: true, activation: A.TANH },
    { batches: 3, accum: 64, units: 8, weights: 'int8', perChannel: true, asymmetric: true, activation: A.RELU },
    { batches: 2, accum: 20, units: 3, weights: 'int4', perChannel: true, activation: A.TANH },
    { batches: 3, accum: 31, units: 6, weights: 'int4', asymmetric: true, activation: A.TANH },
    { batches: 2, accum: 28, units: 5, weights: 'int4', activation: A.SIGN_BIT },
    // XNNPACK takes these (its own dynamic quantization of the input): close, not equal.
    { batches: 2, accum: 32, units: 6, weights: 'int8', perChannel: true, xnnpack: true },
    { batches: 2, accum: 64, units: 8, weights: 'int4', perChannel: true, xnnpack: true },
  ];
  return specs.map((s, i) => hybridFullyConnected(s, 100 + i));
}

/** Padding and geometry shared by the convolution cases. */
export interface ConvSpec {
  inShape: [number, number, number, number];
  kernel: [number, number];
  channels: number;
  stride?: number;
  dilation?: number;
  padding?: Padding;
  weights: HybridWeightType;
  perChannel?: boolean;
  activation?: ActivationFunctionType;
}

function outSize(size: number, k: number, stride: number, dilation: number, padding: Padding): number {
  const eff = (k - 1) * dilation + 1;
  return padding === Padding.SAME ? Math.ceil(size / stride) : Math.floor((size - eff) / stride) + 1;
}

export function hybridConv2d(s: ConvSpec, seed: number, reference: HybridCase['reference'] = 'tflite29'): HybridCase {
  const m = new HybridBuilder(seed);
  const [n, h, w, cin] = s.inShape;
  const stride = s.stride ?? 1;
  const dil = s.dilation ?? 1;
  const padding = s.padding ?? Padding.SAME;
  const x = m.input('x', [n, h, w, cin]);
  const f = m.weights('f', s.weights, [s.channels, s.kernel[0], s.kernel[1], cin], s.perChannel ? m.scales(s.channels) : 0.01);
  const b = m.floatConst('b', [s.channels]);
  const y = m.float('y', [n, outSize(h, s.kernel[0], stride, dil, padding), outSize(w, s.kernel[1], stride, dil, padding), s.channels]);
  m.op(BuiltinOperator.CONV_2D, [x, f, b], [y], {
    padding,
    strideH: stride,
    strideW: stride,
    dilationHFactor: dil,
    dilationWFactor: dil,
    fusedActivationFunction: s.activation ?? ActivationFunctionType.NONE,
  });
  const name = `CONV_2D ${s.inShape.join('x')} k${s.kernel.join('x')} s${stride} d${dil} ${Padding[padding]} →${s.channels} ${s.weights}${s.perChannel ? ' per-channel' : ''} ${ActivationFunctionType[s.activation ?? 0]}`;
  return m.build(name, [y], reference);
}

export function hybridDepthwise(s: ConvSpec & { multiplier: number }, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const [n, h, w, cin] = s.inShape;
  const stride = s.stride ?? 1;
  const dil = s.dilation ?? 1;
  const padding = s.padding ?? Padding.SAME;
  const cout = cin * s.multiplier;
  const x = m.input('x', [n, h, w, cin]);
  const f = m.weights('f', s.weights, [1, s.kernel[0], s.kernel[1], cout], s.perChannel === false ? 0.01 : m.scales(cout), 3);
  const b = m.floatConst('b', [cout]);
  const y = m.float('y', [n, outSize(h, s.kernel[0], stride, dil, padding), outSize(w, s.kernel[1], stride, dil, padding), cout]);
  m.op(BuiltinOperator.DEPTHWISE_CONV_2D, [x, f, b], [y], {
    padding,
    strideH: stride,
    strideW: stride,
    dilationHFactor: dil,
    dilationWFactor: dil,
    depthMultiplier: s.multiplier,
    fusedActivationFunction: s.activation ?? ActivationFunctionType.NONE,
  });
  const name = `DEPTHWISE_CONV_2D ${s.inShape.join('x')} k${s.kernel.join('x')} s${stride} d${dil} ${Padding[padding]} x${s.multiplier}${s.perChannel === false ? ' per-tensor' : ''} ${ActivationFunctionType[s.activation ?? 0]}`;
  const only = s.perChannel === false ? { every: cout, why: "TFLite reads a scale per channel past the filter's one scale" } : undefined;
  return m.build(name, [y], 'tflite29', only);
}

/** The CONV_2D and DEPTHWISE_CONV_2D cases. */
export function hybridConvCases(): HybridCase[] {
  const A = ActivationFunctionType;
  return [
    hybridConv2d({ inShape: [1, 5, 5, 3], kernel: [3, 3], channels: 4, weights: 'int8', activation: A.RELU }, 200),
    hybridConv2d({ inShape: [2, 6, 7, 4], kernel: [1, 1], channels: 5, weights: 'int8' }, 201),
    hybridConv2d({ inShape: [1, 9, 8, 3], kernel: [3, 2], channels: 6, stride: 2, padding: Padding.VALID, weights: 'uint8' }, 202),
    hybridConv2d({ inShape: [1, 8, 8, 2], kernel: [3, 3], channels: 4, dilation: 2, weights: 'int8', activation: A.RELU6 }, 203),
    hybridConv2d({ inShape: [2, 5, 5, 3], kernel: [3, 3], channels: 4, weights: 'int8', perChannel: true }, 204),
    hybridConv2d({ inShape: [1, 7, 6, 3], kernel: [2, 3], channels: 5, stride: 2, dilation: 2, weights: 'int8', perChannel: true }, 205),
    hybridConv2d({ inShape: [1, 5, 5, 4], kernel: [3, 3], channels: 3, weights: 'int4', perChannel: true }, 206, 'litert'),
    hybridDepthwise({ inShape: [1, 5, 5, 3], kernel: [3, 3], channels: 0, multiplier: 1, weights: 'int8' }, 210),
    hybridDepthwise({ inShape: [2, 6, 5, 2], kernel: [3, 3], channels: 0, multiplier: 2, weights: 'int8', activation: A.RELU }, 211),
    hybridDepthwise(
      { inShape: [1, 9, 9, 3], kernel: [3, 3], channels: 0, multiplier: 1, stride: 2, padding: Padding.VALID, weights: 'int8' },
      212,
    ),
    hybridDepthwise({ inShape: [1, 8, 7, 2], kernel: [2, 3], channels: 0, multiplier: 3, dilation: 2, weights: 'int8' }, 213),
    hybridDepthwise({ inShape: [1, 6, 6, 4], kernel: [3, 3], channels: 0, multiplier: 1, weights: 'int8', perChannel: false }, 214),
  ];
}

/** A hybrid EMBEDDING_LOOKUP: int32 ids (a graph input) into a quantized table, float32 output. */
export function hybridEmbeddingLookup(
  ids: number[],
  rows: number,
  columns: number[],
  weights: HybridWeightType,
  perRow: boolean,
  seed: number,
): HybridCase {
  const m = new HybridBuilder(seed);
  const t = m.b.addTensor({ name: 'ids', type: TensorType.INT32, shape: [ids.length] });
  m.inputs.push(t);
  m.inputBytes.push(new Uint8Array(Int32Array.from(ids).buffer));
  const table = m.weights('table', weights, [rows, ...columns], perRow ? m.scales(rows, 0.05) : 0.05);
  const y = m.float('y', [ids.length, ...columns]);
  m.op(BuiltinOperator.EMBEDDING_LOOKUP, [t, table], [y]);
  const name = `EMBEDDING_LOOKUP ${ids.length} of ${rows}x${columns.join('x')} ${weights}${perRow ? ' per-row' : ''}`;
  return m.build(name, [y], perRow || weights === 'int4' ? 'litert' : 'tflite29');
}

/** The hybrid EMBEDDING_LOOKUP cases. */
export function embeddingCases(): HybridCase[] {
  return [
    hybridEmbeddingLookup([3, 0, 3, 5], 6, [4], 'uint8', false, 700),
    hybridEmbeddingLookup([1, 2], 3, [2, 5], 'int8', false, 701),
    hybridEmbeddingLookup([4, 0, 2], 5, [6], 'int8', true, 702),
    hybridEmbeddingLookup([2, 1, 2], 3, [8], 'int4', false, 703),
    hybridEmbeddingLookup([0, 3], 4, [2, 3], 'int4', true, 704),
  ];
}

/**
 * DEQUANTIZE of a per-channel quantized tensor (a graph input, int8/uint8) or of constant int4
 * weights (per tensor or per channel).
 */
export function dequantizeCase(
  type: 'int8' | 'int16' | 'uint8' | 'int4',
  shape: number[],
  dimension: number | null,
  seed: number,
): HybridCase {
  const m = new HybridBuilder(seed);
  const n = count(shape);
  const channels = dimension === null ? 1 : shape[dimension]!;
  const scales = dimension === null ? 0.03 : m.scales(channels, 0.03);
  let x: number;
  if (type === 'int4') x = m.weights('x', 'int4', shape, scales, dimension ?? 0);
  else {
    const zero = (c: number) => (type === 'uint8' ? 120 + c : c - 2);
    const tt = type === 'int8' ? TensorType.INT8 : TensorType.UINT8;
    x = m.b.addTensor({
      name: 'x',
      type: tt,
      shape,
      quantization: Array.isArray(scales)
        ? { scale: scales, zeroPoint: scales.map((_, c) => zero(c)), quantizedDimension: dimension! }
        : { scale: scales, zeroPoint: zero(0) },
    });
    m.inputs.push(x);
    const bytes = Uint8Array.from({ length: n }, () => Math.floor(m.next() * 256));
    m.inputBytes.push(bytes);
  }
  const y = m.float('y', shape);
  m.op(BuiltinOperator.DEQUANTIZE, [x], [y]);
  const name = `DEQUANTIZE ${type} [${shape.join(',')}]${dimension === null ? '' : ` per-channel along ${dimension}`}`;
  if (type !== 'int4') return m.build(name, [y], 'tflite29');
  // A model without inputs returns zeros in LiteRT.js: the weights are added to a float input.
  const a = m.input('a', shape);
  const z = m.float('z', shape);
  m.op(BuiltinOperator.ADD, [y, a], [z]);
  return m.build(`${name} + float input`, [z], 'litert');
}

/** The per-channel and int4 DEQUANTIZE cases. */
export function dequantizeCases(): HybridCase[] {
  return [
    dequantizeCase('int8', [3, 4], 0, 800),
    dequantizeCase('int8', [2, 5, 3], 1, 801),
    dequantizeCase('uint8', [4, 2, 3], 2, 802),
    dequantizeCase('int4', [3, 6], null, 804),
    dequantizeCase('int4', [4, 2, 2], 0, 805),
  ];
}

/** A hybrid SVDF: float32 input and state, int8/uint8 feature and time weights. */
export interface SvdfSpec {
  batch: number;
  input: number;
  units: number;
  rank: number;
  memory: number;
  weights: 'int8' | 'uint8';
  asymmetric?: boolean;
  bias?: boolean;
  activation?: ActivationFunctionType;
}

export function hybridSvdf(s: SvdfSpec, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const filters = s.units * s.rank;
  const x = m.input('x', [s.batch, s.input]);
  const wf = m.weights('weights_feature', s.weights, [filters, s.input], 0.02);
  const wt = m.weights('weights_time', s.weights, [filters, s.memory], 0.03);
  const bias = s.bias === false ? -1 : m.floatConst('bias', [s.units]);
  const state = m.state('state', [s.batch, s.memory * filters]);
  const y = m.float('y', [s.batch, s.units]);
  m.op(BuiltinOperator.SVDF, [x, wf, wt, bias, state], [y], {
    rank: s.rank,
    fusedActivationFunction: s.activation ?? ActivationFunctionType.NONE,
    asymmetricQuantizeInputs: s.asymmetric ?? false,
  });
  const name = `SVDF ${s.batch}x${s.input} units ${s.units} rank ${s.rank} memory ${s.memory} ${s.weights}${s.asymmetric ? ' asymmetric' : ''}${s.bias === false ? ' no bias' : ''} ${ActivationFunctionType[s.activation ?? 0]}`;
  return m.build(name, [y], 'tflite29');
}

/** The hybrid SVDF cases (TFLite 2.9). */
export function svdfCases(): HybridCase[] {
  const A = ActivationFunctionType;
  return [
    hybridSvdf({ batch: 2, input: 3, units: 4, rank: 1, memory: 5, weights: 'int8', activation: A.RELU }, 600),
    hybridSvdf({ batch: 3, input: 8, units: 3, rank: 2, memory: 4, weights: 'int8', asymmetric: true }, 601),
    hybridSvdf({ batch: 1, input: 10, units: 5, rank: 2, memory: 3, weights: 'uint8', bias: false, activation: A.TANH }, 602),
  ];
}

/** A hybrid TRANSPOSE_CONV (current LiteRT): float32 input, int8 filter [Cout, KH, KW, Cin]. */
export interface TransposeSpec {
  inShape: [number, number, number, number];
  kernel: [number, number];
  channels: number;
  stride: number;
  padding: Padding;
  perChannel?: boolean;
  bias?: boolean;
  activation?: ActivationFunctionType;
}

export function hybridTransposeConv(s: TransposeSpec, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const [n, h, w, cin] = s.inShape;
  const outH = s.padding === Padding.SAME ? h * s.stride : (h - 1) * s.stride + s.kernel[0];
  const outW = s.padding === Padding.SAME ? w * s.stride : (w - 1) * s.stride + s.kernel[1];
  const outShape = [n, outH, outW, s.channels];
  const shape = m.b.addTensor({ name: 'output_shape', type: TensorType.INT32, shape: [4], data: Int32Array.from(outShape) });
  const f = m.weights('f', 'int8', [s.channels, s.kernel[0], s.kernel[1], cin], s.perChannel ? m.scales(s.channels) : 0.01);
  const x = m.input('x', [n, h, w, cin]);
  const bias = s.bias ? m.floatConst('b', [s.channels]) : -1;
  const y = m.float('y', outShape);
  m.op(BuiltinOperator.TRANSPOSE_CONV, [shape, f, x, bias], [y], {
    padding: s.padding,
    strideH: s.stride,
    strideW: s.stride,
    fusedActivationFunction: s.activation ?? ActivationFunctionType.NONE,
  });
  const name = `TRANSPOSE_CONV ${s.inShape.join('x')} k${s.kernel.join('x')} s${s.stride} ${Padding[s.padding]} →${s.channels}${s.perChannel ? ' per-channel' : ''}${s.bias ? ' bias' : ''} ${ActivationFunctionType[s.activation ?? 0]}`;
  return m.build(name, [y], 'litert');
}

/** The hybrid TRANSPOSE_CONV cases. */
export function transposeConvCases(): HybridCase[] {
  return [
    hybridTransposeConv({ inShape: [1, 3, 3, 2], kernel: [3, 3], channels: 4, stride: 2, padding: Padding.SAME }, 500),
    hybridTransposeConv(
      { inShape: [2, 3, 4, 3], kernel: [2, 3], channels: 3, stride: 1, padding: Padding.VALID, perChannel: true, bias: true },
      501,
    ),
    hybridTransposeConv(
      {
        inShape: [1, 4, 3, 2],
        kernel: [3, 3],
        channels: 5,
        stride: 2,
        padding: Padding.SAME,
        perChannel: true,
        activation: ActivationFunctionType.RELU,
      },
      502,
    ),
  ];
}

/** A hybrid BATCH_MATMUL: float32 LHS × constant int8 RHS. */
export interface MatmulSpec {
  lhs: number[];
  rhs: number[];
  adjX?: boolean;
  adjY?: boolean;
  perChannel?: boolean;
  asymmetric?: boolean;
  /** LiteRT.js hands the node to XNNPACK: compared within XNNPACK_TOLERANCE of the output's range. */
  xnnpack?: boolean;
}

export function hybridBatchMatmul(s: MatmulSpec, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const lr = s.lhs.length;
  const rr = s.rhs.length;
  const rows = s.adjX ? s.lhs[lr - 1]! : s.lhs[lr - 2]!;
  const cols = s.adjY ? s.rhs[rr - 2]! : s.rhs[rr - 1]!;
  const rank = Math.max(lr, rr);
  const l = [...new Array<number>(rank - lr).fill(1), ...s.lhs];
  const r = [...new Array<number>(rank - rr).fill(1), ...s.rhs];
  const batch = l.slice(0, rank - 2).map((d, i) => (d === 1 ? r[i]! : d));
  const x = m.input('lhs', s.lhs);
  const w = m.weights('rhs', 'int8', s.rhs, s.perChannel ? m.scales(cols) : 0.01, s.adjY ? rr - 2 : rr - 1);
  const y = m.float('y', [...batch, rows, cols]);
  m.op(BuiltinOperator.BATCH_MATMUL, [x, w], [y], {
    adjX: s.adjX ?? false,
    adjY: s.adjY ?? false,
    asymmetricQuantizeInputs: s.asymmetric ?? false,
  });
  const name = `BATCH_MATMUL [${s.lhs.join(',')}]${s.adjX ? 'ᵀ' : ''} × int8 [${s.rhs.join(',')}]${s.adjY ? 'ᵀ' : ''}${s.perChannel ? ' per-channel' : ''}${s.asymmetric ? ' asymmetric' : ''}${s.xnnpack ? ' (XNNPACK in LiteRT.js)' : ''}`;
  const c = m.build(name, [y], s.perChannel ? 'litert' : 'tflite29');
  return s.xnnpack ? { ...c, relativeToMax: XNNPACK_TOLERANCE } : c;
}

/** The hybrid BATCH_MATMUL cases, and int16 × int8 (a16w8, LiteRT only). */
export function batchMatmulCases(): HybridCase[] {
  const cases = [
    hybridBatchMatmul({ lhs: [2, 3, 5], rhs: [2, 5, 4] }, 400),
    hybridBatchMatmul({ lhs: [2, 3, 5], rhs: [5, 4], asymmetric: true }, 401),
    hybridBatchMatmul({ lhs: [1, 2, 4, 6], rhs: [3, 1, 6, 2] }, 402),
    hybridBatchMatmul({ lhs: [2, 6, 3], rhs: [2, 4, 6], adjX: true, adjY: true, asymmetric: true }, 403),
    // LiteRT.js hands symmetric hybrid BATCH_MATMUL to XNNPACK: per-channel symmetric has no TFLite-kernel
    // reference there (it composes the per-tensor symmetric path, exact against 2.9, and the per-channel
    // scales, exact against LiteRT.js with asymmetric inputs).
    hybridBatchMatmul({ lhs: [3, 7], rhs: [7, 5], perChannel: true, xnnpack: true }, 404),
    hybridBatchMatmul({ lhs: [2, 7, 3], rhs: [2, 7, 5], adjX: true, perChannel: true, xnnpack: true }, 406),
    hybridBatchMatmul({ lhs: [2, 3, 8], rhs: [6, 8], adjY: true, perChannel: true, asymmetric: true }, 405),
  ];
  // int16 × int8 → int16, zero points 0 (TFLite requires them), as the a16w8 quantizer writes it.
  for (const [seed, lhsShape, rhsShape] of [
    [410, [2, 3, 5], [2, 5, 4]],
    [411, [1, 4, 16], [16, 3]],
  ] as const) {
    const m = new HybridBuilder(seed);
    const x = m.b.addTensor({ name: 'lhs', type: TensorType.INT16, shape: [...lhsShape], quantization: { scale: 1 / 1024, zeroPoint: 0 } });
    m.inputs.push(x);
    const lhs = Int16Array.from({ length: count(lhsShape) }, () => Math.floor(m.next() * 65536) - 32768);
    m.inputBytes.push(new Uint8Array(lhs.buffer));
    const rhs = m.b.addTensor({
      name: 'rhs',
      type: TensorType.INT8,
      shape: [...rhsShape],
      data: Int8Array.from({ length: count(rhsShape) }, () => Math.floor(m.next() * 255) - 127),
      quantization: { scale: 0.01, zeroPoint: 0 },
    });
    const outShape = [...lhsShape.slice(0, -1), rhsShape[rhsShape.length - 1]!];
    const y = m.b.addTensor({ name: 'y', type: TensorType.INT16, shape: outShape, quantization: { scale: 1 / 256, zeroPoint: 0 } });
    m.op(BuiltinOperator.BATCH_MATMUL, [x, rhs], [y], { adjX: false, adjY: false });
    cases.push(m.build(`BATCH_MATMUL int16 [${lhsShape.join(',')}] × int8 [${rhsShape.join(',')}] → int16`, [y], 'litert'));
  }
  return cases;
}

/**
 * int8 activations × int4 weights (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED; per-channel symmetric
 * weights, int32 bias, int8 output), which only current LiteRT runs. LiteRT.js runs them through TFLite's
 * optimized int8 kernels, whose requantization rounds some ties differently from the reference kernels
 * micrort follows: integer outputs may differ by 1.
 */
export function int4IntegerCases(): HybridCase[] {
  const cases: HybridCase[] = [];
  const int8 = (m: HybridBuilder, name: string, shape: number[], scale: number, zeroPoint: number, input: boolean) => {
    const t = m.b.addTensor({ name, type: TensorType.INT8, shape, quantization: { scale, zeroPoint } });
    if (input) {
      m.inputs.push(t);
      m.inputBytes.push(Uint8Array.from({ length: count(shape) }, () => Math.floor(m.next() * 256)));
    }
    return t;
  };
  const bias = (m: HybridBuilder, n: number, inScale: number, scales: number[]) =>
    m.b.addTensor({
      name: 'b',
      type: TensorType.INT32,
      shape: [n],
      data: Int32Array.from({ length: n }, () => Math.floor(m.next() * 400) - 200),
      quantization: { scale: scales.map((s) => Math.fround(inScale * s)), zeroPoint: new Array<number>(n).fill(0) },
    });
  {
    const m = new HybridBuilder(300);
    const x = int8(m, 'x', [1, 6, 6, 3], 0.05, -3, true);
    const sc = m.scales(4, 0.05);
    const f = m.weights('f', 'int4', [4, 3, 3, 3], sc, 0);
    const y = int8(m, 'y', [1, 6, 6, 4], 0.1, 2, false);
    m.op(BuiltinOperator.CONV_2D, [x, f, bias(m, 4, 0.05, sc)], [y], { padding: Padding.SAME, strideH: 1, strideW: 1 });
    cases.push({ ...m.build('CONV_2D int8 × int4 per-channel 1x6x6x3 k3x3 →4', [y], 'litert'), integerTolerance: 1 });
  }
  {
    const m = new HybridBuilder(301);
    const x = int8(m, 'x', [1, 6, 5, 4], 0.05, 1, true);
    const sc = m.scales(8, 0.05);
    const f = m.weights('f', 'int4', [1, 3, 3, 8], sc, 3);
    const y = int8(m, 'y', [1, 6, 5, 8], 0.08, -1, false);
    m.op(BuiltinOperator.DEPTHWISE_CONV_2D, [x, f, bias(m, 8, 0.05, sc)], [y], {
      padding: Padding.SAME,
      strideH: 1,
      strideW: 1,
      depthMultiplier: 2,
    });
    cases.push({ ...m.build('DEPTHWISE_CONV_2D int8 × int4 per-channel 1x6x5x4 k3x3 x2', [y], 'litert'), integerTolerance: 1 });
  }
  {
    const m = new HybridBuilder(302);
    const x = int8(m, 'x', [3, 20], 0.05, -2, true);
    const sc = m.scales(6, 0.05);
    const f = m.weights('f', 'int4', [6, 20], sc, 0);
    const y = int8(m, 'y', [3, 6], 0.1, 0, false);
    m.op(BuiltinOperator.FULLY_CONNECTED, [x, f, bias(m, 6, 0.05, sc)], [y], {});
    cases.push({ ...m.build('FULLY_CONNECTED int8 × int4 per-channel 3x20→6', [y], 'litert'), integerTolerance: 1 });
  }
  return cases;
}

/** A FULLY_CONNECTED with blockwise int4 weights (float32 input, bias and output). */
export function blockwiseFullyConnected(
  batches: number,
  accum: number,
  units: number,
  blockSize: number,
  seed: number,
  activation = ActivationFunctionType.NONE,
  zeroPoints = false,
): HybridCase {
  const m = new HybridBuilder(seed);
  const x = m.input('x', [batches, accum]);
  const w = m.blockwiseWeights('w', units, accum, blockSize, zeroPoints);
  const y = m.float('y', [batches, units]);
  m.op(BuiltinOperator.FULLY_CONNECTED, [x, w, m.floatConst('b', [units])], [y], { fusedActivationFunction: activation });
  const name = `FULLY_CONNECTED ${batches}x${accum}→${units} blockwise int4 block ${blockSize} ${ActivationFunctionType[activation]}${zeroPoints ? ' zero points' : ''} (XNNPACK in LiteRT.js)`;
  return { ...m.build(name, [y], 'litert'), relativeToMax: XNNPACK_TOLERANCE };
}

/** An EMBEDDING_LOOKUP into a blockwise int4 table, float32 output. */
export function blockwiseEmbeddingLookup(ids: number[], rows: number, cols: number, blockSize: number, seed: number): HybridCase {
  const m = new HybridBuilder(seed);
  const t = m.b.addTensor({ name: 'ids', type: TensorType.INT32, shape: [ids.length] });
  m.inputs.push(t);
  m.inputBytes.push(new Uint8Array(Int32Array.from(ids).buffer));
  const table = m.blockwiseWeights('table', rows, cols, blockSize);
  const y = m.float('y', [ids.length, cols]);
  m.op(BuiltinOperator.EMBEDDING_LOOKUP, [t, table], [y]);
  return m.build(`EMBEDDING_LOOKUP ${ids.length} of ${rows}x${cols} blockwise int4 block ${blockSize}`, [y], 'litert');
}

/** The blockwise cases (LiteRT.js): FULLY_CONNECTED and EMBEDDING_LOOKUP. */
export function blockwiseCases(): HybridCase[] {
  return [
    blockwiseFullyConnected(2, 64, 6, 32, 900),
    blockwiseFullyConnected(3, 128, 5, 32, 901, ActivationFunctionType.RELU),
    blockwiseFullyConnected(1, 96, 4, 32, 902, ActivationFunctionType.NONE, true),
    blockwiseEmbeddingLookup([3, 0, 3, 1], 4, 64, 32, 903),
    blockwiseEmbeddingLookup([1, 2], 3, 32, 16, 904),
  ];
}

/** Every case whose reference is LiteRT.js. */
export function hybridLiteRtCases(): HybridCase[] {
  return [
    ...hybridFullyConnectedCases(),
    ...hybridConvCases(),
    ...transposeConvCases(),
    ...batchMatmulCases(),
    ...embeddingCases(),
    ...dequantizeCases(),
    ...int4IntegerCases(),
    ...blockwiseCases(),
  ].filter((c) => c.reference === 'litert');
}
