/**
 * CONV_3D_TRANSPOSE (TFLite conv3d_transpose.cc, reference_ops::Conv3DTranspose): the float32 input
 * [n, d, h, w, c_in] scattered through the float32 filter [kd, kh, kw, c_out, c_in] into an output of the
 * int32 `output_shape` [n, d', h', w', c_out] (strides, dilations, SAME/VALID padding computed as for the
 * convolution from the output's sizes), then the optional bias (bias[c] on output channel c; TFLite
 * requires c_in values, so c_out ≤ c_in here) and the fused activation. The
 * output shape is read in prepare from a constant; a runtime shape has no bound (data-dependent-shape.ts).
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
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts, expectShapeValues } from './tflite-ops-common.js';

const OP = 'CONV_3D_TRANSPOSE';
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface Conv3DTransposeOpData {
  g: Conv3DGeometry | null;
  inDims: Int32Array;
  outDims: Int32Array;
  filterDims: Int32Array;
  outputSize: number;
  hasBias: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, [3, 4], 1);
  const shapeTensor = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const input = getInput(context, node, 2, OP);
  const bias = getOptionalInput(context, node, 3);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'output_shape', shapeTensor, [TensorType.INT32]);
  expectType(OP, node, 'filter', filter, F32);
  expectType(OP, node, 'input', input, F32);
  expectType(OP, node, 'output', output, F32);
  expectRank(OP, node, 'input', input, 5);
  expectRank(OP, node, 'filter', filter, 5);
  if (shapeTensor.elementCount !== 5)
    throw new KernelError(OP, node.index, `output_shape has ${shapeTensor.elementCount} values, expected 5`);
  if (input.dims[4] !== filter.dims[4])
    throw new KernelError(OP, node.index, `input has ${input.dims[4]} channels, the filter takes ${filter.dims[4]}`);
  const shape = constantInts(OP, node, shapeTensor, 'output_shape');
  if (shape === null) noShapeBound(OP, context, node, 0, 'the output_shape input is not constant');
  expectShapeValues(OP, node, 'output_shape', shape);
  if (shape[0] !== input.dims[0] || shape[4] !== filter.dims[3])
    throw new KernelError(
      OP,
      node.index,
      `output_shape [${shape.join(',')}] does not match the input's batch and the filter's output channels`,
    );
  if (bias) {
    // TFLite checks the bias against the filter's input channels (dims[4]) and adds bias[output channel]:
    // a model passes its check only with as many bias values as input channels, and reads past the bias
    // when there are more output channels than that — refused here.
    expectType(OP, node, 'bias', bias, F32);
    if (bias.elementCount !== filter.dims[4])
      throw new KernelError(
        OP,
        node.index,
        `bias has ${bias.elementCount} values, TFLite requires the filter's ${filter.dims[4]} input channels`,
      );
    if (filter.dims[3]! > bias.elementCount)
      throw new KernelError(OP, node.index, `${filter.dims[3]} output channels read past a bias of ${bias.elementCount} values`);
  }
  const g = conv3DGeometry(OP, node, [shape[1]!, shape[2]!, shape[3]!], [filter.dims[0]!, filter.dims[1]!, filter.dims[2]!]);
  setOutputShape(OP, context, node, 0, shape);
  const d = opData<Conv3DTransposeOpData>(OP, node);
  d.g = g;
  d.inDims = Int32Array.from(input.dims);
  d.outDims = Int32Array.from(shape);
  d.filterDims = Int32Array.from(filter.dims);
  d.outputSize = output.elementCount;
  d.hasBias = bias !== null;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<Conv3DTransposeOpData>(OP, node);
  const g = d.g!;
  const w = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  const x = context.getEvalTensor(node.inputs[2]!).data as Float32Array;
  const b = d.hasBias ? (context.getEvalTensor(node.inputs[3]!).data as Float32Array) : null;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const di = d.inDims;
  const dout = d.outDims;
  const n = di[0]!,
    inD = di[1]!,
    inH = di[2]!,
    inW = di[3]!,
    cIn = di[4]!;
  const outD = dout[1]!,
    outH = dout[2]!,
    outW = dout[3]!,
    cOut = dout[4]!;
  const kd = d.filterDims[0]!,
    kh = d.filterDims[1]!,
    kw = d.filterDims[2]!;
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
  y.fill(0, 0, d.outputSize);
  for (let bi = 0; bi < n; bi++)
    for (let id = 0; id < inD; id++)
      for (let iy = 0; iy < inH; iy++)
        for (let ix = 0; ix < inW; ix++)
          for (let ic = 0; ic < cIn; ic++) {
            const v = x[(((bi * inD + id) * inH + iy) * inW + ix) * cIn + ic]!;
            for (let fd = 0; fd < kd; fd++) {
              const od = id * sd - pd + dd * fd;
              if (od < 0 || od >= outD) continue;
              for (let fy = 0; fy < kh; fy++) {
                const oy = iy * sh - ph + dh * fy;
                if (oy < 0 || oy >= outH) continue;
                for (let fx = 0; fx < kw; fx++) {
                  const ox = ix * sw - pw + dw * fx;
                  if (ox < 0 || ox >= outW) continue;
                  const yo = (((bi * outD + od) * outH + oy) * outW + ox) * cOut;
                  const wo = ((fd * kh + fy) * kw + fx) * cOut * cIn + ic;
                  for (let oc = 0; oc < cOut; oc++) y[yo + oc] = y[yo + oc]! + f(v * w[wo + oc * cIn]!);
                }
              }
            }
          }
  for (let i = 0; i < d.outputSize; i++) {
    const v = b ? f(y[i]! + b[i % cOut]!) : y[i]!;
    y[i] = v < g.actMin ? g.actMin : v > g.actMax ? g.actMax : v;
  }
}

/** CONV_3D_TRANSPOSE registration (op version 1). */
export const CONV_3D_TRANSPOSE: Registration<Conv3DTransposeOpData> = {
  builtinCode: BuiltinOperator.CONV_3D_TRANSPOSE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, [3, 4], 1) ?? declineTypes(context, node, [1, 2], F32) ?? true,
  init: () => ({
    g: null,
    inDims: new Int32Array(5),
    outDims: new Int32Array(5),
    filterDims: new Int32Array(5),
    outputSize: 0,
    hasBias: false,
  }),
  prepare,
  invoke,
};
