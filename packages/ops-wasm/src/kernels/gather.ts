/**
 * GATHER (TFLM kernels/gather.cc) in WebAssembly: gather_bytes (assembly/layout/gather.ts) copies, per
 * index, one block of params (the dims after the gathered axis) — a load and store for blocks of 1, 2, 4
 * or 8 bytes, memory.copy otherwise — for any axis and batch_dims, params of every fixed-size type, int16,
 * int32 or int64 indices read at invoke (they may be data). An index outside [0, axis size) fails the
 * invoke with ops-reference's KernelError (kernel-support's gatherIndexError, the same position and
 * value). The checks, the output shape and the loop sizes are kernel-support's prepareGather, as in
 * ops-reference. Declines strings, int4 and params or indices whose shape depends on data.
 */
import { BuiltinOperator, TensorType, elementSize, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import {
  FIXED_SIZE_TYPES,
  GATHER_INDEX_TYPES,
  declineArity,
  declineType,
  gatherIndexError,
  int64At,
  isDataDependent,
  prepareGather,
} from '@micrort/kernel-support';
import { GA, GA_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';

const OP = 'GATHER';

interface GatherData {
  k: KernelExports | null;
  params: number;
  /** Arena copies of constant params and indices (-1: read the eval tensor). */
  fixed: Int32Array;
  axisSize: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const params = context.getTensor(node.inputs[0]!);
  const indices = context.getTensor(node.inputs[1]!);
  const why = declineType('params', params, FIXED_SIZE_TYPES) ?? declineType('indices', indices, GATHER_INDEX_TYPES);
  if (why) return why;
  if (isDataDependent(params) || isDataDependent(indices))
    return 'params or indices shape depends on data (the sizes are fixed at prepare)';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as GatherData;
  const g = prepareGather(OP, context, node, FIXED_SIZE_TYPES, []);
  const region = context.allocatePersistentBuffer(GA_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[GA.Batches] = g.batchSize;
  p[GA.Outer] = g.outerSize;
  p[GA.AxisSize] = g.axisSize;
  p[GA.Coords] = g.coordSize;
  p[GA.Inner] = g.innerSize * elementSize(g.params.type)!;
  p[GA.IndexBytes] = elementSize(g.indices.type)!;
  data.params = region.offset;
  data.axisSize = g.axisSize;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

/** The value of index `at` (read again, on the error path only). */
function indexValue(context: TfLiteContext, node: Node, at: number): number {
  const t = context.getEvalTensor(node.inputs[1]!);
  if (t.type === TensorType.INT64) return int64At(t.bytes, at);
  return t.type === TensorType.INT16 ? (t.data as Int16Array)[at]! : (t.data as Int32Array)[at]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as GatherData;
  const at = data.k!.gather_bytes(
    data.params,
    inputOffset(context, node, 0, data.fixed[0]!),
    inputOffset(context, node, 1, data.fixed[1]!),
    context.getEvalTensor(node.outputs[0]!).data.byteOffset,
  );
  if (at >= 0) throw gatherIndexError(OP, node, at, indexValue(context, node, at), data.axisSize);
}

/** The GATHER registration. */
export function createGather(): Registration<GatherData> {
  return {
    builtinCode: BuiltinOperator.GATHER,
    version: 7,
    provider: PROVIDER,
    name: 'GATHER/wasm-bytes',
    supports,
    init: (): GatherData => ({ k: null, params: 0, fixed: new Int32Array(0), axisSize: 0 }),
    prepare,
    invoke,
  };
}
