/**
 * CONCATENATION (TFLM kernels/concatenation.cc) in WebAssembly: joins int8, uint8, int16, int32, int64,
 * bool or float32 tensors of up to 6 dimensions along one axis as runs of bytes (concat_bytes,
 * assembly/layout/concat.ts). As TFLM requires, int8 inputs share the output's scale and zero point and
 * int16 tensors have zero point 0; the fused activation must be NONE. TFLite's uint8 inputs quantized
 * like the output are copied, the others requantized in float32 as TFLite's ConcatenationWithScaling
 * (clamp(roundf(x * scale + bias) + zero point, 0, 255), scale = input scale * (1 / output scale) and
 * bias = -input zero point * scale, each rounded to float32). Declines int8 inputs quantized unlike the
 * output (ops-reference reports the error).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  tensorTypeName,
  type ConcatenationOptions,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { CC } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import type { KernelExports } from '../wasm-module.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'CONCATENATION';
const MAX_DIMS = 6;
const TYPES = new Set([
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT32,
]);

/** What invoke needs (PACK's too, pack.ts). */
export interface ConcatData {
  k: KernelExports | null;
  params: number;
  /** The inputs' byte offsets, written at each invoke (a view into the arena). */
  ptrs: Int32Array;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
  ptrsOffset: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [1, Infinity], 1);
  if (arity) return arity;
  const output = context.getTensor(node.outputs[0]!);
  if (!TYPES.has(output.type)) return `${tensorTypeName(output.type)} (handles int8, uint8, int16, int32, int64, bool, float32)`;
  for (let i = 0; i < node.inputs.length; i++) {
    const input = context.getTensor(node.inputs[i]!);
    if (
      output.type === TensorType.INT8 &&
      (input.params.scale !== output.params.scale || input.params.zeroPoint !== output.params.zeroPoint)
    )
      return `int8 input ${i} quantized unlike the output`;
  }
  return true;
}

/**
 * TFLite's uint8 requantization (ConcatenationWithScaling, as ops-reference): per input a float32 scale
 * and bias in a persistent table, a NaN scale where the input is quantized like the output (copied).
 * Returns the table's offset, or 0 when every input is copied.
 */
function uint8Rescale(context: TfLiteContext, node: Node, output: Tensor): number {
  const n = node.inputs.length;
  const inputs = Array.from(node.inputs, (t) => context.getTensor(t));
  const same = (t: Tensor) => t.params.zeroPoint === output.params.zeroPoint && t.params.scale === output.params.scale;
  if (inputs.every(same)) return 0;
  const f = Math.fround;
  const inverseOutputScale = f(1 / output.params.scale);
  const table = context.allocatePersistentBuffer(n * 8);
  inputs.forEach((input, i) => {
    if (same(input)) {
      table.f32[2 * i] = Number.NaN;
      return;
    }
    if (!(input.params.scale > 0) || !(output.params.scale > 0) || !Number.isFinite(inverseOutputScale))
      throw new KernelError(
        OP,
        node.index,
        `uint8 input ${i} (scale ${input.params.scale}) and output (scale ${output.params.scale}) need positive scales to requantize`,
      );
    const scale = f(input.params.scale * inverseOutputScale);
    table.f32[2 * i] = scale;
    table.f32[2 * i + 1] = f(-input.params.zeroPoint * scale);
  });
  return table.offset;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as ConcatData;
  const params = node.builtinData as ConcatenationOptions | null;
  const activation = params?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (activation !== ActivationFunctionType.NONE)
    throw new KernelError(
      OP,
      node.index,
      `fused activation ${ActivationFunctionType[activation] ?? activation} is not supported (NONE only)`,
    );
  const output = context.getTensor(node.outputs[0]!);
  const rank = output.dims.length;
  if (rank > MAX_DIMS) throw new KernelError(OP, node.index, `output has ${rank} dimensions, at most ${MAX_DIMS} are supported`);
  const rawAxis = params?.axis ?? 0;
  const axis = rawAxis < 0 ? rawAxis + rank : rawAxis;
  if (axis < 0 || axis >= rank) throw new KernelError(OP, node.index, `axis ${rawAxis} is out of range for ${rank}-D tensors`);
  if (output.type === TensorType.INT16 && output.params.zeroPoint !== 0)
    throw new KernelError(OP, node.index, `int16 output zero point must be 0, got ${output.params.zeroPoint}`);
  const es = elementSize(output.type)!;
  let inner = es;
  for (let d = axis + 1; d < rank; d++) inner *= output.dims[d]!;
  let outer = 1;
  for (let d = 0; d < axis; d++) outer *= output.dims[d]!;
  const n = node.inputs.length;
  const runs = new Array<number>(n);
  let axisTotal = 0;
  for (let i = 0; i < n; i++) {
    const input = context.getTensor(node.inputs[i]!);
    if (input.type !== output.type)
      throw new KernelError(OP, node.index, `input ${i} has type ${tensorTypeName(input.type)}, the output ${tensorTypeName(output.type)}`);
    if (input.dims.length !== rank)
      throw new KernelError(OP, node.index, `input ${i} has ${input.dims.length} dimensions, the output ${rank}`);
    for (let d = 0; d < rank; d++)
      if (d !== axis && input.dims[d] !== output.dims[d])
        throw new KernelError(
          OP,
          node.index,
          `input ${i} differs from the output in dimension ${d} (${input.dims[d]} vs ${output.dims[d]}; axis is ${axis})`,
        );
    if (output.type === TensorType.INT16 && input.params.zeroPoint !== 0)
      throw new KernelError(OP, node.index, `int16 input ${i} zero point must be 0, got ${input.params.zeroPoint}`);
    axisTotal += input.dims[axis]!;
    runs[i] = input.dims[axis]! * inner;
  }
  if (axisTotal !== output.dims[axis])
    throw new KernelError(OP, node.index, `inputs add up to ${axisTotal} along axis ${axis}, the output has ${output.dims[axis]}`);
  const rescale = output.type === TensorType.UINT8 ? uint8Rescale(context, node, output) : 0;
  prepareConcatBytes(OP, context, node, data, outer, runs, rescale, output.params.zeroPoint);
}

