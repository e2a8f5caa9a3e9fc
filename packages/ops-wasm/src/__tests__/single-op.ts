/**
 * Test support: random single-operator int8 models built with ModelBuilder, run through ops-reference
 * alone and through ops-wasm in front of it (arena in WebAssembly memory), outputs compared byte for byte.
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
import { expect } from 'vitest';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { PROVIDER } from '../provider.js';
import { loadWasmKernelsSync, type WasmKernels } from '../create-wasm-kernels.js';

let loaded: WasmKernels | null = null;
/** The package, loaded once per test file. */
export function wasm(): WasmKernels {
  return (loaded ??= loadWasmKernelsSync({ minMacs: 0, threads: 1 })); // tiny random layers too; threads: test/threads.test.ts
}

/** mulberry32. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Random int8 values; `extremes` mixes in -128 and 127. */
export function int8s(r: () => number, n: number, extremes = true): Int8Array {
  const out = new Int8Array(n);
  for (let i = 0; i < n; i++) out[i] = extremes && r() < 0.1 ? pick(r, [-128, 127]) : int(r, -128, 127);
  return out;
}

/**
 * TFLite's uint8 form of an int8 draw: each byte's top bit flipped, so the uint8 values are the int8
 * values + 128 (extremes -128 and 127 become 0 and 255); pair with zero points + 128.
 */
export function asUint8(x: Int8Array): Int8Array {
  return x.map((v) => v ^ -128);
}

export function int32s(r: () => number, n: number, range: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = int(r, -range, range);
  return out;
}

/** Runs `def` with ops-reference and with ops-wasm on the same input bytes; returns both outputs' bytes and how many nodes ops-wasm served. */
export function runBoth(def: ModelDef, inputs: Int8Array[]): { ref: Int8Array[]; got: Int8Array[]; served: number } {
  const run = (withWasm: boolean) => {
    const resolver = registerReferenceOps(new OpResolver());
    if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
    const it = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
    }).allocateTensors();
    inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
    it.invoke();
    const outs = Array.from({ length: it.outputsSize }, (_, j) => Int8Array.from(it.output(j).bytes));
    return { outs, served: it.nodes().filter((n) => n.provider === PROVIDER).length };
  };
  const a = run(false);
  const b = run(true);
  return { ref: a.outs, got: b.outs, served: b.served };
}

/**
 * Runs `def` once with ops-wasm in front of ops-reference under `inPlace: true` and expects ops-wasm to
 * serve every node and at least one node's output to share its input's memory; returns the output bytes
 * and ops-reference's for the same input bytes.
 */
export function runInPlace(def: ModelDef, input: Int8Array): { got: Int8Array; ref: Int8Array } {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
    inPlace: true,
  }).allocateTensors();
  expect(it_.nodes().map((n) => n.provider)).toEqual(def.subgraphs[0]!.operators.map(() => PROVIDER));
  const same = (i: number, o: number) => it_.tensor(i).data.byteOffset === it_.tensor(o).data.byteOffset;
  expect(it_.nodes().filter((n) => same(n.inputs[0]!, n.outputs[0]!)).length).toBeGreaterThanOrEqual(1);
  it_.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  it_.invoke();
  return { got: Int8Array.from(it_.output(0).bytes), ref: runBoth(def, [input]).ref[0]! };
}

/** Geometry and quantization of a random CONV_2D / DEPTHWISE_CONV_2D case. */
export interface ConvCase {
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
  perChannel: boolean;
  bias: boolean;
  inZp: number;
  outZp: number;
  activation: ActivationFunctionType;
  /** Multiplier scale: > 1 makes left shifts. */
  gain: number;
  /** Biases are drawn from [-biasRange, biasRange] (default 40000). */
  biasRange?: number;
  /** TFLite's uint8: uint8 tensors (zero points + 128), per-tensor, a random filter zero point. */
  uint8?: boolean;
  /**
   * A PAD before the convolution (the graph input is the PAD's, `inH` x `inW` its source's size):
   * rows above, below, columns left, right; `value`: a PADV2 with that constant_values (raw, as
   * stored) instead of PAD's implicit zero point.
   */
  pre?: { top: number; bottom: number; left: number; right: number; value?: number };
  seed: number;
}

const ACTS = [ActivationFunctionType.NONE, ActivationFunctionType.RELU, ActivationFunctionType.RELU6, ActivationFunctionType.RELU_N1_TO_1];

/** A random convolution case on odd shapes. */
export function randomConvCase(seed: number, depthwise: boolean): ConvCase {
  const r = rng(seed);
  // depthwise: a fifth of the cases have one input channel and a depth multiplier > 1, a fifth several
  // input channels and a multiplier of 2-3
  const kind = depthwise ? r() : 1;
  const multiplier = kind < 0.4 ? int(r, 2, 3) : 1;
  const inC = kind < 0.2 ? 1 : int(r, 1, kind < 0.4 ? 9 : 21);
  return {
    depthwise,
    batches: int(r, 1, 2),
    inH: int(r, 1, 9),
    inW: int(r, 1, 9),
    inC,
    outC: depthwise ? (kind < 0.2 ? int(r, 1, 13) : inC * multiplier) : int(r, 1, 13),
    kH: int(r, 1, 3),
    kW: int(r, 1, 4),
    strideH: int(r, 1, 2),
    strideW: int(r, 1, 3),
    dilH: r() < 0.25 ? 2 : 1,
    dilW: r() < 0.25 ? 2 : 1,
    padding: r() < 0.5 ? Padding.SAME : Padding.VALID,
    perChannel: r() < 0.7,
    bias: r() < 0.8,
    inZp: pick(r, [-128, 127, 0, int(r, -128, 127)]),
    outZp: pick(r, [-128, 127, 0, int(r, -128, 127)]),
    activation: pick(r, ACTS),
    gain: pick(r, [1, 1, 1, 40, 1e-3]),
    seed,
  };
}

