/**
 * SEGMENT_SUM (TFLite segment_sum.cc, reference_ops::SegmentSum): rows of the data (float32 or int32)
 * summed into the output row their int32 segment id names (starting at 0 and rising by 0 or 1 from row to
 * row, as TFLite checks); the output has
 * ids[last] + 1 rows. The ids are read in prepare from a constant (they give the output's size); with
 * runtime ids there is no bound (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  declineArity,
  declineTypes,
  expectRank,
  expectSameType,
  expectType,
  fillOpData,
  newOpData,
  opData,
  setOutputShape,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts } from './tflite-ops-common.js';

const OP = 'SEGMENT_SUM';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32];

interface SegmentSumOpData {
  rows: number;
  rowSize: number;
  outputSize: number;
  float: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const data = getInput(context, node, 0, OP);
  const ids = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'data', data, TYPES);
  expectSameType(OP, node, 'data and output', data, output);
  expectType(OP, node, 'segment_ids', ids, [TensorType.INT32]);
  expectRank(OP, node, 'segment_ids', ids, 1);
  if (data.dims.length < 1 || ids.dims[0] !== data.dims[0])
    throw new KernelError(OP, node.index, `segment_ids has ${ids.dims[0]} values for data of shape [${data.dims.join(',')}]`);
  const values = constantInts(OP, node, ids, 'segment_ids');
  if (values === null) noShapeBound(OP, context, node, 0, 'the segment_ids input is not constant (it sets the number of segments)');
  values.forEach((v, i) => {
    const previous = i > 0 ? values[i - 1]! : -1;
    if (v < 0 || (v !== previous && v !== previous + 1))
      throw new KernelError(OP, node.index, `segment_ids must start at 0 and rise by 0 or 1 (as TFLite checks): segment_ids[${i}] = ${v}`);
  });
  const segments = values.length === 0 ? 0 : values[values.length - 1]! + 1;
  setOutputShape(OP, context, node, 0, [segments, ...Array.from(data.dims).slice(1)]);
  const rows = data.dims[0]!;
  fillOpData<SegmentSumOpData>(OP, node, {
    rows,
    rowSize: rows === 0 ? 0 : data.elementCount / rows,
    outputSize: output.elementCount,
    float: data.type === TensorType.FLOAT32,
  });
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SegmentSumOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Int32Array;
  const ids = context.getEvalTensor(node.inputs[1]!).data as Int32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Int32Array;
  const { rows, rowSize } = d;
  y.fill(0, 0, d.outputSize);
  for (let i = 0; i < rows; i++) {
    const to = ids[i]! * rowSize;
    const from = i * rowSize;
    if (d.float) for (let j = 0; j < rowSize; j++) y[to + j] = y[to + j]! + x[from + j]!;
    else for (let j = 0; j < rowSize; j++) y[to + j] = (y[to + j]! + x[from + j]!) | 0;
  }
}

/** SEGMENT_SUM registration (op version 1). */
export const SEGMENT_SUM: Registration = {
  builtinCode: BuiltinOperator.SEGMENT_SUM,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
