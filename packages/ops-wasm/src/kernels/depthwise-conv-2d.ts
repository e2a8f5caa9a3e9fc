/**
 * DEPTHWISE_CONV_2D, int8 (per-channel or per-tensor symmetric filter) and uint8 (per-tensor, int16 weights), in WebAssembly: qs8_dwconv
 * (assembly/int8/depthwise-conv.ts), eight output channels per vector (a depth multiplier > 1 gathers
 * their input channels with a swizzle); one input channel with a depth multiplier (a convolution of
 * K = taps) by the CONV_2D GEMM qs8_conv. Weights packed at prepare into the arena. Declines other
 * types, non-constant filter or bias and asymmetric filters (the next provider serves the node). With
 * VALID padding it absorbs a PAD of height and width before its input (pad-absorb.ts).
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { Fn } from '../threads/control.js';
import { parallelFor, threadsFor, type Parallel } from './parallel.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import {
  GEMM_TILE_PIXELS,
  W,
  WINDOW_PARAMS_BYTES,
  constantInputCopies,
  inputOffset,
  declineWeighted,
  rightOnlyRange,
  writeWindowParams,
} from './kernel-common.js';
import { layoutExtBytes, packConvGemm, packDepthwise, packableWeights } from './weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from './window-scratch.js';
import { absorbInputPad } from './pad-absorb.js';
import { declineArity, int8ConvOutputStage } from '@micrort/kernel-support';
import { prepareDepthwiseNode } from './depthwise-common.js';

const OP = 'DEPTHWISE_CONV_2D';

interface DepthwiseData {
  k: KernelExports | null;
  params: number;
  /** One input channel (depth multiplier = output channels): served by the CONV_2D GEMM. */
  conv: boolean;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** The parameter block (its Scratch word is set at invoke) and the scratch buffer's index. */
  p: Int32Array;
  scratch: number;
  /** Output pixels; the node's share of the thread pool (null: the main thread alone) and its chunks' alignment. */
  total: number;
  par: Parallel | null;
  align: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const why = declineWeighted(input, filter, bias, output);
  if (why) return why;
  return true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as DepthwiseData;
  const { opts, input, filter, bias, output, batches, inC, kH, kW, channels, pad } = prepareDepthwiseNode(context, node);
  const q = int8ConvOutputStage(OP, context, node, { input, filter, bias, output }, channels!, 3, opts.fusedActivationFunction);
  const { inH, inW, padH, padW } = absorbInputPad(context, node, opts.padding, input, pad);
  const g = { outH: pad.outHeight, outW: pad.outWidth, padH, padW };

  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const { actMin, actMax } = q;
  const taps = kH! * kW!;
  const p = paramsRegion.i32;
  writeWindowParams(p, {
    batches: batches!,
    inH: inH!,
    inW: inW!,
    inC: inC!,
    outH: g.outH,
    outW: g.outW,
    outC: channels!,
    kH: kH!,
    kW: kW!,
    strideH: opts.strideH,
    strideW: opts.strideW,
    dilH: opts.dilationHFactor,
    dilW: opts.dilationWFactor,
    padH: g.padH,
    padW: g.padW,
    actMin,
    actMax,
    zpOut: output.params.zeroPoint,
  });
  data.params = paramsRegion.offset;
  data.p = p;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
  data.conv = inC === 1 && channels > 1;
  const pixels = batches! * g.outH * g.outW;
  data.total = pixels;
  if (data.conv) {
    // One input channel, depth multiplier = output channels: a convolution with K = taps, run by the
    // CONV_2D GEMM on compact im2col rows. The filter [1, kH, kW, out] becomes [out, kH, kW, 1].
    const f = packableWeights(filter);
    const t = f instanceof Int16Array ? new Int16Array(f.length) : new Int8Array(f.length);
    for (let c = 0; c < channels; c++) for (let k = 0; k < taps; k++) t[c * taps + k] = f[k * channels + c]!;
    const fastConv = rightOnlyRange(q.multiplier, q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
    const layout = packConvGemm(
      context,
      p,
      t,
      channels,
      taps,
      1,
      bias ? (bias.data as Int32Array) : null,
      input.params.zeroPoint,
      options.dotMode,
      false,
    );
    p[W.ZpIn] = input.params.zeroPoint;
    p[W.RightOnly] = fastConv ? 1 : 0;
    const tiles = Math.ceil(pixels / GEMM_TILE_PIXELS);
    const threads = threadsFor(options, pixels * channels * taps, tiles);
    data.scratch = requestWindowScratch(context, p, q.multiplier, q.shift, {
      channels,
      zeroBytes: layout.zeroBytes,
      ptrBytes: layout.gather && opts.dilationWFactor === 1 ? 0 : taps * 4,
      rowBytes: layout.rowBytes,
      extBytes: layoutExtBytes(layout),
      threads,
    });
    data.par = parallelFor(paramsRegion, threads, tiles);
    data.align = GEMM_TILE_PIXELS;
    return;
  }
  const groups = (channels! + 7) >> 3;
  const fast = rightOnlyRange(q.multiplier, q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
  packDepthwise(context, p, packableWeights(filter), channels!, taps, bias ? (bias.data as Int32Array) : null, input.params.zeroPoint);
  p[W.U8] = input.type === TensorType.UINT8 ? 1 : 0;
  // two tables of tap pointers (qs8_dwconv runs two neighbouring pixels per step), the odd tap count rounded up
  const threads = threadsFor(options, pixels * channels! * taps, pixels >> 1);
  data.scratch = requestWindowScratch(context, p, q.multiplier, q.shift, {
    channels: channels!,
    zeroBytes: groups * 8 + 8,
    ptrBytes: 2 * (taps + 1) * 4,
    threads,
  });
  data.par = parallelFor(paramsRegion, threads, pixels >> 1);
  data.align = 2; // pixel pairs

  if (opts.depthMultiplier > 1) {
    // per group of eight output channels: the i16 swizzle that puts input channel (c + j) / m in lane j,
    // and the first input channel to load from
    const table = context.allocatePersistentBuffer(groups * 32);
    for (let g = 0; g < groups; g++) {
      const start = Math.floor((8 * g) / opts.depthMultiplier);
      for (let j = 0; j < 8; j++) {
        const oc = 8 * g + j;
        const rel = oc < channels ? Math.floor(oc / opts.depthMultiplier) - start : 0;
        table.u8[g * 32 + 2 * j] = 2 * rel;
        table.u8[g * 32 + 2 * j + 1] = 2 * rel + 1;
      }
      table.i32[g * 8 + 4] = start;
    }
    p[W.DmTable] = table.offset;
  }
  p[W.Kb8] = groups;
  p[W.ZpIn] = input.params.zeroPoint;
  p[W.RightOnly] = fast ? 1 : 0;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DepthwiseData;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  bindWindowScratch(context, data.p, data.scratch);
  const k = data.k!;
  const par = data.par;
  if (par) {
    k.window_begin(data.params);
    par.pool.run(k, par.instance, data.conv ? Fn.Conv : Fn.Dwconv, data.params, input, output, 0, data.total, data.align, par.chunks);
  } else if (data.conv) k.qs8_conv(data.params, input, output);
  else k.qs8_dwconv(data.params, input, output);
}

/** The DEPTHWISE_CONV_2D registration. */
export function createDepthwiseConv2D(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<DepthwiseData> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/wasm-qs8-dw8',
    supports,
    init: (): DepthwiseData => ({
      k: null,
      params: 0,
      conv: false,
      fixed: -1,
      p: new Int32Array(0),
      scratch: -1,
      total: 0,
      par: null,
      align: 1,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
