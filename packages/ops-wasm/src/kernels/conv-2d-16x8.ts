/**
 * CONV_2D 16x8 (int16 activations with zero point 0, constant symmetric int8 filter, per-channel or
 * per-tensor) in WebAssembly: qs16_conv_run (assembly/int8/conv-16x8.ts), an im2col row per output pixel
 * (read in place for 1x1, stride 1, unpadded windows over a multiple of 8 channels) against the filter
 * packed at prepare; any stride, dilation and padding. An int64 bias takes TFLM's int64 accumulator and
 * MultiplyByQuantizedMultiplier, an int32 bias or none the wrapping int32 accumulator and the 32-bit one,
 * as ops-reference's convInt16. Declines grouped convolution and what conv-16x8-common's decline16x8 names.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  type Conv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  convWindow,
  declineArity,
  emptyOutputParams,
  expectWindowOutput,
  prepareConvOutputStage,
  setConvOutputShape,
} from '@micrort/kernel-support';
import { C16, C16_BYTES } from '../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { decline16x8, packGemm16, writeOutputStage16, initGemm16, invokeGemm16, type Gemm16Data } from './conv-16x8-common.js';
import { constantInputCopies } from './kernel-common.js';
import { parallelFor, threadsFor, requestThreadScratch } from './parallel.js';

const OP = 'CONV_2D';
const BIAS_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const depth = filter.dims.length === 4 ? filter.dims[1]! * filter.dims[2]! * filter.dims[3]! : 0;
  const why = decline16x8(input, filter, bias, output, BIAS_TYPES, depth, bias?.type === TensorType.INT64);
  if (why) return why;
  if (input.dims.length === 4 && filter.dims.length === 4 && input.dims[3] !== filter.dims[3])
    return `grouped convolution (input depth ${input.dims[3]}, filter depth ${filter.dims[3]})`;
  return true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as Gemm16Data;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = setConvOutputShape(OP, context, node, { input, filter }, opts, filter.dims[0]!);
  const [batches, inH, inW, inC] = input.dims as unknown as number[];
  const [outC, kH, kW, kC] = filter.dims as unknown as number[];
  if (kC !== inC) throw new KernelError(OP, node.index, `filter depth ${kC} differs from input depth ${inC} (grouped convolution)`);
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  if (output.dims[3] !== outC)
    throw new KernelError(OP, node.index, `output has ${output.dims[3]} channels, filter (tensor ${filter.index}) has ${outC}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const out = emptyOutputParams();
  prepareConvOutputStage(OP, context, node, input, filter, bias, output, outC!, out, {
    quantizedDimension: 0,
    int16BiasTypes: BIAS_TYPES,
    floatActivation: opts.fusedActivationFunction,
    quantizedActivation: opts.fusedActivationFunction,
  });

  const region = context.allocatePersistentBuffer(C16_BYTES);
  data.k = kernelsFor(OP, node, region) as KernelExports | null;
  const p = region.i32;
  p.fill(0, 0, C16.Words);
  const depth = kH! * kW! * inC!;
  const k8 = Math.ceil(depth / 8) * 8;
  p[C16.Batches] = batches!;
  p[C16.InH] = inH!;
  p[C16.InW] = inW!;
  p[C16.InC] = inC!;
  p[C16.OutH] = pad.outHeight;
  p[C16.OutW] = pad.outWidth;
  p[C16.OutC] = outC!;
  p[C16.KH] = kH!;
  p[C16.KW] = kW!;
  p[C16.StrideH] = opts.strideH;
  p[C16.StrideW] = opts.strideW;
  p[C16.DilH] = opts.dilationHFactor;
  p[C16.DilW] = opts.dilationWFactor;
  p[C16.PadH] = pad.height;
  p[C16.PadW] = pad.width;
  p[C16.K8] = k8;
  const direct =
    depth === k8 &&
    kH === 1 &&
    kW === 1 &&
    opts.strideH === 1 &&
    opts.strideW === 1 &&
    pad.height === 0 &&
    pad.width === 0 &&
    pad.outHeight === inH &&
    pad.outWidth === inW;
  p[C16.Direct] = direct ? 1 : 0;
  p[C16.Packed] = packGemm16(context, filter.data as Int8Array, outC!, depth, k8).offset;
  writeOutputStage16(context, p, bias?.type === TensorType.INT64, bias, out.multiplier, out.shift, outC!, out.actMin, out.actMax);
  const pixels = batches! * pad.outHeight * pad.outWidth;
  const threads = threadsFor(options, pixels * outC! * depth, Math.ceil(pixels / 2));
  data.rows = direct ? null : requestThreadScratch(context, k8 * 4, threads);
  data.par = parallelFor(region, threads, Math.ceil(pixels / 2));
  data.total = pixels;
  data.params = region.offset;
  data.p = p;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

/** The 16x8 CONV_2D registration (int16 activations, int8 weights). */
export function createConv2D16x8(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<Gemm16Data> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-16x8',
    supports,
    init: initGemm16,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeGemm16,
  };
}
