/**
 * Test support for the float32 kernels: random single-operator float32 models built with ModelBuilder,
 * run through ops-reference alone and through ops-wasm in front of it (arena in WebAssembly memory), and
 * the outputs compared within micrort's float tolerance |a − b| ≤ 1e-5 + 1e-4·|b|. Values have realistic
 * magnitudes (inputs in [-1, 1], weights scaled by 1/sqrt(fan-in)): the kernels sum in another order
 * than the reference, which is exact only up to float32 rounding.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { PROVIDER } from '../provider.js';
import { int, pick, rng, wasm } from './single-op.js';

export const ACTIVATIONS = [
  ActivationFunctionType.NONE,
  ActivationFunctionType.RELU,
  ActivationFunctionType.RELU6,
  ActivationFunctionType.RELU_N1_TO_1,
];

/** `n` floats uniform in [lo, hi). */
export function floats(r: () => number, n: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * r();
  return out;
}

/** Outputs of one interpreter run, and how many nodes ops-wasm served. */
export interface FloatRun {
  outs: Float32Array[];
  served: number;
}

/**
 * Runs `def` on `inputs` (raw bytes in graph input order), with or without ops-wasm in front, `invokes`
 * times (stateful models carry their variables from one invoke to the next).
 */
export function runF32(def: ModelDef, inputs: ArrayBufferView[], withWasm: boolean, resolver?: () => OpResolver, invokes = 1): FloatRun {
  const res = resolver ? resolver() : registerReferenceOps(new OpResolver());
  if (withWasm) res.registerAll(wasm().kernels, { fallback: true });
  const it = new MicroInterpreter(def, res, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
  }).allocateTensors();
  inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  for (let i = 0; i < invokes; i++) it.invoke();
  const outs = Array.from({ length: it.outputsSize }, (_, j) => new Float32Array(Uint8Array.from(it.output(j).bytes).buffer));
  return { outs, served: it.nodes().filter((n) => n.provider === PROVIDER).length };
}

/** The first element outside |a − b| ≤ 1e-5 + 1e-4·|b| (b the expected value), or null. */
export function firstMismatch(got: Float32Array, expected: Float32Array): string | null {
  if (got.length !== expected.length) return `length ${got.length} vs ${expected.length}`;
  for (let i = 0; i < got.length; i++) {
    const a = got[i]!;
    const b = expected[i]!;
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    if (!(Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b))) return `element ${i}: got ${a}, expected ${b}`;
  }
  return null;
}

/** firstMismatch with non-finite expected values compared exactly (the same infinity, or NaN for NaN) and left out of the tolerance check. */
export function firstMismatchExactSpecials(got: Float32Array, expected: Float32Array): string | null {
  const a = Float32Array.from(got);
  const e = Float32Array.from(expected);
  for (let i = 0; i < e.length; i++)
    if (!Number.isFinite(e[i]!)) {
      if (!(Object.is(a[i], e[i]) || (Number.isNaN(a[i]!) && Number.isNaN(e[i]!)))) return `element ${i}: got ${a[i]}, expected ${e[i]}`;
      a[i] = e[i] = 0;
    }
  return firstMismatch(a, e);
}

/** Runs `def` both ways; returns null when every output agrees, else what differs. Also checks how many nodes ops-wasm served. */
export function compareWithReference(def: ModelDef, inputs: ArrayBufferView[], served: number, resolver?: () => OpResolver): string | null {
  const ref = runF32(def, inputs, false, resolver);
  const got = runF32(def, inputs, true, resolver);
  if (got.served !== served) return `ops-wasm served ${got.served} nodes, expected ${served}`;
  for (let j = 0; j < ref.outs.length; j++) {
    const m = firstMismatch(got.outs[j]!, ref.outs[j]!);
    if (m) return `output ${j}: ${m}`;
  }
  return null;
}