/**
 * A random convolution case in qs8_conv's rows layout (src/kernels/weight-pack.ts's rowsLayout): dilation_w 1,
 * window rows of kW x inC = 8a + 1 values (3x3 over 3 channels most often, as MobileNetV2's stem), 1-8 rows,
 * images up to 13 pixels a side, the rest of randomConvCase's draw (strides, dilation_h, padding, zero points).
 */
export function randomRowsConvCase(seed: number): ConvCase {
  const r = rng(seed * 7919 + 13);
  const [kW, inC] = pick(r, [
    [3, 3],
    [3, 3],
    [3, 3],
    [1, 9],
    [9, 1],
    [3, 11],
    [1, 17],
    [5, 5],
    [7, 7],
  ] as [number, number][]);
  const kH = int(r, kW === 1 ? 2 : 1, 8);
  return { ...randomConvCase(seed, false), kH, kW, inC, dilW: 1, inH: int(r, 1, 13), inW: int(r, 1, 13), outC: int(r, 1, 21) };
}

/**
 * A random 3x3 DEPTHWISE_CONV_2D case large enough for rows of pixels whose window lies inside the input
 * (qs8_dwconv's run3x3 path: depth multiplier 1): strides 1-2, dilation 1-2, SAME / VALID, 1-40
 * channels, batches 1-3; a sixth of the cases with a multiplier of 2 (which does not take the path).
 */
export function randomDw3x3Case(seed: number): ConvCase {
  const r = rng(seed * 31 + 5);
  const base = randomConvCase(seed, true);
  const multiplier = r() < 1 / 6 ? 2 : 1;
  const inC = int(r, 1, 40);
  return {
    ...base,
    batches: int(r, 1, 3),
    inH: int(r, 3, 14),
    inW: int(r, 3, 14),
    inC,
    outC: inC * multiplier,
    kH: 3,
    kW: 3,
    strideH: int(r, 1, 2),
    strideW: int(r, 1, 2),
    dilH: r() < 0.2 ? 2 : 1,
    dilW: r() < 0.2 ? 2 : 1,
  };
}

function outSize(padding: Padding, n: number, k: number, s: number, d: number): number {
  const eff = (k - 1) * d + 1;
  return padding === Padding.SAME ? Math.ceil(n / s) : Math.floor((n - eff) / s) + 1;
}

/**
 * Runs `count` random convolution cases, made by `makeCase` from seeds 1, 2, ... (a seed whose VALID
 * padding leaves no output is skipped), through ops-reference and ops-wasm, and expects ops-wasm to serve
 * the node with the same bytes; failures name the case.
 */
export function expectConvCasesEqual(count: number, makeCase: (seed: number) => ConvCase): void {
  let ran = 0;
  for (let seed = 1; ran < count; seed++) {
    const c = makeCase(seed);
    const m = buildConv(c);
    if (!m) continue;
    const r = runBoth(m.def, [m.input]);
    expect(r.served, JSON.stringify(c)).toBe(1);
    expect(r.got[0], JSON.stringify(c)).toEqual(r.ref[0]);
    ran++;
  }
}

