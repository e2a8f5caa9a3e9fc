/**
 * MEAN over height and width, float32, in WebAssembly: f32_mean_hw (assembly/float/pool.ts), the global
 * average pooling of CNN heads: a 4-D NHWC input, constant axes {1, 2} (negative and repeated axes
 * allowed), keep_dims either way. Each channel's sum runs in float32 over the pixels in input order (as
 * TFLite's reference Mean), then is divided by their count. Declines other types, axes and ranks.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { FM, FM_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, shapeText, type FloatKernelExports } from './float-common.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'MEAN';

interface MeanData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

/** Whether the constant axes tensor names exactly height and width of a 4-D input. */
function isHeightWidth(axes: Tensor): boolean {
  if (!axes.isConstant || axes.type !== TensorType.INT32) return false;
  const seen = new Set<number>();
  const values = axes.data as Int32Array;
  for (let i = 0; i < values.length; i++) {
    const a = values[i]! < 0 ? values[i]! + 4 : values[i]!;
    if (a !== 1 && a !== 2) return false;
    seen.add(a);
  }
  return seen.size === 2;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const why = declineNonFloat([input, context.getTensor(node.outputs[0]!)]);
  if (why) return why;
  if (input.dims.length !== 4) return `rank ${input.dims.length} input (handles 4-D NHWC)`;
  if (!isHeightWidth(context.getTensor(node.inputs[1]!))) return 'axes other than constant {1, 2}';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as MeanData;
  if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(OP, node.index, 'expects 2 inputs and 1 output');
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.dims.length !== 4 || !isHeightWidth(context.getTensor(node.inputs[1]!)))
    throw new KernelError(OP, node.index, `handles a 4-D input reduced over axes {1, 2}, got input ${shapeText(input)}`);
  const [batches, h, w, c] = input.dims as unknown as number[];
  if (output.elementCount !== batches! * c!)
    throw new KernelError(
      OP,
      node.index,
      `output ${shapeText(output)} must have ${batches! * c!} elements (input ${shapeText(input)} reduced over height and width)`,
    );
  if (h! * w! === 0) throw new KernelError(OP, node.index, `input ${shapeText(input)} has no pixels to average`);
  const region = context.allocatePersistentBuffer(FM_BYTES);
  data.k = floatKernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  region.i32[FM.Batches] = batches!;
  region.i32[FM.Pixels] = h! * w!;
  region.i32[FM.C] = c!;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as MeanData;
  data.k!.f32_mean_hw(data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The float32 MEAN registration. */
export function createMeanF32(): Registration<MeanData> {
  return {
    builtinCode: BuiltinOperator.MEAN,
    version: 3,
    provider: PROVIDER,
    name: 'MEAN/wasm-f32-hw',
    supports,
    init: (): MeanData => ({ k: null, params: 0, input: -1 }),
    prepare,
    invoke,
  };
}
