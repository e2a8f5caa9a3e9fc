/**
 * GATHER (TFLM kernels/gather.cc): the node checks, the output shape and the loop sizes, for every kernel
 * package that runs it. Slices of the params tensor along `axis` are gathered at the positions in the
 * indices tensor, `batch_dims` leading dimensions shared by both; the output's shape is
 * params[:axis] + indices[batch_dims:] + params[axis+1:]. In memory: for each batch b and each of the
 * `outerSize` rows before the axis, for each of the `coordSize` indices c of that batch, the block of
 * `innerSize` elements at params row `index` — indices[b · coordSize + c] — is copied out, in order.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { GatherOptions, Node, Tensor, TfLiteContext } from '@micrort/core';
import { expectType } from './checks.js';
import { dimProduct, requireSameTypeAs, resolveAxis } from './constant-index.js';
import { isDataDependent, refuseDataDependentInput, setOutputShapeOrBound } from './output-shape.js';

/** Integer types of index and position tensors (TFLite's gathers take int16, int32, int64). */
export const GATHER_INDEX_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64, TensorType.INT16];

/** A prepared GATHER (the sizes at prepare; with `bounded`, the kernel follows the actual dims at invoke). */
export interface GatherGeometry {
  params: Tensor;
  indices: Tensor;
  /** The gathered axis of params, non-negative. */
  axis: number;
  /** batch_dims, non-negative. */
  batchDims: number;
  /** Product of params' first batch_dims dims. */
  batchSize: number;
  /** Product of params' dims from batch_dims to the axis. */
  outerSize: number;
  /** params' extent along the axis: indices must lie in [0, axisSize). */
  axisSize: number;
  /** Product of params' dims after the axis (elements). */
  innerSize: number;
  /** Indices per batch: the product of the indices' dims from batch_dims on. */
  coordSize: number;
  /** The output's dims (a bound when `bounded`). */
  dims: number[];
  /** params or indices have a data-dependent shape (only without batch_dims and for `followTypes`). */
  bounded: boolean;
}

/**
 * Checks a GATHER node (params of `types`, indices of {@link GATHER_INDEX_TYPES}, the output of params' type;
 * the axis and batch_dims in range, batch_dims at most the axis, the batch dimensions equal) and sets the
 * output's shape, a bound when params or indices depend on data — which the kernel follows without
 * batch_dims and for params of `followTypes` only (else DataDependentShapeError). Throws KernelError or
 * TensorTypeError.
 */
export function prepareGather(
  op: string,
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
  followTypes: readonly TensorType[],
): GatherGeometry {
  checkArity(op, node, 2, 1);
  const params = getInput(context, node, 0, op);
  const indices = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'indices', indices, GATHER_INDEX_TYPES);
  expectType(op, node, 'params', params, types);
  requireSameTypeAs(op, node, output, 'output', params, 'params');
  const options = node.builtinData as GatherOptions | null;
  const rank = params.dims.length;
  const axis = resolveAxis(op, node, options?.axis ?? 0, rank);
  const rawBatchDims = options?.batchDims ?? 0;
  const batchDims = rawBatchDims < 0 ? rawBatchDims + indices.dims.length : rawBatchDims;
  if (!(batchDims >= 0 && batchDims < rank && batchDims <= indices.dims.length))
    throw new KernelError(
      op,
      node.index,
      `batch_dims ${rawBatchDims} is out of range for params of rank ${rank} and indices of rank ${indices.dims.length}`,
    );
  if (batchDims > axis) throw new KernelError(op, node.index, `batch_dims ${batchDims} must not exceed axis ${axis}`);
  for (let i = 0; i < batchDims; i++)
    if (params.dims[i] !== indices.dims[i])
      throw new KernelError(op, node.index, `batch dimension ${i} differs: params has ${params.dims[i]}, indices ${indices.dims[i]}`);
  const dims = [
    ...Array.from(params.dims).slice(0, axis),
    ...Array.from(indices.dims).slice(batchDims),
    ...Array.from(params.dims).slice(axis + 1),
  ];
  const paramsBounded = isDataDependent(params);
  const bounded = paramsBounded || isDataDependent(indices);
  if (bounded && (batchDims > 0 || !followTypes.includes(params.type)))
    refuseDataDependentInput(
      op,
      context,
      node,
      paramsBounded ? 0 : 1,
      'GATHER follows data-dependent params and indices without batch_dims, of params other than strings and int4',
    );
  setOutputShapeOrBound(op, context, node, 0, dims, bounded);
  return {
    params,
    indices,
    axis,
    batchDims,
    batchSize: dimProduct(params.dims, 0, batchDims),
    outerSize: dimProduct(params.dims, batchDims, axis),
    axisSize: params.dims[axis]!,
    innerSize: dimProduct(params.dims, axis + 1),
    coordSize: dimProduct(indices.dims, batchDims),
    dims,
    bounded,
  };
}

/** The invoke error of GATHER's index `value` at position `at` of the indices, outside [0, `axisSize`) (TFLM fails the invoke). */
export function gatherIndexError(op: string, node: Node, at: number, value: number, axisSize: number): KernelError {
  return new KernelError(op, node.index, `indices[${at}] = ${value} is out of range: the gathered axis has size ${axisSize}`);
}
