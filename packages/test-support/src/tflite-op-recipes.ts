/**
 * A single-op model recipe for every op of TFLite's BuiltinOpResolver (tflite-op-set.ts): given one of
 * the op's type combinations, {@link buildRecipe} writes a small valid `.tflite` of that op — shapes,
 * options, constant auxiliary inputs (axes, shapes, paddings, indices with in-range values),
 * quantization parameters where TFLite's kernel checks them — with `ModelBuilder`, through
 * {@link RecipeBuilder}. Every recipe whose op and types TFLite 2.9 has runs in TFLite 2.9's C library
 * (tflite-op-set.test.ts checks it), so a model that micrort refuses is micrort's gap, not the recipe's.
 *
 * Conventions: inputs are positional as in the kernel (`combo.inputs[k]` is input k's type, `null` an
 * omitted optional input); data inputs are graph inputs with deterministic values, auxiliary inputs
 * are constants; quantized tensors get {@link defaultQuant} unless the kernel wants particular
 * parameters (LOGISTIC's 1/256 output, int8 weights with zero point 0, int32/int64 biases at
 * input × weight scale…).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  MirrorPadMode,
  Padding,
  TensorType,
  type QuantizationSpec,
  type RawOptionField,
} from '@micrort/core';
import {
  RecipeBuilder,
  defaultQuant,
  isQuantizedType,
  tensorTypeOf,
  type DType,
  type RecipeIo,
  type RecipeModel,
} from './tflite-recipe-builder.js';
import { flexMap, type FlexEntry as FlexValue } from './flexbuffers.js';
import type { TfliteOp, TypeCombo } from './tflite-op-set.js';

/** Builds the model of one op for one type combination. */
export type Recipe = (r: RecipeBuilder, c: TypeCombo) => void;

const B = BuiltinOperator;
type Q = QuantizationSpec;

/** Input k's type (throws on an omitted input: recipes ask only for inputs they use). */
function ti(c: TypeCombo, k: number): DType {
  const t = c.inputs[k];
  if (!t) throw new Error(`input ${k} is omitted in this combination`);
  return t;
}
const to = (c: TypeCombo, k = 0): DType => c.outputs[k]!;
const present = (c: TypeCombo, k: number): boolean => c.inputs.length > k && c.inputs[k] !== null;

/** Quantization of a tensor of type t: the given one for quantized types, none for the others. */
const qIf = (t: DType, q: Q | undefined): { q: Q | null } => ({ q: isQuantizedType(t) ? (q ?? defaultQuant(t) ?? null) : null });

/** Weight quantization: symmetric (zero point 0) for int8/int4/int16, 128 for uint8. */
function weightQuant(t: DType, channels = 0, dim = 0): Q | undefined {
  if (t === 'uint8') return { scale: 0.02, zeroPoint: 128 };
  if (t !== 'int8' && t !== 'int4' && t !== 'int16') return undefined;
  const s = t === 'int4' ? 0.1 : 0.02;
  if (channels === 0) return { scale: s, zeroPoint: 0 };
  return {
    scale: Array.from({ length: channels }, (_, i) => s * (1 + i / 8)),
    zeroPoint: new Array<number>(channels).fill(0),
    quantizedDimension: dim,
  };
}

/** A bias of type t for an input of quantization `inQ` and weights `wQ`: scale in × w, zero point 0. */
function biasQuant(inQ: Q | undefined, wQ: Q | undefined): Q | undefined {
  if (!inQ || !wQ) return undefined;
  const si = inQ.scale as number;
  const sw = wQ.scale;
  if (typeof sw === 'number') return { scale: si * sw, zeroPoint: 0 };
  const scales = Array.from(sw, (s) => si * s);
  return { scale: scales, zeroPoint: new Array<number>(scales.length).fill(0), quantizedDimension: 0 };
}

/** A bias (or other float-or-integer constant) of type t. */
function biasRange(t: DType): [number, number] {
  return t === 'float32' ? [-1, 1] : [-200, 200];
}

// ---------------------------------------------------------------------------------------------------
// Generic shapes of recipes.

interface UnaryOptions {
  shape?: number[];
  /** Output quantization by output type. */
  outQ?: (t: DType) => Q | undefined;
  inQ?: (t: DType) => Q | undefined;
  range?: (t: DType) => [number, number] | undefined;
  options?: object;
  rawOptions?: RawOptionField[];
}

/** One input, one output of the input's shape. */
function unary(op: BuiltinOperator, o: UnaryOptions = {}): Recipe {
  return (r, c) => {
    const shape = o.shape ?? [1, 2, 3, 4];
    const t = ti(c, 0);
    const range = o.range?.(t);
    const x = r.input(t, shape, { ...qIf(t, o.inQ?.(t)), ...(range ? { range } : {}) });
    const y = r.output(to(c), shape, qIf(to(c), o.outQ?.(to(c))));
    r.target({
      op,
      inputs: [x],
      outputs: [y],
      ...(o.options ? { options: o.options } : {}),
      ...(o.rawOptions ? { rawOptions: o.rawOptions } : {}),
    });
  };
}

interface BinaryOptions {
  /** Shapes of the two inputs and the output (default: [2,3] and [3] broadcast to [2,3]). */
  shapes?: [number[], number[], number[]];
  outQ?: (t: DType) => Q | undefined;
  /** Quantization of the second input by type (default: {@link defaultQuant} with another scale). */
  q2?: (t: DType) => Q | undefined;
  q1?: (t: DType) => Q | undefined;
  range2?: (t: DType) => [number, number] | undefined;
  range1?: (t: DType) => [number, number] | undefined;
  options?: object;
}

const otherQuant = (t: DType): Q | undefined =>
  t === 'int8'
    ? { scale: 0.04, zeroPoint: -2 }
    : t === 'uint8'
      ? { scale: 0.04, zeroPoint: 120 }
      : t === 'int16'
        ? { scale: 1 / 2048, zeroPoint: 0 }
        : undefined;

/** Two inputs (broadcast), one output. */
function binary(op: BuiltinOperator, o: BinaryOptions = {}): Recipe {
  return (r, c) => {
    const [s1, s2, so] = o.shapes ?? [[2, 3], [3], [2, 3]];
    const t1 = ti(c, 0);
    const t2 = ti(c, 1);
    const r1 = o.range1?.(t1);
    const r2 = o.range2?.(t2);
    const a = r.input(t1, s1, { ...qIf(t1, o.q1?.(t1)), ...(r1 ? { range: r1 } : {}) });
    const b = r.input(t2, s2, { ...qIf(t2, o.q2 ? o.q2(t2) : otherQuant(t2)), ...(r2 ? { range: r2 } : {}) });
    const y = r.output(to(c), so, qIf(to(c), o.outQ?.(to(c)) ?? (to(c) === 'int8' ? { scale: 0.1, zeroPoint: -1 } : undefined)));
    r.target({ op, inputs: [a, b], outputs: [y], ...(o.options ? { options: o.options } : {}) });
  };
}

/** Integer values that are never zero (divisors). */
const nonZero = (t: DType): [number, number] | undefined =>
  t === 'int32' || t === 'int64' || t === 'int16' || t === 'int8' ? [1, 9] : t === 'float32' ? [0.5, 2] : undefined;

/** An int32/int64 (or other index-typed) constant. */
function ints(r: RecipeBuilder, t: DType, values: number[], shape: number[] = [values.length]): number {
  return r.constant(t, shape, { values, q: null });
}

/** A scalar constant of type t. */
function scalar(r: RecipeBuilder, t: DType, value: number, shape: number[] = []): number {
  return r.constant(t, shape, { values: [value], ...qIf(t, undefined) });
}

// ---------------------------------------------------------------------------------------------------
// Quantization conventions of particular kernels.

const LOGISTIC_OUT = (t: DType): Q | undefined =>
  t === 'int8'
    ? { scale: 1 / 256, zeroPoint: -128 }
    : t === 'uint8'
      ? { scale: 1 / 256, zeroPoint: 0 }
      : t === 'int16'
        ? { scale: 1 / 32768, zeroPoint: 0 }
        : undefined;
const TANH_OUT = (t: DType): Q | undefined =>
  t === 'int8'
    ? { scale: 1 / 128, zeroPoint: 0 }
    : t === 'uint8'
      ? { scale: 1 / 128, zeroPoint: 128 }
      : t === 'int16'
        ? { scale: 1 / 32768, zeroPoint: 0 }
        : undefined;

// ---------------------------------------------------------------------------------------------------
// Convolutions, fully connected, matmul.

/** Input, filter, bias types → quantization of each (per-channel int8/int4 filters; hybrid float × int). */
function convQuants(c: TypeCombo, channels: number, filterDim: number): { inQ?: Q; wQ?: Q; bQ?: Q; outQ?: Q } {
  const tin = ti(c, 0);
  const tw = ti(c, 1);
  const inQ = isQuantizedType(tin) ? defaultQuant(tin) : undefined;
  // int8/int4 filters per channel (as the converter writes them); uint8 per tensor.
  const wQ = isQuantizedType(tw) ? weightQuant(tw, tw === 'uint8' ? 0 : channels, filterDim) : undefined;
  const bQ = inQ ? biasQuant(inQ, wQ) : undefined;
  const outQ = isQuantizedType(to(c))
    ? to(c) === 'int16'
      ? { scale: 1 / 512, zeroPoint: 0 }
      : { scale: 0.1, zeroPoint: to(c) === 'uint8' ? 120 : -1 }
    : undefined;
  return { ...(inQ ? { inQ } : {}), ...(wQ ? { wQ } : {}), ...(bQ ? { bQ } : {}), ...(outQ ? { outQ } : {}) };
}

const conv2d: Recipe = (r, c) => {
  const q = convQuants(c, 3, 0);
  const x = r.input(ti(c, 0), [1, 5, 5, 2], { q: q.inQ ?? null });
  const w = r.constant(ti(c, 1), [3, 3, 3, 2], { q: q.wQ ?? null });
  // Without a bias the operator has 2 inputs (TFLite's conv.cc counts them; a -1 third input is refused).
  const bias = present(c, 2) ? [r.constant(ti(c, 2), [3], { q: q.bQ ?? null, range: biasRange(ti(c, 2)) })] : [];
  const y = r.output(to(c), [1, 5, 5, 3], { q: q.outQ ?? null });
  r.target({
    op: B.CONV_2D,
    inputs: [x, w, ...bias],
    outputs: [y],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: ActivationFunctionType.NONE },
  });
};

