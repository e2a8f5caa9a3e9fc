/**
 * DEPTHWISE_CONV_2D 16x8 (int16 activations with zero point 0, constant symmetric int8 filter, per-channel
 * or per-tensor, constant int64 bias or none) in WebAssembly: qs16_dwconv_run (assembly/int8/conv-16x8.ts),
 * eight channels per vector summed in int32 over the window's taps inside the image, then TFLM's int64
 * MultiplyByQuantizedMultiplier per channel, as ops-reference's depthwiseConvInt16. A depth multiplier
 * > 1 first expands the input into the node's scratch buffer (qs16_dw_expand). Any stride, dilation and
 * padding; declines windows of more than 256 taps (the int32 sums' bound) and what conv-16x8-common's
 * decline16x8 names.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, emptyOutputParams, prepareConvOutputStage } from '@micrort/kernel-support';
import { C16, C16_BYTES } from '../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { Fn } from '../threads/control.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { decline16x8, writeOutputStage16 } from './conv-16x8-common.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { parallelFor, threadsFor, type Parallel } from './parallel.js';
import { prepareDepthwiseNode } from './depthwise-common.js';

const OP = 'DEPTHWISE_CONV_2D';
const BIAS_TYPES: readonly TensorType[] = [TensorType.INT64];

/**
 * The most taps a window may have: qs16_dwconv_run sums a channel's products (each at most 2^22 in
 * magnitude) over the taps in int32, so 256 taps keep |sum| <= 2^30.
 */
const MAX_TAPS = 256;

/** State of a prepared 16x8 DEPTHWISE_CONV_2D node. */
export interface Dw16Data {
  k: KernelExports | null;
  params: number;
  p: Int32Array;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** Index of the scratch buffer (the expanded input, depth multiplier > 1), -1 without one. */
  scratch: number;
  expand: boolean;
  /** Output pixels. */
  total: number;
  par: Parallel | null;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const taps = filter.dims.length === 4 ? filter.dims[1]! * filter.dims[2]! : 0;
  const why = decline16x8(input, filter, bias, output, BIAS_TYPES, taps, true);
  if (why) return why;
  if (taps > MAX_TAPS) return `${taps} taps (handles at most ${MAX_TAPS}: int32 sums)`;
  return true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as Dw16Data;
  const { opts, input, filter, bias, output, batches, inH, inW, inC, kH, kW, channels, pad } = prepareDepthwiseNode(context, node);
  const out = emptyOutputParams();
  prepareConvOutputStage(OP, context, node, input, filter, bias, output, channels, out, {
    quantizedDimension: 3,
    int16BiasTypes: BIAS_TYPES,
    floatActivation: opts.fusedActivationFunction,
    quantizedActivation: opts.fusedActivationFunction,
  });

  const region = context.allocatePersistentBuffer(C16_BYTES);
  data.k = kernelsFor(OP, node, region) as KernelExports | null;
  const p = region.i32;
  p.fill(0, 0, C16.Words);
  const dm = opts.depthMultiplier;
  p[C16.Batches] = batches!;
  p[C16.InH] = inH!;
  p[C16.InW] = inW!;
  p[C16.InC] = channels;
  p[C16.OutH] = pad.outHeight;
  p[C16.OutW] = pad.outWidth;
  p[C16.OutC] = channels;
  p[C16.KH] = kH!;
  p[C16.KW] = kW!;
  p[C16.StrideH] = opts.strideH;
  p[C16.StrideW] = opts.strideW;
  p[C16.DilH] = opts.dilationHFactor;
  p[C16.DilW] = opts.dilationWFactor;
  p[C16.PadH] = pad.height;
  p[C16.PadW] = pad.width;
  p[C16.Dm] = dm;
  p[C16.SrcC] = inC!;
  // the filter as int16: per tap the channels padded to a multiple of 8
  const c8 = Math.ceil(channels / 8) * 8;
  const taps = kH! * kW!;
  const packed = context.allocatePersistentBuffer(taps * c8 * 2);
  const w = filter.data as Int8Array;
  packed.i16.fill(0, 0, taps * c8);
  for (let t = 0; t < taps; t++) for (let c = 0; c < channels; c++) packed.i16[t * c8 + c] = w[t * channels + c]!;
  p[C16.Packed] = packed.offset;
  writeOutputStage16(context, p, true, bias, out.multiplier, out.shift, channels, out.actMin, out.actMax);
  const pixels = batches! * pad.outHeight * pad.outWidth;
  data.expand = dm > 1;
  data.scratch = dm > 1 ? context.requestScratchBufferInArena(batches! * inH! * inW! * channels * 2) : -1;
  const threads = threadsFor(options, pixels * channels * taps, pixels);
  data.par = parallelFor(region, threads, pixels);
  data.total = pixels;
  data.params = region.offset;
  data.p = p;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as Dw16Data;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = data.k!;
  if (data.expand) {
    data.p[C16.Scratch] = context.getScratchBuffer(data.scratch).offset;
    k.qs16_dw_expand(data.params, input);
  }
  const par = data.par;
  if (par) par.pool.run(k, par.instance, Fn.Dwconv16, data.params, input, output, 0, data.total, 1, par.chunks);
  else k.qs16_dwconv_run(data.params, input, output, 0, data.total, 0);
}

/** The 16x8 DEPTHWISE_CONV_2D registration (int16 activations, int8 weights, int64 bias). */
export function createDepthwiseConv2D16x8(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<Dw16Data> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/wasm-16x8',
    supports,
    init: (): Dw16Data => ({ k: null, params: 0, p: new Int32Array(0), fixed: -1, scratch: -1, expand: false, total: 0, par: null }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
