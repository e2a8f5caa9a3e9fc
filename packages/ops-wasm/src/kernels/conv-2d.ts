/**
 * CONV_2D, int8 (per-channel or per-tensor symmetric filter) and TFLite's uint8 (per-tensor, any zero
 * points; int16 weights w - zero point), in WebAssembly: qs8_conv, a 4-pixel x 8-channel GEMM tile over
 * tap pointers (assembly/int8/conv.ts), with the weights packed at prepare into the arena.
 * Declines (the next provider serves the node): other types, grouped convolution, non-constant filter
 * or bias, asymmetric int8 filters, per-channel uint8 filters. With VALID padding it absorbs a PAD of
 * height and width before its input (pad-absorb.ts), except on the one-pixel path.
 */
import {
  BuiltinOperator,
  KernelError,
  checkArity,
  getInput,
  getOptionalInput,
  type Conv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../options.js';
import { Fn } from '../threads/control.js';
import { parallelFor, threadsFor, type Parallel } from './parallel.js';
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
import { layoutExtBytes, packConvGemm, packableWeights } from './weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from './window-scratch.js';
import { absorbInputPad, inputWindow } from './pad-absorb.js';
import { convWindow, declineArity, expectWindowOutput, setConvOutputShape, int8ConvOutputStage } from '@micrort/kernel-support';

const OP = 'CONV_2D';

interface ConvData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** The parameter block (its Scratch word is set at invoke) and the scratch buffer's index. */
  p: Int32Array;
  scratch: number;
  /** Output pixels, and the node's share of the thread pool (null: the main thread alone). */
  total: number;
  par: Parallel | null;
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const why = declineWeighted(input, filter, bias, output);
  if (why) return why;
  if (input.dims.length === 4 && filter.dims.length === 4 && input.dims[3] !== filter.dims[3])
    return `grouped convolution (input depth ${input.dims[3]}, filter depth ${filter.dims[3]})`;
  return declineSmall(filter.elementCount, output.elementCount, filter.dims[0] ?? 0, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as ConvData;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = setConvOutputShape(OP, context, node, { input, filter }, opts, filter.dims[0]!);
  const [batches, , , inC] = input.dims as unknown as number[];
  const [outC, kH, kW, kC] = filter.dims as unknown as number[];
  if (kC !== inC) throw new KernelError(OP, node.index, `filter depth ${kC} differs from input depth ${inC} (grouped convolution)`);
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  if (output.dims[3] !== outC)
    throw new KernelError(OP, node.index, `output has ${output.dims[3]} channels, filter (tensor ${filter.index}) has ${outC}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const taps = kH! * kW!;
  const pixels = batches! * pad.outHeight * pad.outWidth;
  // one output pixel over one tap runs qs8_conv's one-pixel path, which reads the input in place
  const onePixel = pixels === 1 && taps === 1;
  const q = int8ConvOutputStage(OP, context, node, { input, filter, bias, output }, outC!, 0, opts.fusedActivationFunction);
  const { inH, inW, padH, padW } = onePixel ? inputWindow(input, pad) : absorbInputPad(context, node, opts.padding, input, pad);
  const g = { outH: pad.outHeight, outW: pad.outWidth, padH, padW };

  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const { actMin, actMax } = q;
  const fast = rightOnlyRange(q.multiplier, q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
  const p = paramsRegion.i32;
  writeWindowParams(p, {
    batches: batches!,
    inH: inH!,
    inW: inW!,
    inC: inC!,
    outH: g.outH,
    outW: g.outW,
    outC: outC!,
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
  // depth not a multiple of the tile's step over several taps: compact im2col rows (K padded once)
  const layout = packConvGemm(
    context,
    p,
    packableWeights(filter),
    outC!,
    taps,
    inC!,
    bias ? (bias.data as Int32Array) : null,
    input.params.zeroPoint,
    options.dotMode,
    onePixel,
    { kH: kH!, kW: kW!, dilW: opts.dilationWFactor },
  );
  p[W.ZpIn] = input.params.zeroPoint;
  p[W.RightOnly] = fast ? 1 : 0;
  p[W.Direct] =
    taps === 1 && opts.strideH === 1 && opts.strideW === 1 && g.padH === 0 && g.padW === 0 && g.outH === inH && g.outW === inW ? 1 : 0;
  data.params = paramsRegion.offset;
  data.p = p;
  const tiles = Math.ceil(pixels / GEMM_TILE_PIXELS);
  const threads = onePixel ? 1 : threadsFor(options, pixels * outC! * taps * inC!, tiles);
  data.scratch = requestWindowScratch(context, p, q.multiplier, q.shift, {
    channels: outC!,
    zeroBytes: layout.zeroBytes,
    // one pixel's tap pointers (a gathered row with dilation_w 1 is copied in runs, without them)
    ptrBytes: layout.gather && opts.dilationWFactor === 1 ? 0 : taps * 4,
    rowBytes: layout.rowBytes,
    extBytes: layoutExtBytes(layout),
    threads,
  });
  data.total = pixels;
  data.par = parallelFor(paramsRegion, threads, tiles);
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ConvData;
  bindWindowScratch(context, data.p, data.scratch);
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = data.k!;
  const par = data.par;
  if (par) {
    k.window_begin(data.params);
    par.pool.run(k, par.instance, Fn.Conv, data.params, input, output, 0, data.total, GEMM_TILE_PIXELS, par.chunks);
  } else k.qs8_conv(data.params, input, output);
}

/** The CONV_2D registration. */
export function createConv2D(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<ConvData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-qs8-gemm',
    supports: (context, node) => supports(context, node, options),
    init: (): ConvData => ({ k: null, params: 0, fixed: -1, p: new Int32Array(0), scratch: -1, total: 0, par: null }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