const depthwise: Recipe = (r, c) => {
  const q = convQuants(c, 4, 3);
  const x = r.input(ti(c, 0), [1, 5, 5, 2], { q: q.inQ ?? null });
  const w = r.constant(ti(c, 1), [1, 3, 3, 4], { q: q.wQ ?? null });
  const bias = present(c, 2) ? [r.constant(ti(c, 2), [4], { q: q.bQ ?? null, range: biasRange(ti(c, 2)) })] : [];
  const y = r.output(to(c), [1, 5, 5, 4], { q: q.outQ ?? null });
  r.target({
    op: B.DEPTHWISE_CONV_2D,
    inputs: [x, w, ...bias],
    outputs: [y],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, depthMultiplier: 2 },
  });
};

const fullyConnected: Recipe = (r, c) => {
  const q = convQuants(c, 3, 0);
  // uint8 FC and hybrid FC are per tensor in TFLite's uint8 path; per-channel int8 as the converter writes.
  const x = r.input(ti(c, 0), [2, 8], { q: q.inQ ?? null });
  const w = r.constant(ti(c, 1), [3, 8], { q: q.wQ ?? null });
  const bias = present(c, 2) ? r.constant(ti(c, 2), [3], { q: q.bQ ?? null, range: biasRange(ti(c, 2)) }) : -1;
  const y = r.output(to(c), [2, 3], { q: q.outQ ?? null });
  r.target({ op: B.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [y], options: { keepNumDims: false } });
};

const transposeConv: Recipe = (r, c) => {
  // Inputs: output_shape, weights [out_c, h, w, in_c], input, bias (optional).
  const tin = ti(c, 2);
  const tw = ti(c, 1);
  const inQ = isQuantizedType(tin) ? defaultQuant(tin) : undefined;
  const wQ = isQuantizedType(tw) ? weightQuant(tw, tw === 'uint8' ? 0 : 3, 0) : undefined;
  const shape = ints(r, ti(c, 0), [1, 4, 4, 3]);
  const w = r.constant(tw, [3, 3, 3, 2], { q: wQ ?? null });
  const x = r.input(tin, [1, 2, 2, 2], { q: inQ ?? null });
  const bias = present(c, 3) ? r.constant(ti(c, 3), [3], { q: biasQuant(inQ, wQ) ?? null, range: biasRange(ti(c, 3)) }) : -1;
  const outQ = isQuantizedType(to(c))
    ? to(c) === 'int16'
      ? { scale: 1 / 512, zeroPoint: 0 }
      : { scale: 0.1, zeroPoint: to(c) === 'uint8' ? 120 : -1 }
    : null;
  const y = r.output(to(c), [1, 4, 4, 3], { q: outQ });
  r.target({ op: B.TRANSPOSE_CONV, inputs: [shape, w, x, bias], outputs: [y], options: { padding: Padding.SAME, strideW: 2, strideH: 2 } });
};

const batchMatmul: Recipe = (r, c) => {
  const t1 = ti(c, 0);
  const t2 = ti(c, 1);
  const hybrid = t1 === 'float32' && t2 !== 'float32';
  const a = r.input(t1, [2, 2, 3], qIf(t1, undefined));
  const b = hybrid
    ? r.constant(t2, [2, 3, 4], { q: weightQuant(t2) ?? null })
    : r.input(t2, [2, 3, 4], qIf(t2, t2 === 'int8' || t2 === 'int16' ? { scale: 0.02, zeroPoint: 0 } : undefined));
  const outQ = to(c) === 'int8' ? { scale: 0.2, zeroPoint: 0 } : to(c) === 'int16' ? { scale: 1 / 256, zeroPoint: 0 } : undefined;
  const y = r.output(to(c), [2, 2, 4], qIf(to(c), outQ));
  r.target({ op: B.BATCH_MATMUL, inputs: [a, b], outputs: [y] });
};

/** Conv3DOptions: padding, stride d/w/h, activation, dilation d/w/h (schema slots 0–7). */
const CONV3D_OPTIONS: RawOptionField[] = [
  { id: 0, type: 'int8', value: Padding.SAME },
  { id: 1, type: 'int32', value: 1 },
  { id: 2, type: 'int32', value: 1 },
  { id: 3, type: 'int32', value: 1 },
  { id: 4, type: 'int8', value: 0 },
  { id: 5, type: 'int32', value: 1 },
  { id: 6, type: 'int32', value: 1 },
  { id: 7, type: 'int32', value: 1 },
];

const conv3d: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [1, 3, 4, 4, 2]);
  const w = r.constant(ti(c, 1), [2, 2, 2, 2, 3], { q: weightQuant(ti(c, 1)) ?? null });
  const bias = present(c, 2) ? r.constant(ti(c, 2), [3]) : -1;
  const y = r.output(to(c), [1, 3, 4, 4, 3]);
  r.target({ op: B.CONV_3D, inputs: [x, w, bias], outputs: [y], rawOptions: CONV3D_OPTIONS });
};

const conv3dTranspose: Recipe = (r, c) => {
  // Filter [d, h, w, out, in]; conv3d_transpose.cc checks the bias against the filter's last dimension, so in = out here.
  const shape = ints(r, ti(c, 0), [1, 3, 4, 4, 3]);
  const w = r.constant(ti(c, 1), [2, 2, 2, 3, 3]);
  const x = r.input(ti(c, 2), [1, 3, 4, 4, 3]);
  const bias = present(c, 3) ? r.constant(ti(c, 3), [3]) : -1;
  const y = r.output(to(c), [1, 3, 4, 4, 3]);
  r.target({ op: B.CONV_3D_TRANSPOSE, inputs: [shape, w, x, bias], outputs: [y], rawOptions: CONV3D_OPTIONS });
};

// ---------------------------------------------------------------------------------------------------
// Recurrent ops.

/** Float × int hybrid weights: the weights' type, quantized symmetric (uint8 asymmetric). */
function weights(r: RecipeBuilder, t: DType, shape: number[]): number {
  return r.constant(t, shape, {
    q: isQuantizedType(t) ? (weightQuant(t) ?? null) : null,
    range: t === 'float32' ? [-0.5, 0.5] : undefined,
  });
}

const svdf: Recipe = (r, c) => {
  // batch 2, input 3, units 2, rank 1 (filters 2), memory 4.
  const integer = ti(c, 0) === 'int8';
  const x = r.input(ti(c, 0), [2, 3], qIf(ti(c, 0), undefined));
  const wf = weights(r, ti(c, 1), [2, 3]);
  const wt = r.constant(ti(c, 2), [2, 4], {
    q: ti(c, 2) === 'int16' ? { scale: 1 / 4096, zeroPoint: 0 } : isQuantizedType(ti(c, 2)) ? (weightQuant(ti(c, 2)) ?? null) : null,
  });
  // The integer bias is at state scale × time-weights scale, as the converter writes it (TFLM checks it; TFLite does not).
  const bias = present(c, 3)
    ? r.constant(ti(c, 3), [2], { q: integer ? { scale: (1 / 4096) * (1 / 4096), zeroPoint: 0 } : null, range: biasRange(ti(c, 3)) })
    : -1;
  const state = r.tensor(ti(c, 4), [2, 8], { variable: true, q: integer ? { scale: 1 / 4096, zeroPoint: 0 } : null });
  const y = r.output(to(c), [2, 2], qIf(to(c), integer ? { scale: 0.1, zeroPoint: 0 } : undefined));
  r.target({
    op: B.SVDF,
    inputs: [x, wf, wt, bias, state],
    outputs: [y],
    options: { rank: 1, fusedActivationFunction: ActivationFunctionType.RELU },
  });
};

const rnn: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const w = weights(r, ti(c, 1), [4, 3]);
  const rw = weights(r, ti(c, 2), [4, 4]);
  const bias = r.constant(ti(c, 3), [4]);
  const h = r.tensor(ti(c, 4), [2, 4], { variable: true });
  const y = r.output(to(c), [2, 4]);
  r.target({
    op: B.RNN,
    inputs: [x, w, rw, bias, h],
    outputs: [y],
    rawOptions: [{ id: 0, type: 'int8', value: ActivationFunctionType.TANH }],
  });
};

const sequenceRnn: Recipe = (r, c) => {
  // Batch-major [batch 2, time 3, input 3].
  const x = r.input(ti(c, 0), [2, 3, 3]);
  const w = weights(r, ti(c, 1), [4, 3]);
  const rw = weights(r, ti(c, 2), [4, 4]);
  const bias = r.constant(ti(c, 3), [4]);
  const h = r.tensor(ti(c, 4), [2, 4], { variable: true });
  const y = r.output(to(c), [2, 3, 4]);
  r.target({
    op: B.UNIDIRECTIONAL_SEQUENCE_RNN,
    inputs: [x, w, rw, bias, h],
    outputs: [y],
    rawOptions: [
      { id: 0, type: 'bool', value: false },
      { id: 1, type: 'int8', value: ActivationFunctionType.TANH },
    ],
  });
};

const bidiRnn: Recipe = (r, c) => {
  // Time-major [time 3, batch 2, input 3]; forward and backward weights; outputs not merged.
  const x = r.input(ti(c, 0), [3, 2, 3]);
  const side = (k: number) => [
    weights(r, ti(c, k), [4, 3]),
    weights(r, ti(c, k + 1), [4, 4]),
    r.constant(ti(c, k + 2), [4]),
    r.tensor(ti(c, k + 3), [2, 4], { variable: true }),
  ];
  const fw = side(1);
  const bw = side(5);
  const yf = r.output(to(c, 0), [3, 2, 4]);
  const yb = r.output(to(c, 1), [3, 2, 4]);
  r.target({
    op: B.BIDIRECTIONAL_SEQUENCE_RNN,
    inputs: [x, ...fw, ...bw, -1, -1, -1],
    outputs: [yf, yb],
    rawOptions: [
      { id: 0, type: 'bool', value: true },
      { id: 1, type: 'int8', value: ActivationFunctionType.TANH },
      { id: 2, type: 'bool', value: false },
    ],
  });
};