/** Builds the model of a convolution case, or null when VALID padding leaves no output. */
export function buildConv(c: ConvCase): { def: ModelDef; input: Int8Array } | null {
  const pre = c.pre ?? { top: 0, bottom: 0, left: 0, right: 0 };
  const padH = c.inH + pre.top + pre.bottom;
  const padW = c.inW + pre.left + pre.right;
  const outH = outSize(c.padding, padH, c.kH, c.strideH, c.dilH);
  const outW = outSize(c.padding, padW, c.kW, c.strideW, c.dilW);
  if (outH < 1 || outW < 1) return null;
  const r = rng(c.seed * 7 + 1);
  const inScale = 0.02 + r() * 0.05;
  const wScales = Array.from({ length: c.perChannel ? c.outC : 1 }, () => 0.002 + r() * 0.02);
  const k = c.depthwise ? c.kH * c.kW : c.kH * c.kW * c.inC;
  const outScale = (inScale * wScales[0]! * Math.sqrt(k) * 20) / c.gain;
  const b = new ModelBuilder();
  const filterShape = c.depthwise ? [1, c.kH, c.kW, c.outC] : [c.outC, c.kH, c.kW, c.inC];
  const wCount = filterShape.reduce((a, x) => a * x, 1);
  const weights = int8s(r, wCount);
  const u8 = c.uint8 === true;
  const type = u8 ? TensorType.UINT8 : TensorType.INT8;
  const wZp = u8 ? pick(r, [0, 255, 128, int(r, 0, 255)]) : 0;
  const inQ = { scale: inScale, zeroPoint: u8 ? c.inZp + 128 : c.inZp };
  const inT = b.addTensor({ name: 'in', type, shape: [c.batches, c.inH, c.inW, c.inC], quantization: inQ });
  let convIn = inT;
  if (c.pre) {
    convIn = b.addTensor({ name: 'padded', type, shape: [c.batches, padH, padW, c.inC], quantization: inQ });
    const paddings = b.addTensor({
      name: 'paddings',
      type: TensorType.INT32,
      shape: [4, 2],
      data: Int32Array.from([0, 0, pre.top, pre.bottom, pre.left, pre.right, 0, 0]),
    });
    const padInputs = [inT, paddings];
    if (c.pre.value !== undefined) {
      const v = u8 ? Uint8Array.of(c.pre.value) : Int8Array.of(c.pre.value);
      padInputs.push(b.addTensor({ name: 'pad_value', type, shape: [], data: v, quantization: inQ }));
    }
    b.addOperator({ op: c.pre.value !== undefined ? BuiltinOperator.PADV2 : BuiltinOperator.PAD, inputs: padInputs, outputs: [convIn] });
  }
  const wT = b.addTensor({
    name: 'w',
    type,
    shape: filterShape,
    data: u8 ? new Uint8Array(weights.buffer) : weights,
    quantization: {
      scale: c.perChannel ? wScales : wScales[0]!,
      zeroPoint: c.perChannel ? wScales.map(() => 0) : wZp,
      quantizedDimension: c.depthwise ? 3 : 0,
    },
  });
  const inputs = [convIn, wT];
  if (c.bias) {
    inputs.push(
      b.addTensor({
        name: 'b',
        type: TensorType.INT32,
        shape: [c.outC],
        data: int32s(r, c.outC, c.biasRange ?? 40000),
        // uint8: TFLite checks the bias scale against float(input scale * filter scale)
        quantization: u8
          ? { scale: Math.fround(inScale * wScales[0]!), zeroPoint: 0 }
          : { scale: wScales.map((s) => s * inScale), zeroPoint: wScales.map(() => 0) },
      }),
    );
  }
  const outT = b.addTensor({
    name: 'out',
    type,
    shape: [c.batches, outH, outW, c.outC],
    quantization: { scale: outScale, zeroPoint: u8 ? c.outZp + 128 : c.outZp },
  });
  b.addOperator({
    op: c.depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D,
    version: c.depthwise ? 3 : 3,
    inputs,
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
  b.setInputs([inT]).setOutputs([outT]);
  return { def: b.buildDef(), input: int8s(r, c.batches * c.inH * c.inW * c.inC) };
}

/**
 * A random int8 (`uint8`: TFLite's uint8, per-tensor, random filter zero point) FULLY_CONNECTED model ([batches, depth] x [units, depth]^T);
 * `shape` fixes some of the sizes (and `perChannel` the quantization) instead of drawing them.
 */
export function buildFullyConnected(
  seed: number,
  uint8 = false,
  shape: { batches?: number; depth?: number; units?: number; perChannel?: boolean } = {},
): { def: ModelDef; input: Int8Array; desc: string } {
  const r = rng(seed);
  const batches = shape.batches ?? int(r, 1, 5);
  const depth = shape.depth ?? int(r, 1, 70);
  const units = shape.units ?? int(r, 1, 19);
  const drawn = r() < 0.5;
  const perChannel = (shape.perChannel ?? drawn) && !uint8;
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const shiftZp = uint8 ? 128 : 0;
  const inZp = pick(r, [-128, 127, 0, int(r, -128, 127)]);
  const outZp = pick(r, [-128, 127, 0, int(r, -128, 127)]);
  const gain = pick(r, [1, 1, 30, 1e-3]);
  const activation = pick(r, ACTS);
  const inScale = 0.02 + r() * 0.05;
  const wScales = Array.from({ length: perChannel ? units : 1 }, () => 0.002 + r() * 0.02);
  const outScale = (inScale * wScales[0]! * Math.sqrt(depth) * 20) / gain;
  const b = new ModelBuilder();
  const inT = b.addTensor({
    name: 'in',
    type,
    shape: [batches, depth],
    quantization: { scale: inScale, zeroPoint: inZp + shiftZp },
  });
  const wData = int8s(r, units * depth);
  const wZp = uint8 ? int(r, 0, 255) : 0;
  const wT = b.addTensor({
    name: 'w',
    type,
    shape: [units, depth],
    data: uint8 ? new Uint8Array(wData.buffer) : wData,
    quantization: { scale: perChannel ? wScales : wScales[0]!, zeroPoint: perChannel ? wScales.map(() => 0) : wZp, quantizedDimension: 0 },
  });
  // per-tensor: TFLM checks the bias scale against float(input scale * filter scale)
  const bT = b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [units],
    data: int32s(r, units, 30000),
    quantization: perChannel
      ? { scale: wScales.map((s) => s * inScale), zeroPoint: wScales.map(() => 0) }
      : { scale: Math.fround(inScale * wScales[0]!), zeroPoint: 0 },
  });
  const outT = b.addTensor({
    name: 'out',
    type,
    shape: [batches, units],
    quantization: { scale: outScale, zeroPoint: outZp + shiftZp },
  });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 4,
    inputs: [inT, wT, bT],
    outputs: [outT],
    options: { fusedActivationFunction: activation },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return {
    def: b.buildDef(),
    input: int8s(r, batches * depth),
    desc: JSON.stringify({ seed, uint8, batches, depth, units, perChannel, inZp, outZp, wZp, gain, activation }),
  };
}

