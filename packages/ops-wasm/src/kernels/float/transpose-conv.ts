/**
 * TRANSPOSE_CONV, float32, in WebAssembly: f32_tconv (assembly/float/transpose-conv.ts), a GEMM of the
 * input pixels by the weights packed at prepare into columns of KH x KW taps, scattered into the output,
 * which starts at the bias; the fused activation (RELU, RELU6, RELU_N1_TO_1) clamps it at the end.
 * Inputs as TFLite's: 0 output_shape (int32 [4]; a constant one sets the output shape, as ops-reference),
 * 1 filter [OC, KH, KW, IC], 2 input, 3 optional bias. Declines other types (the hybrid int8 filter
 * among them) and other activations; the next provider serves the node.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  checkArity,
  type Node,
  type Registration,
  type TfLiteContext,
  type TransposeConvOptions,
} from '@micrort/core';
import {
  activationRangeFloat,
  declineActivation,
  declineArity,
  expectKnownPadding,
  transposeConvShape,
  transposeConvTensors,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { declineNonFloat } from './float-common.js';
import {
  initTransposeConvF32,
  invokeTransposeConvF32,
  prepareTransposeConvF32,
  type TransposeConvF32Data,
} from './transpose-conv-common.js';

const OP = 'TRANSPOSE_CONV';
const POSITIONS = { input: 2, filter: 1 };

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [3, 4], 1);
  if (arity) return arity;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.inputs[2]! < 0) return 'output_shape, filter and input are required';
  const filter = context.getTensor(node.inputs[1]!);
  const input = context.getTensor(node.inputs[2]!);
  const bias = node.inputs.length > 3 && node.inputs[3]! >= 0 ? context.getTensor(node.inputs[3]!) : null;
  const why = declineNonFloat([input, filter, bias, context.getTensor(node.outputs[0]!)]);
  if (why) return why;
  const opts = node.builtinData as TransposeConvOptions | null;
  return (opts ? declineActivation(opts.fusedActivationFunction) : null) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const opts = node.builtinData as TransposeConvOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing TransposeConvOptions');
  checkArity(OP, node, [3, 4], 1);
  const { filter, input, bias, output } = transposeConvTensors(OP, context, node);
  expectKnownPadding(OP, node, opts.padding);
  const act = activationRangeFloat(OP, node, opts.fusedActivationFunction);
  const s = transposeConvShape(OP, node, opts, input, filter, output);
  if (bias && bias.elementCount !== s.outDepth)
    throw new KernelError(OP, node.index, `bias (tensor ${bias.index}) has ${bias.elementCount} elements, expected ${s.outDepth}`);
  const bi = bias ? 3 : -1;
  const none = opts.fusedActivationFunction === ActivationFunctionType.NONE;
  prepareTransposeConvF32(OP, context, node, options, s, { ...POSITIONS, bias: bi }, none ? null : act);
}

/** The float32 TRANSPOSE_CONV registration. */
export function createTransposeConvF32(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<TransposeConvF32Data> {
  return {
    builtinCode: BuiltinOperator.TRANSPOSE_CONV,
    version: 5,
    provider: PROVIDER,
    name: 'TRANSPOSE_CONV/wasm-f32-gemm-col2im',
    supports,
    init: initTransposeConvF32,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeTransposeConvF32,
  };
}
