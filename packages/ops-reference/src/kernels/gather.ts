/**
 * GATHER (TFLM kernels/gather.cc): gathers slices of the params tensor along `axis` at the positions in
 * the int32 indices tensor (runtime data), with `batch_dims` leading dimensions shared by both. Output
 * shape: params[:axis] + indices[batch_dims:] + params[axis+1:]. A position outside [0, params[axis])
 * fails the invoke with a KernelError, as TFLM fails it.
 *
 * Types: float32 and int8 params as TFLM (int16 is refused, as TFLM refuses it), and uint8 as TFLite;
 * int32 indices only (TFLM refuses int64 positions).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { GatherOptions, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, requireSameTypeAs, requireShape, resolveAxis, typeSupport } from './data-common.js';
import type { NumberArray } from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'GATHER';
const TYPES = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8] as const;

/** Op data computed in prepare (TFLM keeps none). */
interface GatherOpData {
  batchSize: number;
  outerSize: number;
  axisSize: number;
  innerSize: number;
  coordSize: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const params = getInput(context, node, 0, OP);
  const coords = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'indices', coords, [TensorType.INT32]);
  expectType(OP, node, 'params', params, TYPES);
  requireSameTypeAs(OP, node, output, 'output', params, 'params');
  const options = node.builtinData as GatherOptions | null;
  const rank = params.dims.length;
  const axis = resolveAxis(OP, node, options?.axis ?? 0, rank);
  const rawBatchDims = options?.batchDims ?? 0;
  const batchDims = rawBatchDims < 0 ? rawBatchDims + coords.dims.length : rawBatchDims;
  if (!(batchDims >= 0 && batchDims < rank && batchDims <= coords.dims.length))
    throw new KernelError(
      OP,
      node.index,
      `batch_dims ${rawBatchDims} is out of range for params of rank ${rank} and indices of rank ${coords.dims.length}`,
    );
  if (batchDims > axis) throw new KernelError(OP, node.index, `batch_dims ${batchDims} must not exceed axis ${axis}`);
  for (let i = 0; i < batchDims; i++)
    if (params.dims[i] !== coords.dims[i])
      throw new KernelError(OP, node.index, `batch dimension ${i} differs: params has ${params.dims[i]}, indices ${coords.dims[i]}`);
  const expected = [
    ...Array.from(params.dims).slice(0, axis),
    ...Array.from(coords.dims).slice(batchDims),
    ...Array.from(params.dims).slice(axis + 1),
  ];
  requireShape(OP, node, output, 'output', expected);
  const data: GatherOpData = {
    batchSize: dimProduct(params.dims, 0, batchDims),
    outerSize: dimProduct(params.dims, batchDims, axis),
    axisSize: params.dims[axis]!,
    innerSize: dimProduct(params.dims, axis + 1),
    coordSize: dimProduct(coords.dims, batchDims),
  };
  fillOpData(OP, node, data);
}

function outOfRange(node: Node, at: number, value: number, axisSize: number): never {
  throw new KernelError(OP, node.index, `indices[${at}] = ${value} is out of range: the gathered axis has size ${axisSize}`);
}

function gather(node: Node, d: GatherOpData, params: NumberArray, coords: Int32Array, output: NumberArray): void {
  const { batchSize, outerSize, axisSize, innerSize, coordSize } = d;
  let o = 0;
  for (let b = 0; b < batchSize; b++)
    for (let outer = 0; outer < outerSize; outer++) {
      const rowBase = (b * outerSize + outer) * axisSize;
      for (let c = 0; c < coordSize; c++) {
        const at = b * coordSize + c;
        const v = coords[at]!;
        if (v < 0 || v >= axisSize) outOfRange(node, at, v, axisSize);
        let p = (rowBase + v) * innerSize;
        for (let k = 0; k < innerSize; k++) output[o++] = params[p++]!;
      }
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const params = context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray;
  const coords = context.getEvalTensor(node.inputs[1]!).data as Int32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray;
  gather(node, opData<GatherOpData>(OP, node), params, coords, output);
}

/** GATHER registration (op versions 1..7). */
export const GATHER: Registration = {
  builtinCode: BuiltinOperator.GATHER,
  version: 7,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => {
    const p = typeSupport(context, node, TYPES);
    return p === true ? typeSupport(context, node, [TensorType.INT32], 1) : p;
  },
  init: newOpData,
  prepare,
  invoke,
};
