/**
 * FULLY_CONNECTED, float32, in WebAssembly: f32_conv (assembly/float/gemm.ts) with the batches as the
 * GEMM's rows read in place, weights [units, depth] and bias packed at prepare into the arena, the fused
 * activation clamped in the tile. Declines other types (hybrid int8 weights included), shuffled weights and
 * fused activations other than RELU, RELU6 and RELU_N1_TO_1; a constant input is copied into the
 * arena at prepare.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  KernelError,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { declineNonFloat, shapeText } from './float-common.js';
import { G, initGemmData, invokeGemm, prepareGemm, type GemmData } from './gemm-common.js';
import {
  activationRangeFloat,
  declineActivation,
  declineArity,
  expectBias,
  expectFullyConnectedShape,
  FLOAT32_ONLY,
} from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const opts = node.builtinData as FullyConnectedOptions | null;
  if (opts && opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT) return 'shuffled weights';
  const act = opts ? declineActivation(opts.fusedActivationFunction) : null;
  if (act) return act;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const why = declineNonFloat([input, filter, bias, output]);
  if (why) return why;
  return declineSmall(filter.elementCount, output.elementCount, filter.dims[filter.dims.length - 2] ?? 0, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const opts = node.builtinData as FullyConnectedOptions | null;
  const activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (node.inputs.length < 2 || node.inputs.length > 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  if (filter.dims.length !== 2)
    throw new KernelError(OP, node.index, `filter (tensor ${filter.index}) must have rank 2, got shape ${shapeText(filter)}`);
  const {
    batches,
    outputDepth: units,
    accumDepth: depth,
  } = expectFullyConnectedShape(OP, node, input, filter, output, opts?.keepNumDims ?? false);
  if (units <= 0) throw new KernelError(OP, node.index, `filter (tensor ${filter.index}) has no output units, shape ${shapeText(filter)}`);
  expectBias(OP, node, bias, FLOAT32_ONLY, units, input.type);
  const [actMin, actMax] = activationRangeFloat(OP, node, activation);
  const { p } = prepareGemm(OP, context, node, filter, bias, units, depth, actMin, actMax);
  p[G.Total] = batches;
  p[G.RowBytes] = depth * 4;
}

/** The float32 FULLY_CONNECTED registration. */
export function createFullyConnectedF32(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<GemmData> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/wasm-f32-gemm4x8',
    supports: (context, node) => supports(context, node, options),
    init: initGemmData,
    prepare,
    invoke: invokeGemm,
  };
}
