/**
 * CONV_2D, int8 (per-channel or per-tensor symmetric filter), in WebAssembly: qs8_conv, a 4-pixel x
 * 2-channel GEMM tile over tap pointers (assembly/int8/conv.ts), with the weights packed at prepare into
 * the arena.
 * Declines (the next provider serves the node): other types, grouped convolution, non-constant filter
 * or bias, asymmetric filters.
 */
import {
  BuiltinOperator,
  KernelError,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type Conv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import {
  W,
  WINDOW_PARAMS_BYTES,
  constantInputCopies,
  inputOffset,
  declineWeighted,
  extScratchBytes,
  rightOnlyRange,
  writeWindowParams,
} from './kernel-common.js';
import { gemmPackedBytes, packGemm } from './weight-pack.js';
import {
  convWindow,
  declineArity,
  expectConvRanks,
  expectConvStrides,
  expectWindowOutput,
  int8ConvOutputStage,
} from '@micrort/kernel-support';

const OP = 'CONV_2D';

interface ConvData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** The parameter block (its Ext word is set at invoke) and the row scratch buffer's index. */
  p: Int32Array;
  ext: number;
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
  if (input.dims.length === 4 && filter.dims.length === 4 && input.dims[3] !== filter.dims[3])
    return `grouped convolution (input depth ${input.dims[3]}, filter depth ${filter.dims[3]})`;
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as ConvData;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, OP);
  expectConvRanks(OP, node, { input, filter, output });
  expectConvStrides(OP, node, opts);
  const [batches, inH, inW, inC] = input.dims as unknown as number[];
  const [outC, kH, kW, kC] = filter.dims as unknown as number[];
  if (kC !== inC) throw new KernelError(OP, node.index, `filter depth ${kC} differs from input depth ${inC} (grouped convolution)`);
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  if (output.dims[3] !== outC)
    throw new KernelError(OP, node.index, `output has ${output.dims[3]} channels, filter (tensor ${filter.index}) has ${outC}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const g = { outH: pad.outHeight, outW: pad.outWidth, padH: pad.height, padW: pad.width };

  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const q = int8ConvOutputStage(OP, context, node, { input, filter, bias, output }, outC!, 0, opts.fusedActivationFunction);
  const { actMin, actMax } = q;
  const taps = kH! * kW!;
  // Depth not a multiple of 8 over several taps: gather compact im2col rows (K padded to 8 once).
  const gather = taps > 1 && inC! % 8 !== 0;
  const kb8 = gather ? (taps * inC! + 7) >> 3 : (inC! + 7) >> 3;
  const packTaps = gather ? 1 : taps;
  const packDepth = gather ? taps * inC! : inC!;
  const packed = context.allocatePersistentBuffer(gemmPackedBytes(outC!, packTaps, kb8));
  const fast = rightOnlyRange(q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
  packGemm(
    packed,
    filter.data as Int8Array,
    outC!,
    packTaps,
    packDepth,
    kb8,
    bias ? (bias.data as Int32Array) : null,
    q.multiplier,
    q.shift,
    input.params.zeroPoint,
    fast,
  );
  const zero = context.allocatePersistentBuffer(((inC! + 7) & ~7) + 8);
  zero.i8.fill(input.params.zeroPoint);
  const ptrs = context.allocatePersistentBuffer(4 * taps * 4);
  const rows = gather ? context.allocatePersistentBuffer(4 * (kb8 * 8 + 16)) : null;

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
  p[W.Kb8] = kb8;
  p[W.Packed] = packed.offset;
  p[W.Zero] = zero.offset;
  p[W.Ptrs] = ptrs.offset;
  p[W.Gather] = gather ? 1 : 0;
  p[W.Rows] = rows ? rows.offset : 0;
  p[W.RightOnly] = fast ? 1 : 0;
  p[W.Direct] =
    taps === 1 && opts.strideH === 1 && opts.strideW === 1 && g.padH === 0 && g.padW === 0 && g.outH === inH && g.outW === inW ? 1 : 0;
  data.params = paramsRegion.offset;
  data.p = p;
  // one output pixel over one tap runs qs8_conv's one-pixel path, which reads the input in place
  const onePixel = batches! * g.outH * g.outW === 1 && !gather && taps === 1;
  data.ext = onePixel ? -1 : context.requestScratchBufferInArena(extScratchBytes(packTaps * kb8));
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ConvData;
  if (data.ext >= 0) data.p[W.Ext] = context.getScratchBuffer(data.ext).offset;
  data.k!.qs8_conv(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The CONV_2D registration. */
export function createConv2D(): Registration<ConvData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-qs8-gemm',
    supports,
    init: (): ConvData => ({ k: null, params: 0, fixed: -1, p: new Int32Array(0), ext: -1 }),
    prepare,
    invoke,
  };
}