/**
 * The 24 inputs of an LSTM cell (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM): input, 4 input weights, 4
 * recurrent weights, no peepholes, 4 gate biases, no projection, output and cell state (variables),
 * no layer norm. `c.inputs[1]` is the weights' type, `c.inputs[12]` the biases', `c.inputs[18]` and
 * `[19]` the states'.
 */
function lstmInputs(
  r: RecipeBuilder,
  c: TypeCombo,
  xShape: number[],
  batch: number,
  q?: { x: Q; w: Q; bias: Q; out: Q; cell: Q },
): number[] {
  const nInput = xShape[xShape.length - 1]!;
  const nCell = 4;
  const x = r.input(ti(c, 0), xShape, { q: q?.x ?? null });
  const w = (k: number, cols: number) =>
    present(c, k)
      ? r.constant(ti(c, k), [nCell, cols], {
          q: q?.w ?? (isQuantizedType(ti(c, k)) ? (weightQuant(ti(c, k)) ?? null) : null),
          range: ti(c, k) === 'float32' ? [-0.5, 0.5] : undefined,
        })
      : -1;
  const inputWeights = [1, 2, 3, 4].map((k) => w(k, nInput));
  const recurrentWeights = [5, 6, 7, 8].map((k) => w(k, nCell));
  const biases = [12, 13, 14, 15].map((k) =>
    present(c, k) ? r.constant(ti(c, k), [nCell], { q: q?.bias ?? null, range: biasRange(ti(c, k)) }) : -1,
  );
  const outState = r.tensor(ti(c, 18), [batch, nCell], { variable: true, q: q?.out ?? null });
  const cellState = r.tensor(ti(c, 19), [batch, nCell], { variable: true, q: q?.cell ?? null });
  return [x, ...inputWeights, ...recurrentWeights, -1, -1, -1, ...biases, -1, -1, outState, cellState, -1, -1, -1, -1];
}

/** Quantization of the integer (int8 × int8, int16 cell) LSTM, and its 5 intermediate tensors. */
function integerLstm(r: RecipeBuilder): { q: { x: Q; w: Q; bias: Q; out: Q; cell: Q }; intermediates: number[] } {
  const q = {
    x: { scale: 0.05, zeroPoint: 0 },
    w: { scale: 0.02, zeroPoint: 0 },
    bias: { scale: 0.001, zeroPoint: 0 },
    out: { scale: 1 / 128, zeroPoint: 0 },
    cell: { scale: 1 / 2048, zeroPoint: 0 },
  };
  // input/forget/cell/output gate intermediates (int16) and the hidden state before projection (int8).
  const intermediates = [0, 1, 2, 3].map(() => r.tensor('int16', [], { q: { scale: 1 / 4096, zeroPoint: 0 } }));
  intermediates.push(r.tensor('int8', [], { q: { scale: 1 / 128, zeroPoint: 0 } }));
  return { q, intermediates };
}

const lstm: Recipe = (r, c) => {
  if (c.inputs.length === 5) {
    // The basic kernel (LSTMOptions.kernel_type BASIC): uint8 input/state, concatenated weights.
    const x = r.input('uint8', [2, 3], { q: { scale: 1 / 128, zeroPoint: 128 } });
    const prevOut = r.input('uint8', [2, 4], { q: { scale: 1 / 128, zeroPoint: 128 } });
    const w = r.constant('uint8', [16, 7], { q: { scale: 0.02, zeroPoint: 128 } });
    const bias = r.constant('int32', [16], { q: { scale: (1 / 128) * 0.02, zeroPoint: 0 }, range: [-200, 200] });
    const prevCell = r.input('int16', [2, 4], { q: { scale: 1 / 2048, zeroPoint: 0 } });
    const out = r.output('uint8', [2, 4], { q: { scale: 1 / 128, zeroPoint: 128 } });
    const cell = r.output('int16', [2, 4], { q: { scale: 1 / 2048, zeroPoint: 0 } });
    const concat = r.output('uint8', [2, 7], { q: { scale: 1 / 128, zeroPoint: 128 } });
    const act = r.output('int16', [2, 16], { q: { scale: 1 / 4096, zeroPoint: 0 } });
    r.target({
      op: B.LSTM,
      version: 2,
      inputs: [x, prevOut, w, bias, prevCell],
      outputs: [out, cell, concat, act],
      rawOptions: [
        { id: 0, type: 'int8', value: ActivationFunctionType.TANH },
        { id: 3, type: 'int8', value: 1 },
      ],
    });
    return;
  }
  const integer = ti(c, 0) === 'int8';
  const il = integer ? integerLstm(r) : undefined;
  const inputs = lstmInputs(r, c, [2, 3], 2, il?.q);
  const y = r.output(to(c), [2, 4], { q: il ? il.q.out : null });
  r.target({
    op: B.LSTM,
    inputs,
    outputs: [y],
    ...(il ? { intermediates: il.intermediates } : {}),
    rawOptions: [{ id: 0, type: 'int8', value: ActivationFunctionType.TANH }],
  });
};

const sequenceLstm: Recipe = (r, c) => {
  const integer = ti(c, 0) === 'int8';
  const il = integer ? integerLstm(r) : undefined;
  // Batch-major [batch 2, time 3, input 3].
  const inputs = lstmInputs(r, c, [2, 3, 3], 2, il?.q);
  const y = r.output(to(c), [2, 3, 4], { q: il ? il.q.out : null });
  r.target({
    op: B.UNIDIRECTIONAL_SEQUENCE_LSTM,
    inputs,
    outputs: [y],
    ...(il ? { intermediates: il.intermediates } : {}),
    options: { fusedActivationFunction: ActivationFunctionType.TANH, timeMajor: false },
  });
};

const bidiLstm: Recipe = (r, c) => {
  // Time-major [time 3, batch 2, input 3]; 48 inputs: fw cell 1–17, bw cell 18–34, states 35–38, no aux input.
  const x = r.input(ti(c, 0), [3, 2, 3]);
  const cell = (first: number) => {
    const w = (k: number, cols: number) =>
      r.constant(ti(c, first + k), [4, cols], {
        q: isQuantizedType(ti(c, first + k)) ? (weightQuant(ti(c, first + k)) ?? null) : null,
        range: ti(c, first + k) === 'float32' ? [-0.5, 0.5] : undefined,
      });
    const inputWeights = [0, 1, 2, 3].map((k) => w(k, 3));
    const recurrentWeights = [4, 5, 6, 7].map((k) => w(k, 4));
    const biases = [11, 12, 13, 14].map((k) => r.constant(ti(c, first + k), [4]));
    return [...inputWeights, ...recurrentWeights, -1, -1, -1, ...biases, -1, -1];
  };
  const fw = cell(1);
  const bw = cell(18);
  const states = [35, 36, 37, 38].map((k) => r.tensor(ti(c, k), [2, 4], { variable: true }));
  const yf = r.output(to(c, 0), [3, 2, 4]);
  const yb = r.output(to(c, 1), [3, 2, 4]);
  r.target({
    op: B.BIDIRECTIONAL_SEQUENCE_LSTM,
    inputs: [x, ...fw, ...bw, ...states, -1, -1, -1, -1, -1, -1, -1, -1, -1],
    outputs: [yf, yb],
    rawOptions: [
      { id: 0, type: 'int8', value: ActivationFunctionType.TANH },
      { id: 3, type: 'bool', value: false },
      { id: 4, type: 'bool', value: true },
    ],
  });
};

// ---------------------------------------------------------------------------------------------------
// Shape and data-movement ops.

const reshape: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = r.input(t, [2, 3]);
  const shape = present(c, 1) ? ints(r, ti(c, 1), [3, 2]) : -1;
  const y = r.output(to(c), [3, 2], qIf(to(c), undefined));
  r.target({ op: B.RESHAPE, inputs: shape >= 0 ? [x, shape] : [x], outputs: [y], options: { newShape: Int32Array.from([3, 2]) } });
};

/** Data op with one data input and constant integer auxiliary inputs given by `aux(r, c)`. */
function dataOp(
  op: BuiltinOperator,
  inShape: number[],
  outShape: number[],
  aux: (r: RecipeBuilder, c: TypeCombo) => number[],
  o: { options?: object; rawOptions?: RawOptionField[] } = {},
): Recipe {
  return (r, c) => {
    const t = ti(c, 0);
    const x = r.input(t, inShape);
    const rest = aux(r, c);
    const y = r.output(to(c), outShape);
    r.target({
      op,
      inputs: [x, ...rest],
      outputs: [y],
      ...(o.options ? { options: o.options } : {}),
      ...(o.rawOptions ? { rawOptions: o.rawOptions } : {}),
    });
  };
}

const gather: Recipe = (r, c) => {
  // String params must be 1-D (gather.cc); int4 params move as bytes, so their rows hold an even count.
  const strings = ti(c, 0) === 'string';
  const row = ti(c, 0) === 'int4' ? 2 : 3;
  const x = r.input(ti(c, 0), strings ? [4] : [4, row]);
  const idx = ints(r, ti(c, 1), [3, 0, 2]);
  const y = r.output(to(c), strings ? [3] : [3, row]);
  r.target({ op: B.GATHER, inputs: [x, idx], outputs: [y], options: { axis: 0, batchDims: 0 } });
};

const gatherNd: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [3, 2, 2]);
  const idx = ints(r, ti(c, 1), [2, 1, 0, 0], [2, 2]);
  const y = r.output(to(c), [2, 2]);
  r.target({ op: B.GATHER_ND, inputs: [x, idx], outputs: [y] });
};

const strideSlice: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [3, 4]);
  const it = ti(c, 1);
  const y = r.output(to(c), [2, 2]);
  r.target({ op: B.STRIDED_SLICE, inputs: [x, ints(r, it, [1, 0]), ints(r, it, [3, 4]), ints(r, it, [1, 2])], outputs: [y] });
};

const slice: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [3, 4]);
  const y = r.output(to(c), [2, 2]);
  r.target({ op: B.SLICE, inputs: [x, ints(r, ti(c, 1), [1, 1]), ints(r, ti(c, 2), [2, 2])], outputs: [y] });
};