/**
 * Writes concat_bytes's parameter block and the inputs' offset table (persistent buffers) for a join in
 * which, for each of `outer` steps, input i contributes a run of `runs[i]` bytes (uint8 requantization
 * table `rescale`, 0 for none, and output zero point `zpOut`), and copies constant inputs into the arena.
 * PACK (pack.ts) runs through it too.
 */
export function prepareConcatBytes(
  op: string,
  context: TfLiteContext,
  node: Node,
  data: ConcatData,
  outer: number,
  runs: readonly number[],
  rescale = 0,
  zpOut = 0,
): void {
  const n = node.inputs.length;
  const region = context.allocatePersistentBuffer((CC.Words + n) * 4);
  data.k = kernelsFor(op, node, region);
  const p = region.i32;
  p[CC.Outer] = outer;
  p[CC.Inputs] = n;
  p[CC.Rescale] = rescale;
  p[CC.ZpOut] = zpOut;
  for (let i = 0; i < n; i++) p[CC.Run + i] = runs[i]!;
  const ptrs = context.allocatePersistentBuffer(n * 4);
  data.ptrs = ptrs.i32;
  data.ptrsOffset = ptrs.offset;
  data.params = region.offset;
  data.fixed = constantInputCopies(
    context,
    node,
    Array.from(node.inputs, (_, i) => i),
  );
}

/** init's op data. */
export function initConcat(): ConcatData {
  return { k: null, params: 0, ptrs: new Int32Array(0), ptrsOffset: 0, fixed: new Int32Array(0) };
}

/** Invoke: the inputs' offsets into the table, then concat_bytes. Allocates nothing. */
export function invokeConcat(context: TfLiteContext, node: Node): void {
  const data = node.userData as ConcatData;
  const ptrs = data.ptrs;
  for (let i = 0; i < node.inputs.length; i++) ptrs[i] = inputOffset(context, node, i, data.fixed[i]!);
  data.k!.concat_bytes(data.params, data.ptrsOffset, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The CONCATENATION registration. */
export function createConcatenation(): Registration<ConcatData> {
  return {
    builtinCode: BuiltinOperator.CONCATENATION,
    version: 4,
    provider: PROVIDER,
    name: 'CONCATENATION/wasm-bytes',
    supports,
    init: initConcat,
    prepare,
    invoke: invokeConcat,
  };
}