/**
 * A random int8 ADD (or MUL): operands of one shape, or one of them broadcast ([C], [1, 1, 1, C],
 * [1, H, 1, 1], a scalar, [1, 1, W, C]; either side).
 */
export function buildAdd(
  seed: number,
  op: BuiltinOperator.ADD | BuiltinOperator.SUB | BuiltinOperator.MUL = BuiltinOperator.ADD,
  uint8 = false,
): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const zs = uint8 ? 128 : 0; // uint8: the int8 draws' zero points + 128 (the bytes are the same)
  const r = rng(seed);
  const shape = [1, int(r, 1, 5), int(r, 1, 7), int(r, 1, 19)];
  const small = pick(r, [shape, shape, shape, [shape[3]!], [1, 1, 1, shape[3]!], [1, shape[1]!, 1, 1], [1], [1, 1, shape[2]!, shape[3]!]]);
  const swap = r() < 0.5;
  const shapeA = swap ? small : shape;
  const shapeB = swap ? shape : small;
  const nA = shapeA.reduce((a, x) => a * x, 1);
  const nB = shapeB.reduce((a, x) => a * x, 1);
  const s1 = 0.01 + r() * 0.1;
  const s2 = pick(r, [s1, 0.01 + r() * 0.1, s1 * 3.7]);
  // MUL: output scales around s1 * s2 * 128, some small enough for a multiplier > 1 (left shift)
  const so = op === BuiltinOperator.MUL ? s1 * s2 * pick(r, [128, 40, 300, 0.4]) : Math.max(s1, s2) * pick(r, [1, 2, 0.3]);
  const zps = () => pick(r, [-128, 127, 0, int(r, -128, 127)]);
  const z1 = zps();
  const z2 = zps();
  const zo = zps();
  const activation = pick(r, ACTS);
  const b = new ModelBuilder();
  const a = b.addTensor({ name: 'a', type, shape: shapeA, quantization: { scale: s1, zeroPoint: z1 + zs } });
  // a third of the cases take the second operand from the model (a constant, outside the wasm memory)
  const draw = (n: number) => (uint8 ? asUint8(int8s(r, n)) : int8s(r, n));
  const constant = r() < 0.33 ? draw(nB) : null;
  const c = b.addTensor({
    name: 'b',
    type,
    shape: shapeB,
    quantization: { scale: s2, zeroPoint: z2 + zs },
    ...(constant ? { data: uint8 ? new Uint8Array(constant.buffer) : constant } : {}),
  });
  const o = b.addTensor({ name: 'o', type, shape, quantization: { scale: so, zeroPoint: zo + zs } });
  b.addOperator({ op, version: 2, inputs: [a, c], outputs: [o], options: { fusedActivationFunction: activation } });
  b.setInputs(constant ? [a] : [a, c]).setOutputs([o]);
  return {
    def: b.buildDef(),
    inputs: constant ? [draw(nA)] : [draw(nA), draw(nB)],
    desc: JSON.stringify({ seed, uint8, shapeA, shapeB, s1, s2, so, z1, z2, zo, activation, constant: !!constant }),
  };
}

/** A random PAD of an int8 or float32 (`uint8`: TFLite's uint8) tensor of rank 1-5 (raw bytes in and out). */
export function buildPad(seed: number, uint8 = false): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const rank = int(r, 1, 5);
  const float = r() < 0.3 && !uint8;
  const shape = Array.from({ length: rank }, () => int(r, 1, 5));
  const pads = shape.flatMap(() => (r() < 0.5 ? [0, 0] : [int(r, 0, 2), int(r, 0, 2)]));
  const outShape = shape.map((d, i) => d + pads[2 * i]! + pads[2 * i + 1]!);
  const zp = uint8 ? pick(r, [0, 255, int(r, 0, 255)]) : int(r, -128, 127);
  const b = new ModelBuilder();
  const type = float ? TensorType.FLOAT32 : uint8 ? TensorType.UINT8 : TensorType.INT8;
  const q = float ? undefined : { scale: 0.1, zeroPoint: zp };
  const inT = b.addTensor({ name: 'in', type, shape, ...(q ? { quantization: q } : {}) });
  const pT = b.addTensor({ name: 'pads', type: TensorType.INT32, shape: [rank, 2], data: Int32Array.from(pads) });
  const outT = b.addTensor({ name: 'out', type, shape: outShape, ...(q ? { quantization: q } : {}) });
  b.addOperator({ op: BuiltinOperator.PAD, version: 2, inputs: [inT, pT], outputs: [outT] });
  b.setInputs([inT]).setOutputs([outT]);
  const n = shape.reduce((a, x) => a * x, 1);
  // float32: finite values (ops-reference copies floats as numbers, which may quieten NaN payloads)
  const input = float ? new Int8Array(Float32Array.from({ length: n }, () => r() * 200 - 100).buffer) : int8s(r, n, false);
  return { def: b.buildDef(), inputs: [input], desc: JSON.stringify({ seed, uint8, float, shape, pads, zp }) };
}

/**
 * A small int8 network using every ops-wasm kernel: PAD → CONV_2D 3x3 → DEPTHWISE_CONV_2D 3x3 → ADD
 * (with the convolution's output) → FULLY_CONNECTED. Input [1, 8, 8, 5], output [1, 10].
 */
