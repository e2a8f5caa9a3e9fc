/**
 * STABLEHLO_PAD (LiteRT tflite/kernels/stablehlo_pad.cc; StableHLO's `pad`): input element `i` lands at
 * output position `edge_padding_low + i × (interior_padding + 1)` in every dimension, every other output
 * element is the scalar padding value (input 1). Negative edge padding crops. Output dimension:
 * `low + high + size + (size − 1) × interior`; when any is ≤ 0 the output is empty and, as LiteRT, every
 * dimension of it is 0. Any element type with a fixed size (the kernel copies bytes), rank 1 to 8
 * (TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT); option vectors shorter than the rank read as 0.
 */
import {
  BuiltinOperator,
  KernelError,
  elementSize,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type StablehloPadOptions,
  type TfLiteContext,
} from '@micrort/core';
import { expectSameType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

const OP = 'STABLEHLO_PAD';
/** TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT. */
export const STABLEHLO_MAX_DIMS = 8;

interface OpData {
  input: EvalTensor | null;
  value: EvalTensor | null;
  output: EvalTensor | null;
  elementBytes: number;
  inDims: Int32Array;
  outDims: Int32Array;
  low: Int32Array;
  step: Int32Array;
  /** Output strides in bytes. */
  outStrides: Int32Array;
  /** The input index being copied (invoke's odometer, allocated once). */
  index: Int32Array;
  empty: boolean;
}

/** Option vector entry `d`, 0 past its end. */
const at = (v: ArrayLike<number> | undefined, d: number): number => (v && d < v.length ? v[d]! : 0);

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const params = node.builtinData as Partial<StablehloPadOptions> | null;
  if (!params) throw new KernelError(OP, node.index, 'StablehloPadOptions are missing');
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const value = context.getTensor(node.inputs[1]!);
  expectSameType(OP, node, 'input and padding value', input, value);
  if (value.elementCount !== 1)
    throw new KernelError(OP, node.index, `the padding value must have 1 element, it has ${value.elementCount}`);
  const size = elementSize(input.type);
  if (size === undefined) throw new KernelError(OP, node.index, `${tensorTypeName(input.type)} elements have no fixed size`);
  const rank = input.dims.length;
  if (rank < 1 || rank > STABLEHLO_MAX_DIMS)
    throw new KernelError(OP, node.index, `input rank must be between 1 and ${STABLEHLO_MAX_DIMS}, it is ${rank}`);
  for (const [name, v] of [
    ['edge_padding_low', params.edgePaddingLow],
    ['edge_padding_high', params.edgePaddingHigh],
    ['interior_padding', params.interiorPadding],
  ] as const)
    if (v && v.length > STABLEHLO_MAX_DIMS)
      throw new KernelError(OP, node.index, `${name} has ${v.length} entries, at most ${STABLEHLO_MAX_DIMS}`);
  const outDims = new Int32Array(rank);
  const step = new Int32Array(rank);
  const low = new Int32Array(rank);
  let empty = false;
  for (let k = 0; k < rank; k++) {
    const interior = at(params.interiorPadding, k);
    if (interior < 0) throw new KernelError(OP, node.index, `interior_padding[${k}] = ${interior} is negative`);
    const n = input.dims[k]!;
    const dim = n + (n > 0 ? n - 1 : 0) * interior + at(params.edgePaddingLow, k) + at(params.edgePaddingHigh, k);
    if (dim > 0x7fffffff) throw new KernelError(OP, node.index, `output dimension ${k} (${dim}) does not fit in int32`);
    outDims[k] = dim;
    step[k] = interior + 1;
    low[k] = at(params.edgePaddingLow, k);
    if (dim <= 0) empty = true;
  }
  if (empty) outDims.fill(0);
  const output = setOutputShape(OP, context, node, 0, outDims);
  expectSameType(OP, node, 'input and output', input, output);
  const outStrides = new Int32Array(rank);
  let stride = size;
  for (let k = rank - 1; k >= 0; k--) {
    outStrides[k] = stride;
    stride *= outDims[k]!;
  }
  Object.assign(d, {
    input: context.getEvalTensor(node.inputs[0]!),
    value: context.getEvalTensor(node.inputs[1]!),
    output: context.getEvalTensor(node.outputs[0]!),
    elementBytes: size,
    inDims: Int32Array.from(input.dims),
    outDims,
    low,
    step,
    outStrides,
    index: new Int32Array(rank),
    empty,
  });
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const out = d.output!.bytes;
  if (d.empty || out.length === 0) return;
  const es = d.elementBytes;
  const value = d.value!.bytes;
  for (let p = 0; p < out.length; p += es) for (let b = 0; b < es; b++) out[p + b] = value[b]!;
  const input = d.input!.bytes;
  const { inDims, outDims, low, step, outStrides, index } = d;
  const rank = inDims.length;
  index.fill(0);
  for (let src = 0; src < input.length; src += es) {
    let dst = 0;
    let inside = true;
    for (let k = 0; k < rank; k++) {
      const o = low[k]! + index[k]! * step[k]!;
      if (o < 0 || o >= outDims[k]!) {
        inside = false;
        break;
      }
      dst += o * outStrides[k]!;
    }
    if (inside) for (let b = 0; b < es; b++) out[dst + b] = input[src + b]!;
    for (let k = rank - 1; k >= 0; k--) {
      if (++index[k]! < inDims[k]!) break;
      index[k] = 0;
    }
  }
}

/** The reference STABLEHLO_PAD kernel. */
export const STABLEHLO_PAD: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_PAD,
  provider: PROVIDER,
  name: OP,
  init: () => ({
    input: null,
    value: null,
    output: null,
    elementBytes: 0,
    inDims: new Int32Array(0),
    outDims: new Int32Array(0),
    low: new Int32Array(0),
    step: new Int32Array(0),
    outStrides: new Int32Array(0),
    index: new Int32Array(0),
    empty: true,
  }),
  prepare,
  invoke,
};