const concat: Recipe = (r, c) => {
  const t = ti(c, 0);
  const a = r.input(t, [2, 2]);
  const b = r.input(ti(c, 1), [2, 3]);
  const y = r.output(to(c), [2, 5]);
  r.target({ op: B.CONCATENATION, inputs: [a, b], outputs: [y], options: { axis: 1 } });
};

const pack: Recipe = (r, c) => {
  const a = r.input(ti(c, 0), [2, 3]);
  const b = r.input(ti(c, 1), [2, 3]);
  const y = r.output(to(c), [2, 2, 3]);
  r.target({ op: B.PACK, inputs: [a, b], outputs: [y], options: { valuesCount: 2, axis: 0 } });
};

const unpack: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const ys = c.outputs.map((t) => r.output(t, [3]));
  r.target({ op: B.UNPACK, inputs: [x], outputs: ys, options: { num: 2, axis: 0 } });
};

const split: Recipe = (r, c) => {
  const axis = ints(r, ti(c, 0), [1], []);
  const x = r.input(ti(c, 1), [2, 4]);
  const ys = c.outputs.map((t) => r.output(t, [2, 2]));
  r.target({ op: B.SPLIT, inputs: [axis, x], outputs: ys, options: { numSplits: 2 } });
};

const splitV: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 5]);
  const sizes = ints(r, ti(c, 1), [2, 3]);
  const axis = ints(r, ti(c, 2), [1], []);
  const ys = [r.output(to(c, 0), [2, 2]), r.output(to(c, 1), [2, 3])];
  r.target({ op: B.SPLIT_V, inputs: [x, sizes, axis], outputs: ys, options: { numSplits: 2 } });
};

const spaceToBatch: Recipe = dataOp(B.SPACE_TO_BATCH_ND, [1, 4, 4, 1], [4, 2, 2, 1], (r, c) => [
  ints(r, ti(c, 1), [2, 2]),
  ints(r, ti(c, 2), [0, 0, 0, 0], [2, 2]),
]);
const batchToSpace: Recipe = dataOp(B.BATCH_TO_SPACE_ND, [4, 2, 2, 1], [1, 4, 4, 1], (r, c) => [
  ints(r, ti(c, 1), [2, 2]),
  ints(r, ti(c, 2), [0, 0, 0, 0], [2, 2]),
]);
const transpose: Recipe = dataOp(B.TRANSPOSE, [2, 3, 4], [4, 2, 3], (r, c) => [ints(r, ti(c, 1), [2, 0, 1])]);
const pad: Recipe = dataOp(B.PAD, [2, 3], [4, 4], (r, c) => [ints(r, ti(c, 1), [1, 1, 0, 1], [2, 2])]);
const padV2: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = r.input(t, [2, 3]);
  const pads = ints(r, ti(c, 1), [1, 1, 0, 1], [2, 2]);
  const value = r.constant(ti(c, 2), [], { values: [0], ...qIf(ti(c, 2), undefined) });
  const y = r.output(to(c), [4, 4]);
  r.target({ op: B.PADV2, inputs: [x, pads, value], outputs: [y] });
};
const mirrorPad: Recipe = dataOp(B.MIRROR_PAD, [3, 3], [5, 4], (r, c) => [ints(r, ti(c, 1), [1, 1, 0, 1], [2, 2])], {
  options: { mode: MirrorPadMode.REFLECT },
});
const tile: Recipe = dataOp(B.TILE, [2, 3], [4, 3], (r, c) => [ints(r, ti(c, 1), [2, 1])]);
const expandDims: Recipe = dataOp(B.EXPAND_DIMS, [2, 3], [2, 1, 3], (r, c) => [ints(r, ti(c, 1), [1], [])]);
const broadcastTo: Recipe = dataOp(B.BROADCAST_TO, [1, 3], [2, 3], (r, c) => [ints(r, ti(c, 1), [2, 3])]);
const reverseV2: Recipe = dataOp(B.REVERSE_V2, [2, 3], [2, 3], (r, c) => [ints(r, ti(c, 1), [1])]);
const squeeze: Recipe = dataOp(B.SQUEEZE, [2, 1, 3], [2, 3], () => [], { options: { squeezeDims: Int32Array.from([1]) } });
const spaceToDepth: Recipe = dataOp(B.SPACE_TO_DEPTH, [1, 4, 4, 1], [1, 2, 2, 4], () => [], { options: { blockSize: 2 } });
const depthToSpace: Recipe = dataOp(B.DEPTH_TO_SPACE, [1, 2, 2, 4], [1, 4, 4, 1], () => [], { options: { blockSize: 2 } });
const resizeBilinear: Recipe = dataOp(B.RESIZE_BILINEAR, [1, 2, 2, 1], [1, 4, 4, 1], (r, c) => [ints(r, ti(c, 1), [4, 4])]);
const resizeNearest: Recipe = dataOp(B.RESIZE_NEAREST_NEIGHBOR, [1, 2, 2, 1], [1, 4, 4, 1], (r, c) => [ints(r, ti(c, 1), [4, 4])]);
const reverseSequence: Recipe = dataOp(B.REVERSE_SEQUENCE, [2, 3], [2, 3], (r, c) => [ints(r, ti(c, 1), [2, 3])], {
  rawOptions: [
    { id: 0, type: 'int32', value: 1 },
    { id: 1, type: 'int32', value: 0 },
  ],
});
const matrixDiag: Recipe = dataOp(B.MATRIX_DIAG, [2, 3], [2, 3, 3], () => []);
const matrixSetDiag: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3, 3]);
  const d = r.input(ti(c, 1), [2, 3]);
  const y = r.output(to(c), [2, 3, 3]);
  r.target({ op: B.MATRIX_SET_DIAG, inputs: [x, d], outputs: [y] });
};

const dynamicUpdateSlice: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [3, 4]);
  const u = r.input(ti(c, 1), [2, 2]);
  const start = ints(r, ti(c, 2), [1, 1]);
  const y = r.output(to(c), [3, 4]);
  r.target({ op: B.DYNAMIC_UPDATE_SLICE, inputs: [x, u, start], outputs: [y] });
};

const shapeOp: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const y = r.output(to(c), [2]);
  r.target({ op: B.SHAPE, inputs: [x], outputs: [y], rawOptions: [{ id: 0, type: 'int8', value: tensorTypeOf(to(c)) }] });
};

const rank: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const y = r.output(to(c), []);
  r.target({ op: B.RANK, inputs: [x], outputs: [y] });
};

const fill: Recipe = (r, c) => {
  const dims = ints(r, ti(c, 0), [2, 3]);
  const value = r.input(ti(c, 1), [], { ...qIf(ti(c, 1), undefined) });
  const y = r.output(to(c), [2, 3]);
  r.target({ op: B.FILL, inputs: [dims, value], outputs: [y] });
};

const zerosLike: Recipe = unary(B.ZEROS_LIKE, { shape: [2, 3] });

const oneHot: Recipe = (r, c) => {
  const idx = r.input(ti(c, 0), [3], { range: [0, 3] });
  const depth = ints(r, ti(c, 1), [4], []);
  const on = scalar(r, ti(c, 2), 1);
  const off = scalar(r, ti(c, 3), 0);
  const y = r.output(to(c), [3, 4]);
  r.target({ op: B.ONE_HOT, inputs: [idx, depth, on, off], outputs: [y], rawOptions: [{ id: 0, type: 'int32', value: -1 }] });
};

const range: Recipe = (r, c) => {
  const t = ti(c, 0);
  const start = scalar(r, t, 1);
  const limit = scalar(r, ti(c, 1), 7);
  const delta = scalar(r, ti(c, 2), 2);
  const y = r.output(to(c), [3]);
  r.target({ op: B.RANGE, inputs: [start, limit, delta], outputs: [y] });
};

const cast: Recipe = (r, c) => {
  const t = ti(c, 0);
  // Floats cast to an unsigned type stay where C++ defines the result (a truncated value the type holds).
  const unsigned = to(c) === 'uint8' || to(c) === 'uint16' || to(c) === 'uint32';
  const range: [number, number] = unsigned ? [-0.9, 3] : [-3, 3];
  const x = r.input(t, [2, 3], { q: null, ...(t === 'float32' ? { range } : {}) });
  const y = r.output(to(c), [2, 3], { q: null });
  r.target({ op: B.CAST, inputs: [x], outputs: [y], options: { inDataType: tensorTypeOf(t), outDataType: tensorTypeOf(to(c)) } });
};

const quantize: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = r.input(t, [2, 3], qIf(t, t === 'int16' ? { scale: 1 / 4096, zeroPoint: 0 } : undefined));
  const outQ =
    to(c) === 'int16'
      ? { scale: 1 / 2048, zeroPoint: 0 }
      : to(c) === 'int8'
        ? { scale: 0.06, zeroPoint: -4 }
        : to(c) === 'int32'
          ? { scale: 1 / 65536, zeroPoint: 0 }
          : { scale: 0.06, zeroPoint: 120 };
  const y = r.output(to(c), [2, 3], { q: outQ });
  r.target({ op: B.QUANTIZE, inputs: [x], outputs: [y] });
};

const dequantize: Recipe = (r, c) => {
  const t = ti(c, 0);
  // float16 and int4 weights are constants (as the converter writes them); the others graph inputs.
  const x = t === 'float16' || t === 'int4' ? r.constant(t, [2, 3], qIf(t, undefined)) : r.input(t, [2, 3], qIf(t, undefined));
  const y = r.output(to(c), [2, 3]);
  r.target({ op: B.DEQUANTIZE, inputs: [x], outputs: [y] });
};

const argMinMax =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const x = r.input(ti(c, 0), [2, 4]);
    const axis = ints(r, ti(c, 1), [1]);
    const y = r.output(to(c), [2]);
    r.target({ op, inputs: [x, axis], outputs: [y], options: { outputType: tensorTypeOf(to(c)) } });
  };