export function buildChain(seed = 7): { def: ModelDef; input: Int8Array } {
  const r = rng(seed);
  const b = new ModelBuilder();
  const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, 8, 8, 5], quantization: q(0.05, -3) });
  const pads = b.addTensor({ name: 'pads', type: TensorType.INT32, shape: [4, 2], data: Int32Array.from([0, 0, 1, 1, 1, 1, 0, 0]) });
  const xp = b.addTensor({ name: 'xp', type: TensorType.INT8, shape: [1, 10, 10, 5], quantization: q(0.05, -3) });
  b.addOperator({ op: BuiltinOperator.PAD, inputs: [x, pads], outputs: [xp] });
  const w1s = Array.from({ length: 7 }, () => 0.005 + r() * 0.01);
  const w1 = b.addTensor({
    name: 'w1',
    type: TensorType.INT8,
    shape: [7, 3, 3, 5],
    data: int8s(r, 7 * 45),
    quantization: { scale: w1s, zeroPoint: w1s.map(() => 0) },
  });
  const b1 = b.addTensor({
    name: 'b1',
    type: TensorType.INT32,
    shape: [7],
    data: int32s(r, 7, 2000),
    quantization: { scale: w1s.map((s) => s * 0.05), zeroPoint: w1s.map(() => 0) },
  });
  const c1 = b.addTensor({ name: 'c1', type: TensorType.INT8, shape: [1, 8, 8, 7], quantization: q(0.04, 5) });
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 3,
    inputs: [xp, w1, b1],
    outputs: [c1],
    options: { padding: Padding.VALID, strideH: 1, strideW: 1, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const w2s = Array.from({ length: 7 }, () => 0.01 + r() * 0.02);
  const w2 = b.addTensor({
    name: 'w2',
    type: TensorType.INT8,
    shape: [1, 3, 3, 7],
    data: int8s(r, 63),
    quantization: { scale: w2s, zeroPoint: w2s.map(() => 0), quantizedDimension: 3 },
  });
  const b2 = b.addTensor({
    name: 'b2',
    type: TensorType.INT32,
    shape: [7],
    data: int32s(r, 7, 2000),
    quantization: { scale: w2s.map((s) => s * 0.04), zeroPoint: w2s.map(() => 0) },
  });
  const d1 = b.addTensor({ name: 'd1', type: TensorType.INT8, shape: [1, 8, 8, 7], quantization: q(0.05, -10) });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 3,
    inputs: [c1, w2, b2],
    outputs: [d1],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, depthMultiplier: 1 },
  });
  const s1 = b.addTensor({ name: 's1', type: TensorType.INT8, shape: [1, 8, 8, 7], quantization: q(0.07, 0) });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [c1, d1], outputs: [s1] });
  const w3 = b.addTensor({
    name: 'w3',
    type: TensorType.INT8,
    shape: [10, 448],
    data: int8s(r, 4480),
    quantization: { scale: 0.004, zeroPoint: 0 },
  });
  const b3 = b.addTensor({
    name: 'b3',
    type: TensorType.INT32,
    shape: [10],
    data: int32s(r, 10, 5000),
    quantization: { scale: Math.fround(0.07 * 0.004), zeroPoint: 0 },
  });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, 10], quantization: q(0.3, 2) });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, version: 4, inputs: [s1, w3, b3], outputs: [y] });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), input: int8s(r, 320) };
}

/** A random int8 AVERAGE_POOL_2D or MAX_POOL_2D. */
export function buildPool(
  seed: number,
  op: BuiltinOperator.AVERAGE_POOL_2D | BuiltinOperator.MAX_POOL_2D,
  uint8 = false,
): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const [batches, inH, inW, C] = [int(r, 1, 2), int(r, 1, 9), int(r, 1, 9), int(r, 1, 35)];
  const fH = int(r, 1, Math.min(inH, 4));
  const fW = int(r, 1, Math.min(inW, 4));
  const sH = int(r, 1, 3);
  const sW = int(r, 1, 3);
  const padding = r() < 0.5 ? Padding.SAME : Padding.VALID;
  const outH = padding === Padding.SAME ? Math.ceil(inH / sH) : Math.floor((inH - fH) / sH) + 1;
  const outW = padding === Padding.SAME ? Math.ceil(inW / sW) : Math.floor((inW - fW) / sW) + 1;
  const zp = pick(r, [-128, 127, 0, int(r, -128, 127)]);
  const activation = pick(r, ACTS);
  const b = new ModelBuilder();
  const q = { scale: 0.05, zeroPoint: uint8 ? zp + 128 : zp };
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const x = b.addTensor({ name: 'x', type, shape: [batches, inH, inW, C], quantization: q });
  const y = b.addTensor({ name: 'y', type, shape: [batches, outH, outW, C], quantization: q });
  b.addOperator({
    op,
    version: 2,
    inputs: [x],
    outputs: [y],
    options: { padding, strideH: sH, strideW: sW, filterHeight: fH, filterWidth: fW, fusedActivationFunction: activation },
  });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [uint8 ? asUint8(int8s(r, batches * inH * inW * C)) : int8s(r, batches * inH * inW * C)],
    desc: JSON.stringify({ seed, uint8, batches, inH, inW, C, fH, fW, sH, sW, padding, zp, activation }),
  };
}

/**
 * A random QUANTIZE (float32 or int8 to int8) or DEQUANTIZE (int8 to float32) of n elements. Float
 * inputs include exact ties (k + 1/2) x scale, values just beside them, huge values, infinities and NaN.
 * `u8` makes the quantized input and/or output TFLite's uint8 (zero points + 128, values flipped).
 */
