/**
 * MEAN, int8 and TFLite's uint8, over the two spatial axes of an NHWC input (axes {1, 2} in any order or sign, with or
 * without keep_dims: the global average pooling of classifiers), in WebAssembly: qs8_mean_hw
 * (assembly/int8/mean.ts), TFLM's QuantizedMeanOrSum exactly. Declines other types and axes.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type ReducerOptions,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { E, E_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { declineArity, expectQuantized } from '@micrort/kernel-support';

const OP = 'MEAN';
/** Parameter block E (scripts/abi.mjs); TFLM's OpDataReduce is 40 bytes. */
const MEAN_PARAMS_BYTES = E_BYTES;

interface MeanData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Whether the axes of a MEAN node are exactly {1, 2} of a 4-D input (negative values allowed). */
function spatialAxes(context: TfLiteContext, node: Node): boolean {
  const axis = context.getTensor(node.inputs[1]!);
  if (!axis.isConstant || axis.type !== TensorType.INT32) return false;
  const set = new Set(Array.from(axis.data as Int32Array, (a) => (a < 0 ? a + 4 : a)));
  return set.size === 2 && set.has(1) && set.has(2);
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if ((input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) || output.type !== input.type)
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles int8 to int8, uint8 to uint8)`;
  if (input.dims.length !== 4 || !spatialAxes(context, node)) return 'axes other than the spatial axes {1, 2} of a 4-D input';
  return true;
}

/**
 * QuantizedMeanOrSum's rescaling for a mean, as TFLM's int64 math: s = min(floor(log2(count)), 32,
 * 31 + shift); multiplier' = (multiplier << s) / count (truncating); shift' = shift - s. BigInt at
 * prepare only.
 */
function foldCount(multiplier: number, shift: number, count: number): { multiplier: number; shift: number } {
  const s = Math.min(31 - Math.clz32(count), 32, 31 + shift);
  return { multiplier: Number((BigInt(multiplier) << BigInt(s)) / BigInt(count)), shift: shift - s };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as MeanData;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const [batches, h, w, c] = input.dims as unknown as number[];
  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  if (output.elementCount !== batches! * c!)
    throw new KernelError(
      OP,
      node.index,
      `output has ${output.elementCount} elements, reducing [${Array.from(input.dims).join(', ')}] over axes {1, 2} gives ${batches! * c!}`,
    );
  const keepDims = (node.builtinData as ReducerOptions | null)?.keepDims ?? false;
  if (keepDims && output.dims.length !== 4)
    throw new KernelError(OP, node.index, `keep_dims is set but the output is ${output.dims.length}-D`);
  const count = h! * w!;
  if (count < 1) throw new KernelError(OP, node.index, 'the spatial axes are empty');
  const q = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'input/output rescale');
  const f = foldCount(q.multiplier, q.shift, count);
  const region = context.allocatePersistentBuffer(MEAN_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[E.Batches] = batches!;
  p[E.HW] = count;
  p[E.C] = c!;
  p[E.ZpCount] = Math.imul(input.params.zeroPoint, count);
  p[E.Mult] = f.multiplier;
  p[E.Left] = f.shift > 0 ? f.shift : 0;
  p[E.Right] = f.shift > 0 ? 0 : -f.shift;
  p[E.ZpOut] = output.params.zeroPoint;
  p[E.U8] = input.type === TensorType.UINT8 ? 1 : 0;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as MeanData;
  data.k!.qs8_mean_hw(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The MEAN registration. */
export function createMean(): Registration<MeanData> {
  return {
    builtinCode: BuiltinOperator.MEAN,
    version: 3,
    provider: PROVIDER,
    name: 'MEAN/wasm-qs8-hw',
    supports,
    init: (): MeanData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