/** Geometry of a random float CONV_2D / DEPTHWISE_CONV_2D case. */
export interface ConvCaseF32 {
  depthwise: boolean;
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  outC: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  dilH: number;
  dilW: number;
  padding: Padding;
  bias: boolean;
  activation: ActivationFunctionType;
  /** The filter is a graph input (packed again before every invoke) instead of a constant. */
  dynamicFilter: boolean;
  /** A PAD before the convolution (`inH` x `inW` is its source's size); `value`: a PADV2 with that constant_values. */
  pre?: { top: number; bottom: number; left: number; right: number; value?: number };
  seed: number;
  /** Fraction of the weights set to zero (a pruned layer), none when absent. */
  zeros?: number;
}

/** A random convolution case on odd shapes. */
export function randomConvCaseF32(seed: number, depthwise: boolean): ConvCaseF32 {
  const r = rng(seed);
  const inC = int(r, 1, 21);
  return {
    depthwise,
    batches: int(r, 1, 2),
    inH: int(r, 1, 10),
    inW: int(r, 1, 10),
    inC,
    outC: depthwise ? inC : int(r, 1, 19),
    kH: int(r, 1, 3),
    kW: int(r, 1, 5),
    strideH: int(r, 1, 2),
    strideW: int(r, 1, 3),
    dilH: r() < 0.25 ? 2 : 1,
    dilW: r() < 0.25 ? 2 : 1,
    padding: r() < 0.5 ? Padding.SAME : Padding.VALID,
    bias: r() < 0.8,
    activation: pick(r, ACTIVATIONS),
    dynamicFilter: r() < 0.1,
    seed,
  };
}

function outSize(padding: Padding, n: number, k: number, s: number, d: number): number {
  const eff = (k - 1) * d + 1;
  return padding === Padding.SAME ? Math.ceil(n / s) : Math.floor((n - eff) / s) + 1;
}

/** Builds the model of a convolution case (with its inputs), or null when VALID padding leaves no output. */
export function buildConvF32(c: ConvCaseF32): { def: ModelDef; inputs: Float32Array[] } | null {
  const pre = c.pre ?? { top: 0, bottom: 0, left: 0, right: 0 };
  const padH = c.inH + pre.top + pre.bottom;
  const padW = c.inW + pre.left + pre.right;
  const outH = outSize(c.padding, padH, c.kH, c.strideH, c.dilH);
  const outW = outSize(c.padding, padW, c.kW, c.strideW, c.dilW);
  if (outH < 1 || outW < 1) return null;
  const r = rng(c.seed * 7 + 1);
  const fan = c.depthwise ? c.kH * c.kW : c.kH * c.kW * c.inC;
  const filterShape = c.depthwise ? [1, c.kH, c.kW, c.outC] : [c.outC, c.kH, c.kW, c.inC];
  const weights = floats(
    r,
    filterShape.reduce((a, x) => a * x, 1),
    -2 / Math.sqrt(fan),
    2 / Math.sqrt(fan),
  );
  if (c.zeros) for (let i = 0; i < weights.length; i++) if (r() < c.zeros) weights[i] = 0;
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: TensorType.FLOAT32, shape: [c.batches, c.inH, c.inW, c.inC] });
  const wT = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: filterShape, ...(c.dynamicFilter ? {} : { data: weights }) });
  let convIn = inT;
  if (c.pre) {
    convIn = b.addTensor({ name: 'padded', type: TensorType.FLOAT32, shape: [c.batches, padH, padW, c.inC] });
    const padInputs = [
      inT,
      b.addTensor({
        name: 'paddings',
        type: TensorType.INT32,
        shape: [4, 2],
        data: Int32Array.from([0, 0, pre.top, pre.bottom, pre.left, pre.right, 0, 0]),
      }),
    ];
    if (c.pre.value !== undefined)
      padInputs.push(b.addTensor({ name: 'pad_value', type: TensorType.FLOAT32, shape: [], data: Float32Array.of(c.pre.value) }));
    b.addOperator({ op: c.pre.value !== undefined ? BuiltinOperator.PADV2 : BuiltinOperator.PAD, inputs: padInputs, outputs: [convIn] });
  }
  const ins = [convIn, wT];
  if (c.bias) ins.push(b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [c.outC], data: floats(r, c.outC, -0.5, 0.5) }));
  const outT = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: [c.batches, outH, outW, c.outC] });
  b.addOperator({
    op: c.depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D,
    version: 1,
    inputs: ins,
    outputs: [outT],
    options: {
      padding: c.padding,
      strideH: c.strideH,
      strideW: c.strideW,
      dilationHFactor: c.dilH,
      dilationWFactor: c.dilW,
      fusedActivationFunction: c.activation,
      ...(c.depthwise ? { depthMultiplier: c.outC / c.inC } : {}),
    },
  });
  b.setInputs(c.dynamicFilter ? [inT, wT] : [inT]).setOutputs([outT]);
  const input = floats(r, c.batches * c.inH * c.inW * c.inC);
  return { def: b.buildDef(), inputs: c.dynamicFilter ? [input, weights] : [input] };
}