/** A reduction over axis 1 of [2, 3, 2] → [2, 2]. */
const reduce =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const t = ti(c, 0);
    const x = r.input(
      t,
      [2, 3, 2],
      t === 'float32' && op === B.REDUCE_PROD ? { range: [0.5, 1.5] } : t === 'int32' || t === 'int64' ? { range: [-4, 4] } : {},
    );
    const axis = ints(r, ti(c, 1), [1]);
    // REDUCE_MAX/MIN (and int16 SUM) take only the input's quantization on their output (reduce.cc).
    const sameQ = op === B.REDUCE_MAX || op === B.REDUCE_MIN || (op === B.SUM && t === 'int16');
    const outQ = sameQ
      ? defaultQuant(to(c))
      : to(c) === 'int8'
        ? { scale: 0.08, zeroPoint: 1 }
        : to(c) === 'int16'
          ? { scale: 1 / 1024, zeroPoint: 0 }
          : undefined;
    const y = r.output(to(c), [2, 2], qIf(to(c), outQ));
    r.target({ op, inputs: [x, axis], outputs: [y], options: { keepDims: false } });
  };

const select =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const cond = r.input(ti(c, 0), [2, 3]);
    const a = r.input(ti(c, 1), [2, 3]);
    const b = r.input(ti(c, 2), [2, 3]);
    const y = r.output(to(c), [2, 3]);
    r.target({ op, inputs: [cond, a, b], outputs: [y] });
  };

const where: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const y = r.output(to(c), [6, 2]);
  r.target({ op: B.WHERE, inputs: [x], outputs: [y] });
};

const unique: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [6], { values: [1, 3, 1, 2, 3, 0], q: null });
  const y = r.output(to(c, 0), [6], { q: null });
  const idx = r.output(to(c, 1), [6]);
  r.target({ op: B.UNIQUE, inputs: [x], outputs: [y, idx], rawOptions: [{ id: 0, type: 'int8', value: tensorTypeOf(to(c, 1)) }] });
};

const topk: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 5]);
  const k = ints(r, ti(c, 1), [2], []);
  const v = r.output(to(c, 0), [2, 2]);
  const i = r.output(to(c, 1), [2, 2]);
  r.target({ op: B.TOPK_V2, inputs: [x, k], outputs: [v, i] });
};

const cumsum: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3]);
  const axis = ints(r, ti(c, 1), [1], []);
  const y = r.output(to(c), [2, 3]);
  r.target({ op: B.CUMSUM, inputs: [x, axis], outputs: [y] });
};

const segmentSum: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [4, 2]);
  const ids = ints(r, ti(c, 1), [0, 0, 1, 2]);
  const y = r.output(to(c), [3, 2]);
  r.target({ op: B.SEGMENT_SUM, inputs: [x, ids], outputs: [y] });
};

const unsortedSegment =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const x = r.input(ti(c, 0), [4, 2], ti(c, 0) === 'int32' ? { range: [-4, 4] } : {});
    const ids = ints(r, ti(c, 1), [0, 2, 1, 0]);
    const n = ints(r, ti(c, 2), [3], []);
    const y = r.output(to(c), [3, 2]);
    r.target({ op, inputs: [x, ids, n], outputs: [y] });
  };

const scatterNd: Recipe = (r, c) => {
  const idx = ints(r, ti(c, 0), [0, 2], [2, 1]);
  const upd = r.input(ti(c, 1), [2, 3]);
  const shape = ints(r, ti(c, 2), [4, 3]);
  const y = r.output(to(c), [4, 3]);
  r.target({ op: B.SCATTER_ND, inputs: [idx, upd, shape], outputs: [y] });
};

const sparseToDense: Recipe = (r, c) => {
  const idx = ints(r, ti(c, 0), [0, 1, 2, 0], [2, 2]);
  const shape = ints(r, ti(c, 1), [3, 3]);
  const values = r.input(ti(c, 2), [2]);
  const dflt = r.constant(ti(c, 3), [], { values: [0], q: null });
  const y = r.output(to(c), [3, 3]);
  r.target({ op: B.SPARSE_TO_DENSE, inputs: [idx, shape, values, dflt], outputs: [y] });
};

const broadcastArgs: Recipe = (r, c) => {
  const a = ints(r, ti(c, 0), [2, 1]);
  const b = ints(r, ti(c, 1), [1, 3]);
  const y = r.output(to(c), [2]);
  r.target({ op: B.BROADCAST_ARGS, inputs: [a, b], outputs: [y] });
};

const bucketize: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [2, 3], { range: ti(c, 0) === 'int32' || ti(c, 0) === 'int64' ? [-3, 3] : [-2, 2] });
  const y = r.output(to(c), [2, 3]);
  r.target({ op: B.BUCKETIZE, inputs: [x], outputs: [y], rawOptions: [{ id: 0, type: 'float32[]', value: [-1, 0, 1] }] });
};

const bitcast: Recipe = (r, c) => {
  const a = ti(c, 0);
  const b = to(c);
  const sa = encodeSize(a);
  const sb = encodeSize(b);
  const inShape = sa >= sb ? [3] : [3, sb / sa];
  const outShape = sa > sb ? [3, sa / sb] : [3];
  const x = r.input(a, inShape, { q: null });
  const y = r.output(b, outShape, { q: null });
  r.target({ op: B.BITCAST, inputs: [x], outputs: [y] });
};
function encodeSize(t: DType): number {
  return (
    { float32: 4, float16: 2, float64: 8, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, bool: 1 }[
      t as string
    ] ?? 4
  );
}

const shiftOrXor =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const t = ti(c, 0);
    const bits = { int8: 7, uint8: 7, int16: 15, uint16: 15, int32: 31, uint32: 31 }[t as string] ?? 7;
    const a = r.input(t, [2, 3], { q: null });
    const b = r.input(ti(c, 1), [2, 3], { q: null, range: op === B.RIGHT_SHIFT ? [0, bits] : undefined });
    const y = r.output(to(c), [2, 3], { q: null });
    r.target({ op, inputs: [a, b], outputs: [y] });
  };

// ---------------------------------------------------------------------------------------------------
// Control flow and resources.

/** IF: the condition selects between two subgraphs that add 1 to, or subtract 1 from, their input… or pass it on, for types without arithmetic. */
const ifOp: Recipe = (r, c) => {
  const t = ti(c, 1);
  const cond = r.input('bool', [], { values: [1] });
  const x = r.input(t, [2]);
  const y = r.output(to(c), [2]);
  r.target({ op: B.IF, inputs: [cond, x], outputs: [y], options: { thenSubgraphIndex: 1, elseSubgraphIndex: 2 } });
  for (let k = 0; k < 2; k++) {
    r.b.addSubgraph(k === 0 ? 'then' : 'else');
    const i = r.b.addTensor({
      name: 'x',
      type: tensorTypeOf(t),
      shape: [2],
      ...(defaultQuant(t) ? { quantization: defaultQuant(t) } : {}),
    });
    const o = r.b.addTensor({
      name: 'y',
      type: tensorTypeOf(t),
      shape: [2],
      ...(defaultQuant(t) ? { quantization: defaultQuant(t) } : {}),
    });
    r.b.addOperator({ op: B.RESHAPE, inputs: [i], outputs: [o], options: { newShape: Int32Array.from([2]) } });
    r.b.setInputs([i]).setOutputs([o]);
  }
  r.b.selectSubgraph(0);
};

/** WHILE: a counter (int32) counts to 3; the second loop variable (type under test) is passed through. */
const whileOp: Recipe = (r, c) => {
  const t = ti(c, 1);
  const i0 = r.input('int32', [], { values: [0] });
  const x = r.input(t, [2]);
  const yi = r.output('int32', []);
  const yx = r.output(to(c, 1), [2]);
  r.target({ op: B.WHILE, inputs: [i0, x], outputs: [yi, yx], options: { condSubgraphIndex: 1, bodySubgraphIndex: 2 } });
  const q = defaultQuant(t);
  // cond: i < 3
  r.b.addSubgraph('cond');
  let ci = r.b.addTensor({ name: 'i', type: TensorType.INT32, shape: [] });
  const cx = r.b.addTensor({ name: 'x', type: tensorTypeOf(t), shape: [2], ...(q ? { quantization: q } : {}) });
  const three = r.b.addTensor({ name: 'three', type: TensorType.INT32, shape: [], data: Int32Array.from([3]) });
  const lt = r.b.addTensor({ name: 'lt', type: TensorType.BOOL, shape: [] });
  r.b.addOperator({ op: B.LESS, inputs: [ci, three], outputs: [lt] });
  r.b.setInputs([ci, cx]).setOutputs([lt]);
  // body: i + 1, x passed through
  r.b.addSubgraph('body');
  ci = r.b.addTensor({ name: 'i', type: TensorType.INT32, shape: [] });
  const bx = r.b.addTensor({ name: 'x', type: tensorTypeOf(t), shape: [2], ...(q ? { quantization: q } : {}) });
  const one = r.b.addTensor({ name: 'one', type: TensorType.INT32, shape: [], data: Int32Array.from([1]) });
  const next = r.b.addTensor({ name: 'next', type: TensorType.INT32, shape: [] });
  r.b.addOperator({ op: B.ADD, inputs: [ci, one], outputs: [next] });
  r.b.setInputs([ci, bx]).setOutputs([next, bx]);
  r.b.selectSubgraph(0);
};

/** CALL_ONCE: an init subgraph that assigns a variable, then READ_VARIABLE in the main graph. */
const callOnce: Recipe = (r) => {
  const h = r.tensor('resource', []);
  r.op({ op: B.VAR_HANDLE, inputs: [], outputs: [h], options: { container: '', sharedName: 'v' } });
  r.target({ op: B.CALL_ONCE, inputs: [], outputs: [], options: { initSubgraphIndex: 1 } });
  const y = r.output('float32', [2]);
  r.op({ op: B.READ_VARIABLE, inputs: [h], outputs: [y] });
  r.b.addSubgraph('init');
  const ih = r.b.addTensor({ name: 'h', type: TensorType.RESOURCE, shape: [] });
  const v = r.b.addTensor({ name: 'v', type: TensorType.FLOAT32, shape: [2], data: Float32Array.from([1, 2]) });
  r.b.addOperator({ op: B.VAR_HANDLE, inputs: [], outputs: [ih], options: { container: '', sharedName: 'v' } });
  r.b.addOperator({ op: B.ASSIGN_VARIABLE, inputs: [ih, v], outputs: [] });
  r.b.setInputs([]).setOutputs([]);
  r.b.selectSubgraph(0);
};

