/**
 * BROADCAST_TO (TFLM kernels/broadcast_to.cc, reference_ops::BroadcastTo): repeats the input along the
 * dimensions where it has size 1 (or is missing, right-aligned) to the constant target shape (int32 or
 * int64, at most 5 dimensions). The output shape must equal the target. Any fixed-size element type
 * (TFLM copies raw bytes). TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { requireSameTypeAs, requireShape } from './data-common.js';
import {
  type ElementLayout,
  type NumberArray,
  elementLayout,
  extendShape,
  movableData,
  readConstantIndexTensor,
  rowMajorStrides,
  shapeString,
} from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'BROADCAST_TO';
/** TFLM's kMaxDims. */
export const BROADCAST_TO_MAX_DIMS = 5;

/** Op data computed in prepare. */
interface BroadcastToOpData {
  layout: ElementLayout;
  /** Output dims, front-padded with 1s to 5. */
  outDims: Int32Array;
  /** Input stride (in elements) per output axis; 0 where the input is broadcast. */
  inStrides: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const shapeTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const layout = elementLayout(input.type, OP, node);
  requireSameTypeAs(OP, node, output, 'output', input, 'input');
  expectType(OP, node, 'shape', shapeTensor, [TensorType.INT32, TensorType.INT64]);
  if (shapeTensor.dims.length !== 1)
    throw new KernelError(OP, node.index, `shape (tensor ${shapeTensor.index}) must be 1-D, got ${shapeString(shapeTensor.dims)}`);
  const shape = readConstantIndexTensor(shapeTensor, OP, node, 'shape');
  const inRank = input.dims.length;
  const outRank = shape.length;
  if (inRank > BROADCAST_TO_MAX_DIMS || outRank > BROADCAST_TO_MAX_DIMS)
    throw new KernelError(
      OP,
      node.index,
      `BROADCAST_TO supports 1 to ${BROADCAST_TO_MAX_DIMS} dimensions; input has ${inRank}, target ${outRank}`,
    );
  if (inRank > outRank)
    throw new KernelError(
      OP,
      node.index,
      `target shape ${shapeString(shape)} has fewer dimensions than the input ${shapeString(input.dims)}`,
    );
  const extending = outRank - inRank;
  for (let i = 0; i < inRank; i++) {
    const d = input.dims[i]!;
    if (d !== 1 && d !== shape[extending + i])
      throw new KernelError(
        OP,
        node.index,
        `input shape ${shapeString(input.dims)} cannot be broadcast to ${shapeString(shape)} (dimension ${i}: ${d})`,
      );
  }
  requireShape(OP, node, output, 'output', shape);
  const inDims = extendShape(input.dims, BROADCAST_TO_MAX_DIMS);
  const strides = rowMajorStrides(inDims);
  const outDims = Int32Array.from(extendShape(shape, BROADCAST_TO_MAX_DIMS));
  const inStrides = new Int32Array(BROADCAST_TO_MAX_DIMS);
  for (let i = 0; i < BROADCAST_TO_MAX_DIMS; i++) inStrides[i] = inDims[i] === 1 && outDims[i] !== 1 ? 0 : strides[i]!;
  const data: BroadcastToOpData = { layout, outDims, inStrides };
  fillOpData(OP, node, data);
}

/** Writes the output in row-major order, reading the input through the (0 for broadcast) strides. */
function broadcast5(d: BroadcastToOpData, src: NumberArray, dst: NumberArray, units: number): void {
  const od = d.outDims,
    s = d.inStrides;
  const n0 = od[0]!,
    n1 = od[1]!,
    n2 = od[2]!,
    n3 = od[3]!,
    n4 = od[4]!;
  const s0 = s[0]! * units,
    s1 = s[1]! * units,
    s2 = s[2]! * units,
    s3 = s[3]! * units,
    s4 = s[4]! * units;
  let o = 0;
  for (let i0 = 0, p0 = 0; i0 < n0; i0++, p0 += s0)
    for (let i1 = 0, p1 = p0; i1 < n1; i1++, p1 += s1)
      for (let i2 = 0, p2 = p1; i2 < n2; i2++, p2 += s2)
        for (let i3 = 0, p3 = p2; i3 < n3; i3++, p3 += s3)
          for (let i4 = 0, p = p3; i4 < n4; i4++, p += s4) for (let u = 0; u < units; u++) dst[o++] = src[p + u]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BroadcastToOpData>(OP, node);
  const src = movableData(context.getEvalTensor(node.inputs[0]!), d.layout);
  const dst = movableData(context.getEvalTensor(node.outputs[0]!), d.layout);
  broadcast5(d, src, dst, d.layout.units);
}

/** BROADCAST_TO registration (op versions 2..3 in TFLite's numbering; 1..3 accepted). */
export const BROADCAST_TO: Registration = {
  builtinCode: BuiltinOperator.BROADCAST_TO,
  version: 3,
  provider: PROVIDER,
  name: OP,
  init: newOpData,
  prepare,
  invoke,
};