/** A random float FULLY_CONNECTED ([batches, depth] x [units, depth]^T + bias). */
export function buildFullyConnectedF32(seed: number): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const batches = int(r, 1, 6);
  const depth = int(r, 1, 90);
  const units = int(r, 1, 21);
  const bias = r() < 0.8;
  const activation = pick(r, ACTIVATIONS);
  const keepNumDims = r() < 0.3;
  const b = new ModelBuilder();
  const inShape = keepNumDims ? [1, batches, depth] : [batches, depth];
  const inT = b.addTensor({ name: 'in', type: TensorType.FLOAT32, shape: inShape });
  const wT = b.addTensor({
    name: 'w',
    type: TensorType.FLOAT32,
    shape: [units, depth],
    data: floats(r, units * depth, -2 / Math.sqrt(depth), 2 / Math.sqrt(depth)),
  });
  const ins = [inT, wT];
  if (bias) ins.push(b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [units], data: floats(r, units, -0.5, 0.5) }));
  const outT = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: keepNumDims ? [1, batches, units] : [batches, units] });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 1,
    inputs: ins,
    outputs: [outT],
    options: { fusedActivationFunction: activation, keepNumDims },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return {
    def: b.buildDef(),
    inputs: [floats(r, batches * depth)],
    desc: JSON.stringify({ seed, batches, depth, units, bias, activation, keepNumDims }),
  };
}

/** A random float ADD or MUL whose inputs broadcast (per-channel vectors, scalars, inner/outer repeats), one of them sometimes constant. */
/** The float binary ops of f32_binary. */
export type BinaryF32Op =
  | BuiltinOperator.ADD
  | BuiltinOperator.MUL
  | BuiltinOperator.PRELU
  | BuiltinOperator.SUB
  | BuiltinOperator.DIV
  | BuiltinOperator.MAXIMUM
  | BuiltinOperator.MINIMUM
  | BuiltinOperator.SQUARED_DIFFERENCE;

/** Ops of BinaryF32Op whose options carry a fused activation. */
const FUSED_BINARY: readonly BuiltinOperator[] = [BuiltinOperator.ADD, BuiltinOperator.MUL, BuiltinOperator.SUB, BuiltinOperator.DIV];

/**
 * A random float binary op over random broadcasts. With `specials`, about one input value in ten (of both
 * inputs) is one of them (zeros, -0, NaN, infinities).
 */