export function buildQuantize(
  seed: number,
  kind: 'from-float' | 'requantize' | 'dequantize',
  u8: { input?: boolean; output?: boolean } = {},
): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const n = int(r, 1, 40);
  const scale = pick(r, [0.1, 0.0625, 0.3, 1 / 3, 0.007, 2.5]);
  const inU8 = u8.input === true;
  const outU8 = u8.output === true;
  const inType = inU8 ? TensorType.UINT8 : TensorType.INT8;
  const outType = outU8 ? TensorType.UINT8 : TensorType.INT8;
  // dequantize: the zero point is the (quantized) input's
  const zp = pick(r, [-128, 127, 0, int(r, -128, 127)]) + ((kind === 'dequantize' ? inU8 : outU8) ? 128 : 0);
  const b = new ModelBuilder();
  let input: Int8Array;
  let x: number;
  let y: number;
  if (kind === 'from-float') {
    const values = Float32Array.from({ length: n }, () => {
      const k = int(r, -200, 200);
      switch (int(r, 0, 6)) {
        case 0:
          return (k + 0.5) * scale;
        case 1:
          return Math.fround((k + 0.5) * scale) * (1 + 1e-7);
        case 2:
          return pick(r, [1e20, -1e20, 3e9, -3e9, Infinity, -Infinity, NaN, 2147483648 * scale, -2147483904 * scale]);
        default:
          return (r() * 400 - 200) * scale;
      }
    });
    input = new Int8Array(values.buffer);
    x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [n] });
    y = b.addTensor({ name: 'y', type: outType, shape: [n], quantization: { scale, zeroPoint: zp } });
  } else if (kind === 'requantize') {
    input = inU8 ? asUint8(int8s(r, n)) : int8s(r, n);
    // uint8 <-> int8 with one scale and zero points 128 apart: TFLite's sign-bit flip
    const flip = inU8 !== outU8 && r() < 0.2;
    x = b.addTensor({
      name: 'x',
      type: inType,
      shape: [n],
      quantization: flip
        ? { scale, zeroPoint: zp + (inU8 ? 128 : -128) }
        : { scale: scale * pick(r, [1, 0.5, 3.7, 0.013]), zeroPoint: inU8 ? pick(r, [0, 255, int(r, 0, 255)]) : int(r, -128, 127) },
    });
    y = b.addTensor({ name: 'y', type: outType, shape: [n], quantization: { scale, zeroPoint: zp } });
  } else {
    input = inU8 ? asUint8(int8s(r, n)) : int8s(r, n);
    x = b.addTensor({ name: 'x', type: inType, shape: [n], quantization: { scale, zeroPoint: zp } });
    y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [n] });
  }
  b.addOperator({
    op: kind === 'dequantize' ? BuiltinOperator.DEQUANTIZE : BuiltinOperator.QUANTIZE,
    version: 2,
    inputs: [x],
    outputs: [y],
  });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), inputs: [input], desc: JSON.stringify({ seed, kind, inU8, outU8, n, scale, zp }) };
}

/**
 * A random CONCATENATION of 1-4 int8 or float32 tensors of rank 1-4 along a random (maybe negative)
 * axis; `uint8`: TFLite's uint8 with larger dimensions, each input quantized like the output or not
 * (requantized: scale ratios below and above 1, zero points 0, 255 and between).
 */
export function buildConcat(seed: number, uint8 = false): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const rank = int(r, 1, 4);
  const float = r() < 0.4 && !uint8;
  const n = int(r, 1, 4);
  const base = Array.from({ length: rank }, () => int(r, 1, uint8 ? 9 : 4));
  const axis = int(r, 0, rank - 1);
  const sizes = Array.from({ length: n }, () => int(r, 1, 3));
  const type = float ? TensorType.FLOAT32 : uint8 ? TensorType.UINT8 : TensorType.INT8;
  const q = float ? {} : { quantization: { scale: 0.1, zeroPoint: int(r, -128, 127) + (uint8 ? 128 : 0) } };
  const b = new ModelBuilder();
  const constIndex = n > 1 && r() < 0.4 ? int(r, 0, n - 1) : -1;
  const bytesOf = (s: number) => (base.reduce((a, d) => a * d, 1) / base[axis]!) * s * (float ? 4 : 1);
  const ins = sizes.map((s, i) =>
    b.addTensor({
      name: `x${i}`,
      type,
      shape: base.map((d, k) => (k === axis ? s : d)),
      ...(uint8 && r() < 0.6
        ? {
            quantization: {
              scale: 0.1 * pick(r, [0.5, 3.7, 0.013, 40, 1]),
              zeroPoint: pick(r, [0, 255, q.quantization!.zeroPoint, int(r, 0, 255)]),
            },
          }
        : q),
      ...(i === constIndex
        ? {
            data: float
              ? new Float32Array(bytesOf(s) / 4).fill(1.5)
              : uint8
                ? new Uint8Array(asUint8(int8s(r, bytesOf(s))).buffer)
                : int8s(r, bytesOf(s)),
          }
        : {}),
    }),
  );
  const out = b.addTensor({ name: 'y', type, shape: base.map((d, k) => (k === axis ? sizes.reduce((a, x) => a + x, 0) : d)), ...q });
  b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: ins, outputs: [out], options: { axis: r() < 0.5 ? axis : axis - rank } });
  b.setInputs(ins.filter((_, i) => i !== constIndex)).setOutputs([out]);
  // float32: finite values (ops-reference copies floats as numbers, which may quieten NaN payloads)
  const inputs = sizes
    .filter((_, i) => i !== constIndex)
    .map((s) =>
      float
        ? new Int8Array(Float32Array.from({ length: bytesOf(s) / 4 }, () => r() * 100 - 50).buffer)
        : uint8
          ? asUint8(int8s(r, bytesOf(s)))
          : int8s(r, bytesOf(s), false),
    );
  return { def: b.buildDef(), inputs, desc: JSON.stringify({ seed, uint8, float, base, axis, sizes, constIndex }) };
}

