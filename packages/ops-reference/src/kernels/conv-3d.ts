/**
 * CONV_3D (TFLite conv3d.cc, reference_ops::Conv3D): float32 input [n, d, h, w, c_in] convolved with a
 * float32 filter [kd, kh, kw, c_in, c_out] (strides, dilations, SAME/VALID padding per Conv3DOptions),
 * plus the optional bias [c_out], then the fused activation. Each output sums its taps in the reference
 * order (TFLite's default kernel uses im2col and a GEMM, which sums in another order: float results
 * agree within tolerance).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { conv3DGeometry, type Conv3DGeometry } from './conv-3d-common.js';

const OP = 'CONV_3D';
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface Conv3DOpData {
  g: Conv3DGeometry | null;
  /** n, d, h, w, c_in of the input; kd, kh, kw of the filter; c_out. */
  inDims: Int32Array;
  filterDims: Int32Array;
  outChannels: number;
  hasBias: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  expectType(OP, node, 'input', input, F32);
  expectType(OP, node, 'filter', filter, F32);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), F32);
  expectRank(OP, node, 'input', input, 5);
  expectRank(OP, node, 'filter', filter, 5);
  if (input.dims[4] !== filter.dims[3])
    throw new KernelError(OP, node.index, `input has ${input.dims[4]} channels, the filter takes ${filter.dims[3]}`);
  const cOut = filter.dims[4]!;
  if (bias) {
    expectType(OP, node, 'bias', bias, F32);
    if (bias.elementCount !== cOut)
      throw new KernelError(OP, node.index, `bias has ${bias.elementCount} values for ${cOut} output channels`);
  }
  const g = conv3DGeometry(OP, node, [input.dims[1]!, input.dims[2]!, input.dims[3]!], [filter.dims[0]!, filter.dims[1]!, filter.dims[2]!]);
  setOutputShape(OP, context, node, 0, [input.dims[0]!, g.out[0], g.out[1], g.out[2], cOut]);
  const d = opData<Conv3DOpData>(OP, node);
  d.g = g;
  d.inDims = Int32Array.from(input.dims);
  d.filterDims = Int32Array.from(filter.dims);
  d.outChannels = cOut;
  d.hasBias = bias !== null;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<Conv3DOpData>(OP, node);
  const g = d.g!;
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const w = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  const b = d.hasBias ? (context.getEvalTensor(node.inputs[2]!).data as Float32Array) : null;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const di = d.inDims;
  const n = di[0]!,
    inD = di[1]!,
    inH = di[2]!,
    inW = di[3]!,
    cIn = di[4]!;
  const kd = d.filterDims[0]!,
    kh = d.filterDims[1]!,
    kw = d.filterDims[2]!;
  const cOut = d.outChannels;
  const outD = g.out[0],
    outH = g.out[1],
    outW = g.out[2];
  const sd = g.stride[0],
    sh = g.stride[1],
    sw = g.stride[2];
  const dd = g.dilation[0],
    dh = g.dilation[1],
    dw = g.dilation[2];
  const pd = g.pad[0],
    ph = g.pad[1],
    pw = g.pad[2];
  const f = Math.fround;
  let o = 0;
  for (let bi = 0; bi < n; bi++)
    for (let od = 0; od < outD; od++)
      for (let oy = 0; oy < outH; oy++)
        for (let ox = 0; ox < outW; ox++)
          for (let oc = 0; oc < cOut; oc++, o++) {
            let total = 0;
            for (let fd = 0; fd < kd; fd++) {
              const id = od * sd - pd + dd * fd;
              if (id < 0 || id >= inD) continue;
              for (let fy = 0; fy < kh; fy++) {
                const iy = oy * sh - ph + dh * fy;
                if (iy < 0 || iy >= inH) continue;
                for (let fx = 0; fx < kw; fx++) {
                  const ix = ox * sw - pw + dw * fx;
                  if (ix < 0 || ix >= inW) continue;
                  const xi = (((bi * inD + id) * inH + iy) * inW + ix) * cIn;
                  const wi = ((fd * kh + fy) * kw + fx) * cIn * cOut + oc;
                  for (let ic = 0; ic < cIn; ic++) total = f(total + f(x[xi + ic]! * w[wi + ic * cOut]!));
                }
              }
            }
            const v = f(total + (b ? b[oc]! : 0));
            y[o] = v < g.actMin ? g.actMin : v > g.actMax ? g.actMax : v;
          }
}

/** CONV_3D registration (op version 1). */
export const CONV_3D: Registration<Conv3DOpData> = {
  builtinCode: BuiltinOperator.CONV_3D,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, [2, 3], 1) ?? declineTypes(context, node, [0, 1], F32) ?? true,
  init: () => ({ g: null, inDims: new Int32Array(5), filterDims: new Int32Array(5), outChannels: 0, hasBias: false }),
  prepare,
  invoke,
};