export function buildBinaryF32(
  seed: number,
  op: BinaryF32Op,
  specials: readonly number[] = [],
): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const rank = int(r, 1, 4);
  const out = Array.from({ length: rank }, () => int(r, 1, 7));
  if (rank > 0 && r() < 0.5) out[rank - 1] = int(r, 8, 37);
  const shapeOf = (): number[] => {
    const kind = int(r, 0, 4);
    if (kind === 0) return out.slice(); // same shape
    if (kind === 1) return r() < 0.5 ? [] : [1]; // scalar
    if (kind === 2) return out.slice(int(r, 0, rank - 1)); // trailing dimensions
    return out.map((d) => (r() < 0.4 ? 1 : d)); // some dimensions broadcast
  };
  let a = shapeOf();
  const bShape = shapeOf();
  // the output must be the broadcast of the two: make input 1 full where both would miss a dimension
  const full = (s: number[], d: number) => (d - (rank - s.length) >= 0 ? s[d - (rank - s.length)]! : 1);
  if (out.some((d, i) => d !== Math.max(full(a, i), full(bShape, i)))) a = out.slice();
  const constant = r() < 0.3 ? int(r, 0, 1) : -1;
  const activation = pick(r, ACTIVATIONS);
  const b = new ModelBuilder();
  const n = (s: number[]) => s.reduce((p, x) => p * x, 1);
  const data = [floats(r, n(a), -3, 3), floats(r, n(bShape), -3, 3)];
  // PRELU: exact zeros, negative zeros and NaN among the inputs (x >= 0 keeps them as they are)
  if (op === BuiltinOperator.PRELU) for (let i = 0; i < data[0]!.length; i++) if (r() < 0.1) data[0]![i] = pick(r, [0, -0, Number.NaN]);
  if (specials.length) for (const d of data) for (let i = 0; i < d.length; i++) if (r() < 0.1) d[i] = pick(r, specials);
  const fused = FUSED_BINARY.includes(op);
  const t1 = b.addTensor({ name: 'a', type: TensorType.FLOAT32, shape: a, ...(constant === 0 ? { data: data[0] } : {}) });
  const t2 = b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: bShape, ...(constant === 1 ? { data: data[1] } : {}) });
  const o = b.addTensor({ name: 'o', type: TensorType.FLOAT32, shape: out });
  b.addOperator({
    op,
    inputs: [t1, t2],
    outputs: [o],
    ...(fused ? { options: { fusedActivationFunction: activation } } : {}),
  });
  const graphInputs = [t1, t2].filter((_, i) => i !== constant);
  b.setInputs(graphInputs).setOutputs([o]);
  return {
    def: b.buildDef(),
    inputs: data.filter((_, i) => i !== constant),
    desc: JSON.stringify({ seed, a, b: bShape, out, constant, ...(fused ? { activation } : {}) }),
  };
}

/** A unary float op over a random shape, inputs in [-range, range] (with a few exact values mixed in). */
export function buildUnaryF32(
  seed: number,
  op: BuiltinOperator,
  range: number,
  specials: readonly number[] = [],
): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const shape = [1, int(r, 1, 6), int(r, 1, 6), int(r, 1, 19)];
  const n = shape.reduce((p, x) => p * x, 1);
  const x = floats(r, n, -range, range);
  for (let i = 0; i < n; i++) if (specials.length && r() < 0.1) x[i] = pick(r, specials);
  const b = new ModelBuilder();
  const i = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape });
  const o = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape });
  b.addOperator({ op, inputs: [i], outputs: [o] });
  b.setInputs([i]).setOutputs([o]);
  return { def: b.buildDef(), inputs: [x], desc: JSON.stringify({ seed, shape }) };
}

/** A random float AVERAGE_POOL_2D or MAX_POOL_2D. */
export function buildPoolF32(
  seed: number,
  op: BuiltinOperator.AVERAGE_POOL_2D | BuiltinOperator.MAX_POOL_2D,
): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const [batches, inH, inW, C] = [int(r, 1, 2), int(r, 1, 9), int(r, 1, 9), int(r, 1, 35)];
  const fH = int(r, 1, Math.min(inH, 4));
  const fW = int(r, 1, Math.min(inW, 4));
  const sH = int(r, 1, 3);
  const sW = int(r, 1, 3);
  const padding = r() < 0.5 ? Padding.SAME : Padding.VALID;
  const outH = padding === Padding.SAME ? Math.ceil(inH / sH) : Math.floor((inH - fH) / sH) + 1;
  const outW = padding === Padding.SAME ? Math.ceil(inW / sW) : Math.floor((inW - fW) / sW) + 1;
  const activation = pick(r, ACTIVATIONS);
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [batches, inH, inW, C] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [batches, outH, outW, C] });
  b.addOperator({
    op,
    inputs: [x],
    outputs: [y],
    options: { padding, strideH: sH, strideW: sW, filterHeight: fH, filterWidth: fW, fusedActivationFunction: activation },
  });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [floats(r, batches * inH * inW * C, -4, 4)],
    desc: JSON.stringify({ seed, batches, inH, inW, C, fH, fW, sH, sW, padding, activation }),
  };
}
