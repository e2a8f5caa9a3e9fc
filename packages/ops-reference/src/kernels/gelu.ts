/**
 * GELU (TFLite activations.cc GeluPrepare/GeluEval, reference/gelu.h): x·Φ(x), exact
 * (0.5·x·(1 + erf(x/√2))) or, with `approximate`, the tanh form 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
 * float32 computes the formula per element; uint8 and int8 look every value up in a 256-entry table
 * that prepare fills as TFLite's PopulateLookupTable does (dequantize, transform in float, round to
 * the output's quantization, clamp). The exact form is TFLite 2.9's: erf in double precision and the
 * result rounded once to float; the tanh form is computed in float as TFLite writes it.
 */
import { BuiltinOperator, TensorType, type GeluOptions, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, expectQuantized, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';
import { lookupBytes } from './unary-common.js';

const OP = 'GELU';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT8];

interface GeluOpData {
  type: TensorType;
  count: number;
  approximate: boolean;
  /** uint8/int8: the output byte of each input byte (persistent, TFLite's OpData::table). */
  table: Uint8Array;
}

const TWO_OVER_SQRT_PI = 1.1283791670955126;
const SQRT1_2 = 0.7071067811865476;
const SQRT_PI = 1.772453850905516;

/**
 * erf(x) in double precision (within a few ulps): the series 2/√π·e^{-x²}·Σ (2x²)^n·x/(2n+1)!! (all
 * terms positive) for |x| ≤ 2.5, 1 − erfc(|x|) from erfc's continued fraction beyond.
 */
export function erf(x: number): number {
  const a = Math.abs(x);
  if (a <= 2.5) {
    const x2 = 2 * x * x;
    let t = x;
    let s = x;
    for (let n = 1; n < 100; n++) {
      t *= x2 / (2 * n + 1);
      s += t;
      if (Math.abs(t) < Math.abs(s) * 1e-17) break;
    }
    return TWO_OVER_SQRT_PI * Math.exp(-x * x) * s;
  }
  let f = 0;
  for (let n = 50; n >= 1; n--) f = n / 2 / (a + f);
  const c = Math.exp(-a * a) / SQRT_PI / (a + f);
  return x > 0 ? 1 - c : c - 1;
}

const K_SQRT_2_OVER_PI = Math.fround(TWO_OVER_SQRT_PI * SQRT1_2);
const K_CUBIC = Math.fround(0.044715);

/** TFLite 2.9's GeluTransform: 0.5f·x·(1 + erf(x·M_SQRT1_2)) evaluated in double, returned as float. */
export function geluExact(x: number): number {
  return Math.fround(0.5 * x * (1 + erf(x * SQRT1_2)));
}

/** TFLite's GeluTransformApproximate, in float: 0.5f·x·(1.f + tanhf(√(2/π)·(x + 0.044715f·x·x·x))). */
export function geluApproximate(x: number): number {
  const f = Math.fround;
  const cubic = f(f(f(K_CUBIC * x) * x) * x);
  const t = f(Math.tanh(f(K_SQRT_2_OVER_PI * f(x + cubic))));
  return f(f(0.5 * x) * f(1 + t));
}

/** TFLite's PopulateLookupTable<T> for GELU: table[byte of v] = clamp(round(gelu(s_in·(v − zp_in)) / s_out) + zp_out). */
function populateTable(
  table: Uint8Array,
  signed: boolean,
  inScale: number,
  inZp: number,
  outScale: number,
  outZp: number,
  approx: boolean,
): void {
  const f = Math.fround;
  const inverse = f(1 / outScale);
  const [lo, hi] = signed ? [-128, 127] : [0, 255];
  for (let v = lo; v <= hi; v++) {
    const x = f(inScale * (v - inZp));
    const y = approx ? geluApproximate(x) : geluExact(x);
    const p = f(y * inverse);
    const rounded = p < 0 ? -Math.round(-p) : Math.round(p);
    const q = Math.trunc(f(rounded + outZp));
    table[v & 0xff] = Math.max(lo, Math.min(hi, q)) & 0xff;
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<GeluOpData>(OP, node);
  const { input, output, count } = prepareUnary(OP, context, node, TYPES);
  data.type = input.type;
  data.count = count;
  data.approximate = (node.builtinData as GeluOptions | null)?.approximate ?? false;
  if (input.type !== TensorType.FLOAT32) {
    expectQuantized(OP, node, 'input', input);
    expectQuantized(OP, node, 'output', output);
    populateTable(
      data.table,
      input.type === TensorType.INT8,
      input.params.scale,
      input.params.zeroPoint,
      output.params.scale,
      output.params.zeroPoint,
      data.approximate,
    );
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<GeluOpData>(OP, node);
  const n = data.count;
  if (data.type === TensorType.FLOAT32) {
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    if (data.approximate) for (let i = 0; i < n; i++) y[i] = geluApproximate(x[i]!);
    else for (let i = 0; i < n; i++) y[i] = 0.5 * x[i]! * (1 + erf(x[i]! * SQRT1_2));
    return;
  }
  lookupBytes(data.table, context.getEvalTensor(node.inputs[0]!).bytes, context.getEvalTensor(node.outputs[0]!).bytes, n);
}

/** GELU registration (op versions 1..2). */
export const GELU: Registration = {
  builtinCode: BuiltinOperator.GELU,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: (context): GeluOpData => ({
    type: TensorType.FLOAT32,
    count: 0,
    approximate: false,
    table: context.allocatePersistentBuffer(256).u8,
  }),
  prepare,
  invoke,
};
