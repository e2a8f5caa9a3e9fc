/**
 * PACK (TFLM kernels/pack.cc): the node checks and the output shape, for every kernel package that runs
 * it. `values_count` inputs of one type and shape are stacked along a new axis `axis` of the output
 * (negative counts from the end of the output's rank); in memory, for each of `outer` steps (the input
 * axes before `axis`) every input contributes one run of `inner` elements (the axes from `axis` on), the
 * inputs' runs following each other: CONCATENATION along `axis` of the inputs with a 1 inserted there.
 */
import { KernelError, TensorType, getInput, getOutput } from '@micrort/core';
import type { Node, PackOptions, Tensor, TfLiteContext } from '@micrort/core';
import { expectType, shapeText } from './checks.js';
import { dimProduct, requireSameTypeAs, resolveAxis } from './constant-index.js';
import { isDataDependent, setOutputShapeOrBound } from './output-shape.js';

/** PACK's types: float32, int8, int16, int32, int64 as TFLM, and uint8 and uint32 as TFLite. */
export const PACK_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.UINT8,
  TensorType.UINT32,
];

/** A prepared PACK: output[o][i][r] = input i[o][r] for o < outer, r < inner. */
export interface PackGeometry {
  /** Input 0 (every input has its type and shape). */
  first: Tensor;
  /** The new axis in the output, non-negative. */
  axis: number;
  /** Product of the input dims before `axis`. */
  outer: number;
  /** Product of the input dims from `axis` on (elements). */
  inner: number;
  /** The output's dims (a bound when `bounded`). */
  dims: number[];
  /** An input's shape depends on data: the output's shape is a bound, the actual one follows the inputs. */
  bounded: boolean;
}

/**
 * Checks a PACK node (at least one input of {@link PACK_TYPES}, all of one type and shape, `values_count`
 * their count, one output of their type) and sets the output's shape (a bound for data-dependent inputs).
 * Throws KernelError or TensorTypeError.
 */
export function preparePack(op: string, context: TfLiteContext, node: Node): PackGeometry {
  const count = node.inputs.length;
  if (count < 1) throw new KernelError(op, node.index, 'expects at least 1 input');
  if (node.outputs.length !== 1) throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  const options = node.builtinData as PackOptions | null;
  const valuesCount = options?.valuesCount ?? count;
  if (valuesCount !== count) throw new KernelError(op, node.index, `values_count is ${valuesCount} but the node has ${count} inputs`);
  const first = getInput(context, node, 0, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input 0', first, PACK_TYPES);
  requireSameTypeAs(op, node, output, 'output', first, 'input 0');
  let bounded = isDataDependent(first);
  for (let i = 1; i < count; i++) {
    const t = getInput(context, node, i, op);
    requireSameTypeAs(op, node, t, `input ${i}`, first, 'input 0');
    let same = t.dims.length === first.dims.length;
    for (let k = 0; same && k < t.dims.length; k++) same = t.dims[k] === first.dims[k];
    if (!same)
      throw new KernelError(
        op,
        node.index,
        `input ${i} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(first.dims)}`,
      );
    if (isDataDependent(t)) bounded = true;
  }
  const axis = resolveAxis(op, node, options?.axis ?? 0, first.dims.length + 1);
  const dims = Array.from(first.dims);
  dims.splice(axis, 0, count);
  setOutputShapeOrBound(op, context, node, 0, dims, bounded);
  return { first, axis, outer: dimProduct(first.dims, 0, axis), inner: dimProduct(first.dims, axis), dims, bounded };
}