/** A random int8 (`uint8`: TFLite's uint8) MEAN over the spatial axes of an NHWC tensor. */
export function buildMean(seed: number, uint8 = false): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const [batches, h, w, c] = [int(r, 1, 2), int(r, 1, 14), int(r, 1, 14), int(r, 1, 21)];
  const keepDims = r() < 0.5;
  const axes = pick(r, [
    [1, 2],
    [2, 1],
    [-3, -2],
    [1, -2],
  ]);
  const zs = uint8 ? 128 : 0;
  const inQ = { scale: 0.05, zeroPoint: pick(r, [-128, 127, 0, int(r, -128, 127)]) + zs };
  const outQ = { scale: 0.05 * pick(r, [1, 0.3, 2.7, 0.01]), zeroPoint: pick(r, [-128, 127, 0, int(r, -128, 127)]) + zs };
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type, shape: [batches, h, w, c], quantization: inQ });
  const a = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [2], data: Int32Array.from(axes) });
  const y = b.addTensor({ name: 'y', type, shape: keepDims ? [batches, 1, 1, c] : [batches, c], quantization: outQ });
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [x, a], outputs: [y], options: { keepDims } });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [uint8 ? asUint8(int8s(r, batches * h * w * c)) : int8s(r, batches * h * w * c)],
    desc: JSON.stringify({ seed, uint8, batches, h, w, c, keepDims, axes, inQ, outQ }),
  };
}

/**
 * A random int8 SOFTMAX (int8 or int16 output) over rows of 1-40 values, random input scales and betas;
 * `uint8`: TFLite's uint8 in and out (output scale 1/256 or another, zero point 0).
 */
export function buildSoftmax(seed: number, uint8 = false): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const outer = int(r, 1, 4);
  const depth = int(r, 1, 40);
  const int16 = r() < 0.3 && !uint8;
  const scale = pick(r, [0.05, 0.1, 0.5, 0.0039, 1.3, 0.02]);
  const beta = pick(r, [1, 1, 0.5, 2.5]);
  const b = new ModelBuilder();
  const x = b.addTensor({
    name: 'x',
    type: uint8 ? TensorType.UINT8 : TensorType.INT8,
    shape: [outer, depth],
    quantization: { scale, zeroPoint: int(r, -128, 127) + (uint8 ? 128 : 0) },
  });
  const y = b.addTensor({
    name: 'y',
    type: int16 ? TensorType.INT16 : uint8 ? TensorType.UINT8 : TensorType.INT8,
    shape: [outer, depth],
    quantization: int16
      ? { scale: 1 / 65536, zeroPoint: -32768 }
      : uint8
        ? { scale: pick(r, [1 / 256, 1 / 256, 1 / 100, 1 / 300]), zeroPoint: 0 }
        : { scale: 1 / 256, zeroPoint: -128 },
  });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [x], outputs: [y], options: { beta } });
  b.setInputs([x]).setOutputs([y]);
  const input = int8s(r, outer * depth);
  return {
    def: b.buildDef(),
    inputs: [uint8 ? asUint8(input) : input],
    desc: JSON.stringify({ seed, uint8, outer, depth, int16, scale, beta }),
  };
}

/** What buildLstm draws at random unless given. */
export interface LstmCase {
  timeMajor: boolean;
  B: number;
  T: number;
  I: number;
  S: number;
  cellClip: number;
  hiddenScale: number;
  cellScale: number;
  /** The cell gate activation (TFLM's int8 LSTM takes TANH only). */
  activation: ActivationFunctionType;
}

/**
 * A random int8 UNIDIRECTIONAL_SEQUENCE_LSTM (int8 input, weights and hidden state, int32 biases, int16
 * cell state): odd input and state sizes, batch-major or time-major with one to three batches, cell
 * clipping on or off, cell scales 2^-10 to 2^-13; `fixed` overrides any of these. Returns the model and
 * one input.
 */