/** VAR_HANDLE → ASSIGN_VARIABLE (a value of the type under test) → READ_VARIABLE. `which` is the op under test. */
const variables =
  (which: 'VAR_HANDLE' | 'ASSIGN_VARIABLE' | 'READ_VARIABLE'): Recipe =>
  (r, c) => {
    const t = which === 'ASSIGN_VARIABLE' ? ti(c, 1) : which === 'READ_VARIABLE' ? to(c) : 'float32';
    const h = r.tensor('resource', []);
    const handle = { op: B.VAR_HANDLE, inputs: [], outputs: [h], options: { container: '', sharedName: 'v' } };
    if (which === 'VAR_HANDLE') r.target(handle);
    else r.op(handle);
    const v = r.input(t, [2, 3]);
    const assign = { op: B.ASSIGN_VARIABLE, inputs: [h, v], outputs: [] };
    if (which === 'ASSIGN_VARIABLE') r.target(assign);
    else r.op(assign);
    const y = r.output(t, [2, 3]);
    const read = { op: B.READ_VARIABLE, inputs: [h], outputs: [y] };
    if (which === 'READ_VARIABLE') r.target(read);
    else r.op(read);
  };

/** HashtableOptions { table_id, key_dtype, value_dtype }. */
const hashtableOptions = (k: DType, v: DType): RawOptionField[] => [
  { id: 0, type: 'int32', value: 1 },
  { id: 1, type: 'int8', value: tensorTypeOf(k) },
  { id: 2, type: 'int8', value: tensorTypeOf(v) },
];

/** Keys and values of a small table of key type k and value type v. */
function tableContents(r: RecipeBuilder, k: DType, v: DType): [number, number] {
  const keys = k === 'string' ? r.constant(k, [3], { values: ['a', 'b', 'c'] }) : ints(r, k, [1, 2, 3]);
  const values = v === 'string' ? r.constant(v, [3], { values: ['x', 'y', 'z'] }) : ints(r, v, [10, 20, 30]);
  return [keys, values];
}

/** HASHTABLE → HASHTABLE_IMPORT → HASHTABLE_FIND and HASHTABLE_SIZE. `which` is the op under test. */
const hashtable =
  (which: 'HASHTABLE' | 'HASHTABLE_IMPORT' | 'HASHTABLE_FIND' | 'HASHTABLE_SIZE'): Recipe =>
  (r, c) => {
    // Key and value types: from the import's inputs, the find's inputs/outputs, or int64 → string for the others.
    const k: DType = which === 'HASHTABLE_IMPORT' || which === 'HASHTABLE_FIND' ? ti(c, 1) : 'int64';
    const v: DType = which === 'HASHTABLE_IMPORT' ? ti(c, 2) : which === 'HASHTABLE_FIND' ? to(c) : 'string';
    const h = r.tensor('resource', []);
    const create = { op: B.HASHTABLE, inputs: [], outputs: [h], rawOptions: hashtableOptions(k, v) };
    if (which === 'HASHTABLE') r.target(create);
    else r.op(create);
    const [keys, values] = tableContents(r, k, v);
    const imp = { op: B.HASHTABLE_IMPORT, inputs: [h, keys, values], outputs: [] };
    if (which === 'HASHTABLE_IMPORT') r.target(imp);
    else r.op(imp);
    const query = k === 'string' ? r.constant(k, [2], { values: ['b', 'q'] }) : ints(r, k, [2, 7]);
    const dflt = v === 'string' ? r.constant(v, [], { values: ['?'] }) : ints(r, v, [-1], []);
    const found = r.output(v, [2]);
    const find = { op: B.HASHTABLE_FIND, inputs: [h, query, dflt], outputs: [found] };
    if (which === 'HASHTABLE_FIND') r.target(find);
    else r.op(find);
    const size = r.output(which === 'HASHTABLE_SIZE' ? to(c) : 'int64', [1]);
    const sz = { op: B.HASHTABLE_SIZE, inputs: [h], outputs: [size] };
    if (which === 'HASHTABLE_SIZE') r.target(sz);
    else r.op(sz);
  };

const hashtableLookup: Recipe = (r, c) => {
  const lookup = ints(r, ti(c, 0), [1, 5]);
  const keys = ints(r, ti(c, 1), [0, 1, 2]);
  const v = ti(c, 2);
  const values = v === 'string' ? r.constant(v, [3], { values: ['x', 'y', 'z'] }) : r.constant(v, [3, 2], qIf(v, undefined));
  const out = r.output(to(c, 0), v === 'string' ? [2] : [2, 2], qIf(to(c, 0), undefined));
  const hits = r.output(to(c, 1), [2]);
  r.target({ op: B.HASHTABLE_LOOKUP, inputs: [lookup, keys, values], outputs: [out, hits] });
};

// ---------------------------------------------------------------------------------------------------
// Text and hashing.

const lshProjection: Recipe = (r, c) => {
  const hash = r.constant(ti(c, 0), [3, 2], { range: [-1, 1] });
  const t = ti(c, 1);
  const x = t === 'string' ? r.constant(t, [2], { values: ['ab', 'cd'] }) : r.input(t, [2, 3], { q: null });
  const w = present(c, 2) ? r.constant(ti(c, 2), [2], { values: [0.5, 1.5] }) : -1;
  const y = r.output(to(c), [3]);
  r.target({
    op: B.LSH_PROJECTION,
    inputs: w >= 0 ? [hash, x, w] : [hash, x],
    outputs: [y],
    rawOptions: [{ id: 0, type: 'int8', value: 1 /* SPARSE */ }],
  });
};

const skipGram: Recipe = (r, c) => {
  const x = r.constant(ti(c, 0), [1], { values: ['the quick brown fox'] });
  // 2-grams skipping at most 1 word: the quick, the brown, quick brown, quick fox, brown fox.
  const y = r.output(to(c), [5]);
  r.expectStrings(['the quick', 'the brown', 'quick brown', 'quick fox', 'brown fox']);
  r.target({
    op: B.SKIP_GRAM,
    inputs: [x],
    outputs: [y],
    rawOptions: [
      { id: 0, type: 'int32', value: 2 },
      { id: 1, type: 'int32', value: 1 },
      { id: 2, type: 'bool', value: false },
    ],
  });
};

const embeddingLookup: Recipe = (r, c) => {
  const ids = ints(r, ti(c, 0), [2, 0, 1]);
  const v = ti(c, 1);
  const hybrid = isQuantizedType(v) && to(c) === 'float32';
  const value = r.constant(v, [4, 2], { q: isQuantizedType(v) ? (hybrid ? (weightQuant(v) ?? null) : (defaultQuant(v) ?? null)) : null });
  const y = r.output(to(c), [3, 2], qIf(to(c), undefined));
  r.target({ op: B.EMBEDDING_LOOKUP, inputs: [ids, value], outputs: [y] });
};

const embeddingLookupSparse: Recipe = (r, c) => {
  const ids = ints(r, ti(c, 0), [1, 3, 0]);
  const indices = ints(r, ti(c, 1), [0, 0, 0, 1, 1, 0], [3, 2]);
  const dense = ints(r, ti(c, 2), [2, 2]);
  const w = r.constant(ti(c, 3), [3], { values: [1, 0.5, 2] });
  const value = r.constant(ti(c, 4), [4, 3]);
  const y = r.output(to(c), [2, 3]);
  r.target({
    op: B.EMBEDDING_LOOKUP_SPARSE,
    inputs: [ids, indices, dense, w, value],
    outputs: [y],
    rawOptions: [{ id: 0, type: 'int8', value: 0 /* SUM */ }],
  });
};

// ---------------------------------------------------------------------------------------------------
// Detection, random, signal.

const nms =
  (v5: boolean): Recipe =>
  (r, c) => {
    const boxes = r.constant(ti(c, 0), [4, 4], { values: [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3, 0, 0.5, 1, 1.5] });
    const scores = r.input(ti(c, 1), [4], { range: [0, 1] });
    const maxOut = ints(r, ti(c, 2), [3], []);
    const iou = r.constant(ti(c, 3), [], { values: [0.5] });
    const thr = r.constant(ti(c, 4), [], { values: [0.1] });
    const inputs = [boxes, scores, maxOut, iou, thr];
    if (v5) inputs.push(r.constant(ti(c, 5), [], { values: [0] }));
    const sel = r.output(to(c, 0), [3]);
    const outs = [sel];
    if (v5) outs.push(r.output(to(c, 1), [3]));
    outs.push(r.output(to(c, v5 ? 2 : 1), []));
    r.target({ op: v5 ? B.NON_MAX_SUPPRESSION_V5 : B.NON_MAX_SUPPRESSION_V4, inputs, outputs: outs });
  };

const RANDOM_SEEDS: RawOptionField[] = [
  { id: 0, type: 'int64', value: 7 },
  { id: 1, type: 'int64', value: 11 },
];

const randomOp =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const shape = ints(r, ti(c, 0), [2, 3]);
    const y = r.output(to(c), [2, 3]);
    r.target({ op, inputs: [shape], outputs: [y], rawOptions: RANDOM_SEEDS });
  };

const multinomial: Recipe = (r, c) => {
  const logits = r.input(ti(c, 0), [2, 3]);
  const n = ints(r, ti(c, 1), [4], []);
  const y = r.output(to(c), [2, 4]);
  r.target({ op: B.MULTINOMIAL, inputs: [logits, n], outputs: [y], rawOptions: RANDOM_SEEDS });
};

const rfft2d: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [4, 8]);
  const len = ints(r, ti(c, 1), [4, 8]);
  const y = r.output(to(c), [4, 5]);
  r.target({ op: B.RFFT2D, inputs: [x, len], outputs: [y] });
};

const complexPart =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const x = r.input(ti(c, 0), [2, 3]);
    const y = r.output(to(c), [2, 3]);
    r.target({ op, inputs: [x], outputs: [y] });
  };

const addN: Recipe = (r, c) => {
  const ins = c.inputs.map((t) => r.input(t!, [2, 3]));
  const y = r.output(to(c), [2, 3]);
  r.target({ op: B.ADD_N, inputs: ins, outputs: [y] });
};

