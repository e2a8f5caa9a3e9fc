/**
 * FULLY_CONNECTED 16x8 (int16 activations with zero point 0, constant symmetric int8 weights, per-tensor
 * or per-channel) in WebAssembly: qs16_conv_run (assembly/int8/conv-16x8.ts) as 1x1 windows over the
 * batches, the weights packed at prepare. An int64 bias (or none with quantized_bias_type INT64) takes
 * TFLM's int64 accumulator and MultiplyByQuantizedMultiplier, an int32 bias (or none otherwise) the
 * wrapping int32 accumulator and the 32-bit one, as ops-reference's fullyConnectedInt16Acc64/Acc32.
 * Declines other types, shuffled weights and what conv-16x8-common's decline16x8 names.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  KernelError,
  TensorType,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { calculateOpDataFullyConnected, declineArity, expectBias, expectFullyConnectedShape } from '@micrort/kernel-support';
import { C16, C16_BYTES } from '../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { decline16x8, packGemm16, writeOutputStage16, initGemm16, invokeGemm16, type Gemm16Data } from './conv-16x8-common.js';
import { constantInputCopies } from './kernel-common.js';
import { parallelFor, threadsFor, requestThreadScratch } from './parallel.js';

const OP = 'FULLY_CONNECTED';
const BIAS_TYPES: readonly TensorType[] = [TensorType.INT64, TensorType.INT32];

/** The int64 accumulator: an int64 bias, or none with quantized_bias_type INT64 (as ops-reference's FcKind). */
function wideFc(bias: { type: TensorType } | null, opts: FullyConnectedOptions | null): boolean {
  return bias ? bias.type === TensorType.INT64 : opts?.quantizedBiasType === TensorType.INT64;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const opts = node.builtinData as FullyConnectedOptions | null;
  if (opts && opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT) return 'shuffled weights';
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const depth = filter.dims[filter.dims.length - 1] ?? 0;
  return decline16x8(input, filter, bias, output, BIAS_TYPES, depth, wideFc(bias, opts)) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as Gemm16Data;
  const opts = node.builtinData as FullyConnectedOptions | null;
  const activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (node.inputs.length < 2 || node.inputs.length > 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const {
    batches,
    outputDepth: units,
    accumDepth: depth,
  } = expectFullyConnectedShape(OP, node, input, filter, output, opts?.keepNumDims ?? false);
  expectBias(OP, node, bias, BIAS_TYPES, units, input.type);
  const fc = calculateOpDataFullyConnected(OP, context, node, input, filter, bias, output, activation);
  const multiplier = fc.perChannelBuffers?.multiplier ?? new Int32Array(units).fill(fc.outputMultiplier);
  const shift = fc.perChannelBuffers?.shift ?? new Int32Array(units).fill(fc.outputShift);

  const region = context.allocatePersistentBuffer(C16_BYTES);
  data.k = kernelsFor(OP, node, region) as KernelExports | null;
  const p = region.i32;
  p.fill(0, 0, C16.Words);
  const k8 = Math.ceil(depth / 8) * 8;
  // the batches are one row of 1x1 windows
  p[C16.Batches] = 1;
  p[C16.InH] = 1;
  p[C16.InW] = batches;
  p[C16.InC] = depth;
  p[C16.OutH] = 1;
  p[C16.OutW] = batches;
  p[C16.OutC] = units;
  p[C16.KH] = 1;
  p[C16.KW] = 1;
  p[C16.StrideH] = 1;
  p[C16.StrideW] = 1;
  p[C16.DilH] = 1;
  p[C16.DilW] = 1;
  p[C16.K8] = k8;
  p[C16.Direct] = k8 === depth ? 1 : 0;
  p[C16.Packed] = packGemm16(context, filter.data as Int8Array, units, depth, k8).offset;
  writeOutputStage16(context, p, wideFc(bias, opts), bias, multiplier, shift, units, fc.actMin, fc.actMax);
  const threads = threadsFor(options, batches * units * depth, Math.ceil(batches / 2));
  data.rows = k8 === depth ? null : requestThreadScratch(context, k8 * 4, threads);
  data.par = parallelFor(region, threads, Math.ceil(batches / 2));
  data.total = batches;
  data.params = region.offset;
  data.p = p;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

/** The 16x8 FULLY_CONNECTED registration (int16 activations, int8 weights). */
export function createFullyConnected16x8(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<Gemm16Data> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/wasm-16x8',
    supports,
    init: initGemm16,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeGemm16,
  };
}
