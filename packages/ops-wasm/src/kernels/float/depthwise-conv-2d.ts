/**
 * DEPTHWISE_CONV_2D, float32, in WebAssembly: f32_dwconv (assembly/float/depthwise-conv.ts), eight
 * channels per step over the taps' input pixels, weights and bias packed at prepare into the arena, the
 * fused activation clamped before the store. With a depth multiplier m > 1, output channel c·m + j reads
 * input channel c: each invoke first expands the input into a scratch buffer of C·m channels (input
 * channel c repeated m times: TRANSPOSE's byte kernel over the view [pixels · C, m] with a stride of 0
 * along m), which f32_dwconv then runs on as a depth-multiplier-1 layer of C·m channels — the same
 * products and sums per output channel. Declines other types, an output depth that is not a multiple of
 * the input's, and fused activations other than RELU, RELU6 and RELU_N1_TO_1 (the next provider serves
 * the node).
 */
import { BuiltinOperator, KernelError, type DepthwiseConv2DOptions, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { D, D_BYTES } from '../../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import type { JobExports } from '../../threads/pool.js';
import { parallelFor, threadsFor, type Parallel, requestThreadScratch, threadScratchOffset, type ThreadScratch } from '../parallel.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { prepareStridedCopy } from '../transpose.js';
import type { KernelExports } from '../../wasm-module.js';
import { absorbInputPad } from '../pad-absorb.js';
import { declineNonFloat, floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { DW_CT, depthwisePackedFloats, packDepthwiseF32 } from './weight-pack-f32.js';
import { activationRangeFloat, declineActivation, declineArity } from '@micrort/kernel-support';
import { prepareDepthwiseNode } from '../depthwise-common.js';

const OP = 'DEPTHWISE_CONV_2D';

/** Bytes of f32_dwconv's parameter block (D in scripts/abi.mjs). */
const DW_PARAMS_BYTES = D_BYTES;

interface DwData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  packed: Float32Array;
  dynamic: boolean;
  channels: number;
  taps: number;
  /** Output rows, all batches together. */
  rows: number;
  /** The pool's share when the rows are split across threads, else null. */
  par: Parallel | null;
  /** Depth multiplier > 1: the kernels and transpose_bytes's block of the input's expansion into the scratch buffer. */
  expand: { k: KernelExports | null; params: number } | null;
  /** The expanded input's scratch buffer index (-1 when the depth multiplier is 1). */
  scratch: number;
  /** Per thread, two pixels' tap pointers (bound into D.Ptrs at invoke). */
  ptrs: ThreadScratch | null;
  /** The parameter block's words. */
  p: Int32Array;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const why = declineNonFloat([input, filter, bias, output]);
  if (why) return why;
  const opts = node.builtinData as DepthwiseConv2DOptions | null;
  const act = opts ? declineActivation(opts.fusedActivationFunction) : null;
  if (act) return act;
  if (input.dims.length === 4 && output.dims.length === 4 && (input.dims[3]! < 1 || output.dims[3]! % input.dims[3]! !== 0))
    return `output depth ${output.dims[3]} is not a multiple of the input depth ${input.dims[3]}`;
  return true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as DwData;
  const { opts, input, filter, bias, batches, inC, kH, kW, channels, pad } = prepareDepthwiseNode(context, node);
  const multiplier = opts.depthMultiplier;
  if (bias && bias.elementCount !== channels)
    throw new KernelError(OP, node.index, `bias (tensor ${bias.index}) has ${bias.elementCount} elements, expected ${channels}`);
  const [actMin, actMax] = activationRangeFloat(OP, node, opts.fusedActivationFunction);
  const { inH, inW, padH, padW } = absorbInputPad(context, node, opts.padding, input, pad);
  const g = { outH: pad.outHeight, outW: pad.outWidth, padH, padW };

  const region = context.allocatePersistentBuffer(DW_PARAMS_BYTES);
  data.k = floatKernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  const taps = kH! * kW!;
  const packed = context.allocatePersistentBuffer(depthwisePackedFloats(channels!, taps) * 4);
  data.packed = packed.f32;
  data.channels = channels!;
  data.taps = taps;
  data.dynamic = !hasFixedData(filter) || (bias !== null && !hasFixedData(bias));
  if (!data.dynamic) packDepthwiseF32(data.packed, filter.data as Float32Array, bias ? (bias.data as Float32Array) : null, channels!, taps);
  const zero = context.allocatePersistentBuffer(Math.ceil(channels! / DW_CT) * DW_CT * 4);
  zero.f32.fill(0);
  const rows = batches! * g.outH;
  // float work weighs about four int8 multiply-accumulates
  const threads = threadsFor(options, 4 * rows * g.outW * channels! * taps, rows);
  // two pixels' tap pointers per thread
  data.ptrs = requestThreadScratch(context, 2 * taps * 4, threads);
  data.rows = rows;
  data.par = parallelFor(region, threads, rows);
  if (multiplier > 1) {
    // the input as [pixels · C, m] with a stride of 0 along m: channel c repeated m times
    const pixels = batches! * inH! * inW!;
    data.expand = prepareStridedCopy(OP, context, node, [pixels * inC!, multiplier], [4, 0], 4);
    data.scratch = context.requestScratchBufferInArena(pixels * channels! * 4);
  }

  const p = region.i32;
  p.fill(0, 0, D.Words);
  p[D.Batches] = batches!;
  p[D.OutH] = g.outH;
  p[D.OutW] = g.outW;
  p[D.InH] = inH!;
  p[D.InW] = inW!;
  p[D.C] = channels!;
  p[D.KH] = kH!;
  p[D.KW] = kW!;
  p[D.StrideH] = opts.strideH;
  p[D.StrideW] = opts.strideW;
  p[D.DilH] = opts.dilationHFactor;
  p[D.DilW] = opts.dilationWFactor;
  p[D.PadH] = g.padH;
  p[D.PadW] = g.padW;
  p[D.Packed] = packed.offset;
  p[D.Zero] = zero.offset;
  region.f32[D.ActMin] = actMin;
  region.f32[D.ActMax] = actMax;
  data.params = region.offset;
  data.p = p;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DwData;
  if (data.dynamic) {
    const b = node.inputs.length > 2 && node.inputs[2]! >= 0 ? (context.getEvalTensor(node.inputs[2]!).data as Float32Array) : null;
    packDepthwiseF32(data.packed, context.getEvalTensor(node.inputs[1]!).data as Float32Array, b, data.channels, data.taps);
  }
  data.p[D.Ptrs] = threadScratchOffset(context, data.ptrs!);
  let input = inputOffset(context, node, 0, data.input);
  if (data.expand) {
    const expanded = context.getScratchBuffer(data.scratch).offset;
    data.expand.k!.transpose_bytes(data.expand.params, input, expanded);
    input = expanded;
  }
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const par = data.par;
  if (par)
    par.pool.run(data.k as unknown as JobExports, par.instance, Fn.F32Dwconv, data.params, input, output, 0, data.rows, 1, par.chunks);
  else data.k!.f32_dwconv(data.params, input, output);
}

/** The float32 DEPTHWISE_CONV_2D registration. */
export function createDepthwiseConv2DF32(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<DwData> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/wasm-f32-dw8',
    supports,
    init: (): DwData => ({
      k: null,
      params: 0,
      input: -1,
      packed: new Float32Array(0),
      dynamic: false,
      channels: 0,
      taps: 0,
      rows: 0,
      par: null,
      expand: null,
      scratch: -1,
      ptrs: null,
      p: new Int32Array(0),
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