export function buildLstm(seed: number, fixed: Partial<LstmCase> = {}): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const drawn: LstmCase = {
    timeMajor: r() < 0.3,
    B: int(r, 1, 3),
    T: int(r, 1, 6),
    I: int(r, 1, 21),
    S: int(r, 1, 19),
    cellClip: pick(r, [0, 0, 3, 0.5]),
    hiddenScale: 1 / 128,
    cellScale: 2 ** -int(r, 10, 13),
    activation: ActivationFunctionType.TANH,
  };
  const { timeMajor, B, T, I, S, cellClip, hiddenScale, cellScale, activation } = { ...drawn, ...fixed };
  const inQ = { scale: 0.02 + r() * 0.1, zeroPoint: int(r, -128, 127) };
  const hQ = { scale: hiddenScale, zeroPoint: int(r, -5, 5) };
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: timeMajor ? [T, B, I] : [B, T, I], quantization: inQ });
  const weights = (rows: number, cols: number, name: string) =>
    b.addTensor({
      name,
      type: TensorType.INT8,
      shape: [rows, cols],
      data: int8s(r, rows * cols),
      quantization: { scale: 0.002 + r() * 0.01, zeroPoint: 0 },
    });
  const inputW = [0, 1, 2, 3].map((g) => weights(S, I, `wi${g}`)); // input, forget, cell, output
  const recW = [0, 1, 2, 3].map((g) => weights(S, S, `wr${g}`));
  const bias = [0, 1, 2, 3].map((g) =>
    b.addTensor({
      name: `b${g}`,
      type: TensorType.INT32,
      shape: [S],
      data: int32s(r, S, 3000),
      quantization: { scale: 1e-4, zeroPoint: 0 },
    }),
  );
  const h = b.addTensor({ name: 'h', type: TensorType.INT8, shape: [B, S], variable: true, quantization: hQ });
  const c = b.addTensor({
    name: 'c',
    type: TensorType.INT16,
    shape: [B, S],
    variable: true,
    quantization: { scale: cellScale, zeroPoint: 0 },
  });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: timeMajor ? [T, B, S] : [B, T, S], quantization: hQ });
  const inputs = [x, ...inputW, ...recW, -1, -1, -1, ...bias, -1, -1, h, c, -1, -1, -1, -1];
  b.addOperator({
    op: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 1,
    inputs,
    outputs: [y],
    options: { fusedActivationFunction: activation, cellClip, projClip: 0, timeMajor, asymmetricQuantizeInputs: false },
  });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [int8s(r, B * T * I)],
    desc: JSON.stringify({ seed, timeMajor, B, T, I, S, cellClip, hiddenScale, cellScale }),
  };
}

/**
 * A small TFLite-uint8 network through every uint8 kernel of ops-wasm but the weighted ones: QUANTIZE
 * (float32 to uint8) → PAD → MAX_POOL_2D 2x2 → MUL (by itself) → CONCATENATION (with the pooled tensor;
 * the product requantized) → AVERAGE_POOL_2D 2x2 → MEAN over H and W → SOFTMAX → DEQUANTIZE (uint8 to
 * float32, output 0) and QUANTIZE (uint8 to int8, output 1). Input float32 [1, 6, 6, 5].
 */
export function buildUint8Chain(seed = 3): { def: ModelDef; input: Int8Array } {
  const r = rng(seed);
  const b = new ModelBuilder();
  const U8 = TensorType.UINT8;
  const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
  const u8 = (name: string, shape: number[], scale: number, zeroPoint: number) =>
    b.addTensor({ name, type: U8, shape, quantization: q(scale, zeroPoint) });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 6, 6, 5] });
  const xq = u8('xq', [1, 6, 6, 5], 0.05, 120);
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [x], outputs: [xq] });
  const pads = b.addTensor({ name: 'pads', type: TensorType.INT32, shape: [4, 2], data: Int32Array.from([0, 0, 1, 1, 1, 1, 0, 0]) });
  const xp = u8('xp', [1, 8, 8, 5], 0.05, 120);
  b.addOperator({ op: BuiltinOperator.PAD, inputs: [xq, pads], outputs: [xp] });
  const m = u8('m', [1, 4, 4, 5], 0.05, 120);
  const pool = { padding: Padding.VALID, strideH: 2, strideW: 2, filterHeight: 2, filterWidth: 2 };
  b.addOperator({ op: BuiltinOperator.MAX_POOL_2D, inputs: [xp], outputs: [m], options: pool });
  const sq = u8('sq', [1, 4, 4, 5], 0.1, 30); // quantized unlike the concatenation: requantized there
  b.addOperator({
    op: BuiltinOperator.MUL,
    inputs: [m, m],
    outputs: [sq],
    options: { fusedActivationFunction: ActivationFunctionType.NONE },
  });
  const cat = u8('cat', [1, 4, 4, 10], 0.05, 120);
  b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: [m, sq], outputs: [cat], options: { axis: 3 } });
  const avg = u8('avg', [1, 3, 3, 10], 0.05, 120);
  b.addOperator({ op: BuiltinOperator.AVERAGE_POOL_2D, inputs: [cat], outputs: [avg], options: { ...pool, strideH: 1, strideW: 1 } });
  const axes = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [2], data: Int32Array.from([1, 2]) });
  const mean = u8('mean', [1, 10], 0.03, 100);
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [avg, axes], outputs: [mean], options: { keepDims: false } });
  const sm = u8('sm', [1, 10], 1 / 256, 0);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [mean], outputs: [sm], options: { beta: 1 } });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 10] });
  b.addOperator({ op: BuiltinOperator.DEQUANTIZE, inputs: [sm], outputs: [y] });
  const y8 = b.addTensor({ name: 'y8', type: TensorType.INT8, shape: [1, 10], quantization: q(1 / 256, -128) });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [sm], outputs: [y8] });
  b.setInputs([x]).setOutputs([y, y8]);
  const input = Float32Array.from({ length: 180 }, () => r() * 14 - 6);
  return { def: b.buildDef(), input: new Int8Array(input.buffer) };
}
