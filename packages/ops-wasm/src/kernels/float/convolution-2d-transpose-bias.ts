/**
 * MediaPipe's custom op Convolution2DTransposeBias (float32), in WebAssembly: the same f32_tconv as
 * TRANSPOSE_CONV (transpose-conv-common.ts) with MediaPipe's geometry and options (kernel-support's
 * transposeConvBiasShape: a `TfLiteTransposeConvParams` struct; no fused activation). Inputs: 0 input,
 * 1 weights [OC, KH, KW, IC], 2 bias [OC]. Declines other arities and types.
 */
import { BuiltinOperator, KernelError, checkArity, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, transposeConvBiasShape } from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { declineNonFloat } from './float-common.js';
import {
  initTransposeConvF32,
  invokeTransposeConvF32,
  prepareTransposeConvF32,
  type TransposeConvF32Data,
} from './transpose-conv-common.js';

/** The custom op's name (MediaPipe's registration). */
export const CONVOLUTION_2D_TRANSPOSE_BIAS = 'Convolution2DTransposeBias';
const OP = CONVOLUTION_2D_TRANSPOSE_BIAS;

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 3, 1);
  if (arity) return arity;
  if (node.inputs.some((i) => i < 0) || node.outputs[0]! < 0) return 'input, weights, bias and output are required';
  return declineNonFloat(Array.from([...node.inputs, node.outputs[0]!], (i) => context.getTensor(i))) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  checkArity(OP, node, [3, 3], 1);
  const why = supports(context, node);
  if (why !== true) throw new KernelError(OP, node.index, why);
  const [input, weights, bias] = Array.from(node.inputs, (i) => context.getTensor(i));
  const s = transposeConvBiasShape(OP, node, input!, weights!, bias!, context.getTensor(node.outputs[0]!));
  prepareTransposeConvF32(OP, context, node, options, s, { input: 0, filter: 1, bias: 2 }, null);
}

/** The float32 Convolution2DTransposeBias registration (a custom op). */
export function createConvolution2DTransposeBiasF32(
  options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS,
): Registration<TransposeConvF32Data> {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: CONVOLUTION_2D_TRANSPOSE_BIAS,
    version: 1,
    provider: PROVIDER,
    name: `${OP}/wasm-f32-gemm-col2im`,
    supports,
    init: initTransposeConvF32,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeTransposeConvF32,
  };
}