const prelu: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = r.input(t, [1, 2, 2, 3]);
  const alpha = r.constant(ti(c, 1), [3], {
    ...qIf(ti(c, 1), isQuantizedType(ti(c, 1)) ? { scale: 0.01, zeroPoint: ti(c, 1) === 'uint8' ? 128 : 0 } : undefined),
    range: ti(c, 1) === 'float32' ? [0, 0.5] : undefined,
  });
  const y = r.output(to(c), [1, 2, 2, 3], qIf(to(c), undefined));
  r.target({ op: B.PRELU, inputs: [x, alpha], outputs: [y] });
};

const pool =
  (op: BuiltinOperator): Recipe =>
  (r, c) => {
    const x = r.input(ti(c, 0), [1, 4, 4, 2], op === B.L2_POOL_2D ? { q: null } : {});
    const y = r.output(to(c), [1, 2, 2, 2]);
    r.target({
      op,
      inputs: [x],
      outputs: [y],
      options: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 },
    });
  };

const l2norm: Recipe = unary(B.L2_NORMALIZATION, {
  shape: [2, 4],
  outQ: (t) => (t === 'int8' ? { scale: 1 / 128, zeroPoint: 0 } : t === 'uint8' ? { scale: 1 / 128, zeroPoint: 128 } : undefined),
});

const lrn: Recipe = unary(B.LOCAL_RESPONSE_NORMALIZATION, {
  rawOptions: [
    { id: 0, type: 'int32', value: 1 },
    { id: 1, type: 'float32', value: 1 },
    { id: 2, type: 'float32', value: 0.5 },
    { id: 3, type: 'float32', value: 0.75 },
  ],
});

const fakeQuant: Recipe = unary(B.FAKE_QUANT, {
  rawOptions: [
    { id: 0, type: 'float32', value: -1 },
    { id: 1, type: 'float32', value: 1 },
    { id: 2, type: 'int32', value: 8 },
    { id: 3, type: 'bool', value: false },
  ],
});

const softmaxOut = (t: DType): Q | undefined => (t === 'int16' ? { scale: 1 / 32768, zeroPoint: 0 } : LOGISTIC_OUT(t));

const softmax: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = r.input(t, [2, 5]);
  const y = r.output(
    to(c),
    [2, 5],
    qIf(to(c), t !== 'int16' && to(c) === 'int16' ? { scale: 1 / 65536, zeroPoint: -32768 } : softmaxOut(to(c))),
  );
  r.target({ op: B.SOFTMAX, inputs: [x], outputs: [y], options: { beta: 1 } });
};

const logSoftmax: Recipe = unary(B.LOG_SOFTMAX, {
  shape: [2, 5],
  outQ: (t) => (t === 'int8' ? { scale: 16 / 256, zeroPoint: 127 } : t === 'uint8' ? { scale: 16 / 256, zeroPoint: 255 } : undefined),
});

const squaredDifference: Recipe = binary(B.SQUARED_DIFFERENCE, {
  outQ: (t) => (t === 'int8' ? { scale: 0.05, zeroPoint: -128 } : undefined),
});

const stablehloScatter: Recipe = (r, c) => {
  // operand [3, 2], scatter_indices [2, 1], updates [2, 2]: rows 0 and 2 get the update added.
  const x = r.input(ti(c, 0), [3, 2]);
  const idx = ints(r, ti(c, 1), [0, 2], [2, 1]);
  const upd = r.input(ti(c, 2), [2, 2]);
  const y = r.output(to(c), [3, 2]);
  r.target({
    op: STABLEHLO_SCATTER,
    inputs: [x, idx, upd],
    outputs: [y],
    options2: {
      type: 7, // StablehloScatterOptions
      fields: [
        { id: 0, type: 'bool', value: false },
        { id: 1, type: 'int64[]', value: [1] },
        { id: 2, type: 'int64[]', value: [0] },
        { id: 3, type: 'int64[]', value: [0] },
        { id: 4, type: 'int64', value: 1 },
        { id: 5, type: 'bool', value: false },
        { id: 6, type: 'int32', value: 1 },
      ],
    },
  });
  // update_computation: an empty subgraph (b replaces a). stablehlo_scatter.cc reads the computation from the
  // subgraph's single op (STABLEHLO_ADD/MULTIPLY/MAXIMUM/MINIMUM), none meaning a plain update; it never runs it.
  const t = ti(c, 0);
  r.b.addSubgraph('update');
  const a = r.b.addTensor({ name: 'a', type: tensorTypeOf(t), shape: [] });
  const b = r.b.addTensor({ name: 'b', type: tensorTypeOf(t), shape: [] });
  r.b.setInputs([a, b]).setOutputs([b]);
  r.b.selectSubgraph(0);
};

/** BuiltinOperator.STABLEHLO_SCATTER (190) of TFLite's schema; micrort's enum ends at RIGHT_SHIFT (161). */
export const STABLEHLO_SCATTER = 190 as BuiltinOperator;

/** A [2, 4] constant stored sparse (row 0: columns 1, 3; row 1: column 0), densified. */
const densify: Recipe = (r, c) => {
  const arr = (values: number[]) => ({ values: Int32Array.from(values), type: 'int32' as const });
  const x = r.constant(ti(c, 0), [2, 4], {
    values: [1, 2, 3],
    sparsity: {
      traversalOrder: Int32Array.from([0, 1]),
      blockMap: new Int32Array(0),
      dimMetadata: [
        { format: 'dense', denseSize: 2, arraySegments: null, arrayIndices: null },
        { format: 'sparseCsr', denseSize: 0, arraySegments: arr([0, 2, 3]), arrayIndices: arr([1, 3, 0]) },
      ],
    },
  });
  const y = r.output(to(c), [2, 4]);
  r.target({ op: B.DENSIFY, inputs: [x], outputs: [y] });
};

// ---------------------------------------------------------------------------------------------------
// Custom ops.

const flex = (o: Record<string, FlexValue>) => flexMap(o);

const audioSpectrogram: Recipe = (r, c) => {
  const x = r.input(ti(c, 0), [16, 1]);
  const y = r.output(to(c), [1, 3, 5]);
  r.target({
    op: { custom: 'AudioSpectrogram' },
    inputs: [x],
    outputs: [y],
    customOptions: flex({ window_size: 8, stride: 4, magnitude_squared: true }),
  });
};

const mfcc: Recipe = (r, c) => {
  const spec = r.input(ti(c, 0), [1, 3, 33], { range: [0, 1] });
  const rate = ints(r, ti(c, 1), [16000], []);
  const y = r.output(to(c), [1, 3, 13]);
  r.target({
    op: { custom: 'Mfcc' },
    inputs: [spec, rate],
    outputs: [y],
    customOptions: flex({
      upper_frequency_limit: { float: 4000 },
      lower_frequency_limit: { float: 20 },
      filterbank_channel_count: 40,
      dct_coefficient_count: 13,
    }),
  });
};

const numericVerify: Recipe = (r, c) => {
  const t = ti(c, 0);
  const x = t === 'float16' ? r.constant(t, [2, 3]) : r.input(t, [2, 3]);
  const ref = r.input(ti(c, 1), [2, 3]);
  const ys = c.outputs.map((t) => r.output(t, [2, 3]));
  r.target({
    op: { custom: 'NumericVerify' },
    inputs: [x, ref],
    outputs: ys,
    customOptions: flex({ tolerance: { float: 1000 }, log_if_failed: false }),
  });
};

const detectionPostprocess: Recipe = (r, c) => {
  const tb = ti(c, 0);
  const q = (t: DType, scale: number, zp: number) => (isQuantizedType(t) ? { q: { scale, zeroPoint: zp } } : {});
  const boxes = r.input(tb, [1, 4, 4], { ...q(tb, 0.05, 128), range: tb === 'float32' ? [-0.5, 0.5] : undefined });
  const scores = r.input(ti(c, 1), [1, 4, 3], { ...q(ti(c, 1), 1 / 256, 0), range: ti(c, 1) === 'float32' ? [0, 1] : undefined });
  const anchors = r.constant(ti(c, 2), [4, 4], {
    values: [0.2, 0.2, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.6, 0.6, 0.4, 0.4, 0.8, 0.8, 0.4, 0.4].map((v) =>
      isQuantizedType(ti(c, 2)) ? Math.round(v / 0.01) : v,
    ),
    ...q(ti(c, 2), 0.01, 0),
  });
  const outs = [r.output(to(c, 0), [1, 3, 4]), r.output(to(c, 1), [1, 3]), r.output(to(c, 2), [1, 3]), r.output(to(c, 3), [1])];
  r.target({
    op: { custom: 'TFLite_Detection_PostProcess' },
    inputs: [boxes, scores, anchors],
    outputs: outs,
    customOptions: flex({
      max_detections: 3,
      max_classes_per_detection: 1,
      detections_per_class: 1,
      num_classes: 2,
      nms_score_threshold: { float: 0.0001 },
      nms_iou_threshold: { float: 0.5 },
      y_scale: { float: 10 },
      x_scale: { float: 10 },
      h_scale: { float: 5 },
      w_scale: { float: 5 },
      use_regular_nms: false,
    }),
  });
};

// ---------------------------------------------------------------------------------------------------
// The table.

const positive = (t: DType): [number, number] | undefined =>
  t === 'float32' ? [0.1, 2] : t === 'int8' ? [20, 127] : t === 'uint8' ? [140, 255] : t === 'int16' ? [100, 32767] : undefined;

/** The recipe of every op of tflite-op-set.ts, by resolver key (`ADD`, `CUSTOM:Mfcc`). */
export const RECIPES: Readonly<Record<string, Recipe>> = {
  ABS: unary(B.ABS),
  HARD_SWISH: unary(B.HARD_SWISH),
  RELU: unary(B.RELU),
  RELU_N1_TO_1: unary(B.RELU_N1_TO_1),
  RELU_0_TO_1: unary(B.RELU_0_TO_1),
  RELU6: unary(B.RELU6),
  TANH: unary(B.TANH, { outQ: TANH_OUT }),
  LOGISTIC: unary(B.LOGISTIC, { outQ: LOGISTIC_OUT }),
  AVERAGE_POOL_2D: pool(B.AVERAGE_POOL_2D),
  MAX_POOL_2D: pool(B.MAX_POOL_2D),
  L2_POOL_2D: pool(B.L2_POOL_2D),
  CONV_2D: conv2d,
  DEPTHWISE_CONV_2D: depthwise,
  SVDF: svdf,
  RNN: rnn,
  BIDIRECTIONAL_SEQUENCE_RNN: bidiRnn,
  UNIDIRECTIONAL_SEQUENCE_RNN: sequenceRnn,
  EMBEDDING_LOOKUP: embeddingLookup,
  EMBEDDING_LOOKUP_SPARSE: embeddingLookupSparse,
  FULLY_CONNECTED: fullyConnected,
  LSH_PROJECTION: lshProjection,
  HASHTABLE_LOOKUP: hashtableLookup,
  SOFTMAX: softmax,
  CONCATENATION: concat,
  ADD: (r, c) => binary(B.ADD, { options: { potScaleInt16: false } })(r, c),
  SPACE_TO_BATCH_ND: spaceToBatch,
  BATCH_TO_SPACE_ND: batchToSpace,
  MUL: binary(B.MUL),
  L2_NORMALIZATION: l2norm,
  LOCAL_RESPONSE_NORMALIZATION: lrn,
  LSTM: lstm,
  BIDIRECTIONAL_SEQUENCE_LSTM: bidiLstm,
  UNIDIRECTIONAL_SEQUENCE_LSTM: sequenceLstm,
  PAD: pad,
  PADV2: padV2,
  RESHAPE: reshape,
  RESIZE_BILINEAR: resizeBilinear,
  RESIZE_NEAREST_NEIGHBOR: resizeNearest,
  SKIP_GRAM: skipGram,
  SPACE_TO_DEPTH: spaceToDepth,
  DEPTH_TO_SPACE: depthToSpace,
  GATHER: gather,
  TRANSPOSE: transpose,
  MEAN: reduce(B.MEAN),
  DIV: binary(B.DIV, {
    range2: nonZero,
    q2: (t) => (t === 'uint8' ? { scale: 0.04, zeroPoint: 0 } : t === 'int8' ? { scale: 0.04, zeroPoint: -128 } : undefined),
  }),
  SUB: (r, c) => binary(B.SUB, { options: { potScaleInt16: false } })(r, c),
  SPLIT: split,
  SPLIT_V: splitV,
  SQUEEZE: squeeze,
  STRIDED_SLICE: strideSlice,
  EXP: unary(B.EXP),
  TOPK_V2: topk,
  LOG: unary(B.LOG, { range: positive }),
  LOG_SOFTMAX: logSoftmax,
  CAST: cast,
  DEQUANTIZE: dequantize,
  PRELU: prelu,
  MAXIMUM: binary(B.MAXIMUM, { q2: (t) => defaultQuant(t), outQ: (t) => defaultQuant(t) }),
  MINIMUM: binary(B.MINIMUM, { q2: (t) => defaultQuant(t), outQ: (t) => defaultQuant(t) }),
  ARG_MAX: argMinMax(B.ARG_MAX),
  ARG_MIN: argMinMax(B.ARG_MIN),
  GREATER: binary(B.GREATER),
  GREATER_EQUAL: binary(B.GREATER_EQUAL),
  LESS: binary(B.LESS),
  LESS_EQUAL: binary(B.LESS_EQUAL),
  FLOOR: unary(B.FLOOR),
  CEIL: unary(B.CEIL),
  ROUND: unary(B.ROUND),
  NEG: unary(B.NEG),
  SELECT: select(B.SELECT),
  SELECT_V2: select(B.SELECT_V2),
  SLICE: slice,
  SIN: unary(B.SIN),
  COS: unary(B.COS),
  TRANSPOSE_CONV: transposeConv,
  TILE: tile,
  SUM: reduce(B.SUM),
  REDUCE_PROD: reduce(B.REDUCE_PROD),
  REDUCE_MAX: reduce(B.REDUCE_MAX),
  REDUCE_MIN: reduce(B.REDUCE_MIN),
  REDUCE_ANY: reduce(B.REDUCE_ANY),
  REDUCE_ALL: reduce(B.REDUCE_ALL),
  EXPAND_DIMS: expandDims,
  SPARSE_TO_DENSE: sparseToDense,
  EQUAL: binary(B.EQUAL),
  NOT_EQUAL: binary(B.NOT_EQUAL),
  // int8 zero point 0: every non-negative int8 value is a valid input (quantized SQRT fails invoke below the zero point).
  SQRT: unary(B.SQRT, { range: positive, inQ: (t) => (t === 'int8' ? { scale: 0.05, zeroPoint: 0 } : undefined) }),
  RSQRT: unary(B.RSQRT, { range: positive }),
  SHAPE: shapeOp,
  RANK: rank,
  POW: binary(B.POW, { range1: (t) => (t === 'int32' ? [0, 5] : [0.5, 2]), range2: (t) => (t === 'int32' ? [0, 3] : [-2, 2]) }),
  FAKE_QUANT: fakeQuant,
  PACK: pack,
  ONE_HOT: oneHot,
  LOGICAL_OR: binary(B.LOGICAL_OR),
  LOGICAL_AND: binary(B.LOGICAL_AND),
  LOGICAL_NOT: unary(B.LOGICAL_NOT),
  UNPACK: unpack,
  FLOOR_DIV: binary(B.FLOOR_DIV, { range2: nonZero }),
  SQUARE: unary(B.SQUARE),
  ZEROS_LIKE: zerosLike,
  FLOOR_MOD: binary(B.FLOOR_MOD, { range2: nonZero }),
  RANGE: range,
  LEAKY_RELU: unary(B.LEAKY_RELU, { options: { alpha: 0.2 } }),
  SQUARED_DIFFERENCE: squaredDifference,
  FILL: fill,
  MIRROR_PAD: mirrorPad,
  UNIQUE: unique,
  REVERSE_V2: reverseV2,
  ADD_N: addN,
  GATHER_ND: gatherNd,
  WHERE: where,
  ELU: unary(B.ELU),
  REVERSE_SEQUENCE: reverseSequence,
  MATRIX_DIAG: matrixDiag,
  QUANTIZE: quantize,
  MATRIX_SET_DIAG: matrixSetDiag,
  IF: ifOp,
  WHILE: whileOp,
  NON_MAX_SUPPRESSION_V4: nms(false),
  NON_MAX_SUPPRESSION_V5: nms(true),
  SCATTER_ND: scatterNd,
  DENSIFY: densify,
  SEGMENT_SUM: segmentSum,
  BATCH_MATMUL: batchMatmul,
  CUMSUM: cumsum,
  BROADCAST_TO: broadcastTo,
  CALL_ONCE: callOnce,
  RFFT2D: rfft2d,
  CONV_3D: conv3d,
  IMAG: complexPart(B.IMAG),
  REAL: complexPart(B.REAL),
  COMPLEX_ABS: complexPart(B.COMPLEX_ABS),
  BROADCAST_ARGS: broadcastArgs,
  HASHTABLE: hashtable('HASHTABLE'),
  HASHTABLE_FIND: hashtable('HASHTABLE_FIND'),
  HASHTABLE_IMPORT: hashtable('HASHTABLE_IMPORT'),
  HASHTABLE_SIZE: hashtable('HASHTABLE_SIZE'),
  CONV_3D_TRANSPOSE: conv3dTranspose,
  VAR_HANDLE: variables('VAR_HANDLE'),
  READ_VARIABLE: variables('READ_VARIABLE'),
  ASSIGN_VARIABLE: variables('ASSIGN_VARIABLE'),
  MULTINOMIAL: multinomial,
  RANDOM_STANDARD_NORMAL: randomOp(B.RANDOM_STANDARD_NORMAL),
  BUCKETIZE: bucketize,
  RANDOM_UNIFORM: randomOp(B.RANDOM_UNIFORM),
  GELU: unary(B.GELU, { rawOptions: [{ id: 0, type: 'bool', value: false }] }),
  DYNAMIC_UPDATE_SLICE: dynamicUpdateSlice,
  UNSORTED_SEGMENT_PROD: unsortedSegment(B.UNSORTED_SEGMENT_PROD),
  UNSORTED_SEGMENT_MAX: unsortedSegment(B.UNSORTED_SEGMENT_MAX),
  UNSORTED_SEGMENT_MIN: unsortedSegment(B.UNSORTED_SEGMENT_MIN),
  UNSORTED_SEGMENT_SUM: unsortedSegment(B.UNSORTED_SEGMENT_SUM),
  ATAN2: binary(B.ATAN2, {
    shapes: [
      [2, 3],
      [2, 3],
      [2, 3],
    ],
  }),
  SIGN: unary(B.SIGN),
  BITCAST: bitcast,
  BITWISE_XOR: shiftOrXor(B.BITWISE_XOR),
  RIGHT_SHIFT: shiftOrXor(B.RIGHT_SHIFT),
  STABLEHLO_SCATTER: stablehloScatter,
  'CUSTOM:NumericVerify': numericVerify,
  'CUSTOM:Mfcc': mfcc,
  'CUSTOM:AudioSpectrogram': audioSpectrogram,
  'CUSTOM:TFLite_Detection_PostProcess': detectionPostprocess,
};

/**
 * Builds the model of op `op` for type combination `combo` (operator version: the op's lowest); `io`
 * chooses which types the graph's inputs and outputs may have and whether other outputs get probes.
 */
export function buildRecipe(op: TfliteOp, combo: TypeCombo, io: RecipeIo = {}): RecipeModel {
  const key = op.kind === 'builtin' ? op.name : `CUSTOM:${op.name}`;
  const recipe = RECIPES[key];
  if (!recipe) throw new Error(`no recipe for ${key}`);
  const r = new RecipeBuilder(`${key} ${comboLabel(combo)}`, op.versions[0], io);
  recipe(r, combo);
  return r.build();
}

/** `float32,int32→float32` (`-` for an omitted input). */
export function comboLabel(c: TypeCombo): string {
  return `${c.inputs.map((t) => t ?? '-').join(',')}→${c.outputs.join(',')}`;
}
