/**
 * TRANSPOSE_CONV, int8 (per-channel symmetric int8 filter, int32 bias), TFLite's uint8 (per-tensor
 * quantization, any zero points) and 16x8 (int16 activations, int8 filter, int64 or int16 bias), in
 * WebAssembly: qs8_tconv_run (assembly/int8/transpose-conv.ts) and qs16_tconv_run (transpose-conv-16x8.ts), TFLM's
 * reference kernel (int32 accumulation of (input - zp) × filter into the node's scratch buffer, then per
 * channel the bias, MultiplyByQuantizedMultiplier, the output zero point and the clamp to the output
 * type, as TFLM computes it with kTfLiteActNone; 16x8: int64 accumulators and TFLM's int64
 * MultiplyByQuantizedMultiplier), bit-exact with ops-reference. The output stage is kernel-support's
 * prepareConvOutputStage, the geometry its transposeConvShape. A node of at least `parallelMinMacs`
 * multiply-accumulates splits its output rows across the pool's threads: each band clears, accumulates
 * and requantizes only its own rows of the accumulator buffer (the products of the input rows that reach
 * them, in one thread's order), with its own partial-block scratch, so the bytes equal one thread's.
 * Declines float32 (the float kernel's),
 * non-constant filters or biases, asymmetric int8 and per-channel uint8 filters; the next provider serves
 * the node.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  type ArenaRegion,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type TransposeConvOptions,
} from '@micrort/core';
import {
  INT8_ONLY,
  declineArity,
  declineAsymmetric,
  declineType,
  emptyOutputParams,
  expectKnownPadding,
  prepareConvOutputStage,
  transposeConvShape,
  transposeConvTensors,
  type TransposeConvShape,
} from '@micrort/kernel-support';
import { RQ_BYTES, TQ, TQ_BYTES } from '../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { Fn } from '../threads/control.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { RQ_WORDS, constantInputCopies, declineWeighted, inputOffset, writeRequantBlock } from './kernel-common.js';
import { parallelFor, threadsFor, type Parallel, requestThreadScratch, threadScratchOffset, type ThreadScratch } from './parallel.js';

const OP = 'TRANSPOSE_CONV';
const INT16_BIAS: readonly TensorType[] = [TensorType.INT64, TensorType.INT16];

interface TransposeConvData {
  k: KernelExports | null;
  params: number;
  p: Int32Array;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  scratch: number;
  /** Per thread, 64 bytes for a partial block (bound into TQ.Tmp at invoke). */
  tmp: ThreadScratch | null;
  /** 16x8 (qs16_tconv_run). */
  i16: boolean;
  outH: number;
  /** The pool's share, or null on one thread. */
  par: Parallel | null;
}

/** Why a 16x8 node is not handled, or null: int16 input and output, constant symmetric int8 filter, constant int64 or int16 bias. */
function decline16x8(filter: Tensor, bias: Tensor | null, output: Tensor): string | null {
  const why = declineType('output', output, [TensorType.INT16]) ?? declineType('filter', filter, INT8_ONLY);
  if (why) return why;
  if (!filter.isConstant) return 'filter is not a constant (weights are packed at prepare)';
  if (bias && (!INT16_BIAS.includes(bias.type) || !bias.isConstant)) return 'bias is not a constant int64 or int16 tensor';
  return declineAsymmetric('filter', filter);
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [3, 4], 1);
  if (arity) return arity;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.inputs[2]! < 0) return 'output_shape, filter and input are required';
  const filter = context.getTensor(node.inputs[1]!);
  const input = context.getTensor(node.inputs[2]!);
  const bias = node.inputs.length > 3 && node.inputs[3]! >= 0 ? context.getTensor(node.inputs[3]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  if (input.type === TensorType.INT16) return decline16x8(filter, bias, output) ?? true;
  return declineWeighted(input, filter, bias, output) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as TransposeConvData;
  const opts = node.builtinData as TransposeConvOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing TransposeConvOptions');
  checkArity(OP, node, [3, 4], 1);
  const { filter, input, bias, output } = transposeConvTensors(OP, context, node);
  expectKnownPadding(OP, node, opts.padding);
  const s = transposeConvShape(OP, node, opts, input, filter, output);
  const out = emptyOutputParams();
  prepareConvOutputStage(OP, context, node, input, filter, bias, output, s.outDepth, out, {
    quantizedDimension: 0,
    int16BiasTypes: INT16_BIAS,
    floatActivation: opts.fusedActivationFunction,
    quantizedActivation: ActivationFunctionType.NONE,
  });
  const outC = s.outDepth;
  const inC = s.inDepth;
  const taps = s.filterHeight * s.filterWidth;
  const blocks = Math.ceil(outC / 8);

  const region = context.allocatePersistentBuffer(TQ_BYTES);
  data.k = kernelsFor(OP, node, region) as KernelExports | null;
  data.input = constantInputCopies(context, node, [2])[0]!;
  const packed = packTransposeConvFilter(
    context,
    filter.data as Int8Array | Uint8Array,
    input.type === TensorType.UINT8 ? filter.params.zeroPoint : 0,
    s,
  );
  const i16 = input.type === TensorType.INT16;
  data.i16 = i16;
  // the bias padded to whole blocks: int32, or int64 for 16x8 (an int16 bias widened)
  const biasRegion = context.allocatePersistentBuffer(blocks * (i16 ? 64 : 32));
  biasRegion.i32.fill(0);
  if (bias && !i16) biasRegion.i32.set(bias.data as Int32Array);
  if (bias && i16 && bias.type === TensorType.INT64) biasRegion.u8.set(bias.bytes);
  if (bias && i16 && bias.type === TensorType.INT16)
    (bias.data as Int16Array).forEach((v, c) => biasRegion.i32.set([v, v < 0 ? -1 : 0], 2 * c));
  // int8: the requantization blocks; 16x8: per channel TFLM's reduced 16-bit multiplier and total shift
  const rq = context.allocatePersistentBuffer(i16 ? outC * 8 : blocks * 2 * RQ_BYTES);
  if (i16)
    for (let c = 0; c < outC; c++) {
      const m = out.multiplier[c]!;
      rq.i32[2 * c] = m < 0x7fff0000 ? (m + 32768) >> 16 : 0x7fff;
      rq.i32[2 * c + 1] = 15 - out.shift[c]!;
    }
  else for (let b = 0; b < blocks * 2; b++) writeRequantBlock(rq.i32, b * RQ_WORDS, b * 4, outC, out.multiplier, out.shift);
  // output rows split across threads, each with 64 bytes for a partial block
  const macs = s.batches * s.inHeight * s.inWidth * taps * inC * outC;
  const threads = threadsFor(options, macs, s.outHeight);
  data.par = parallelFor(region, threads, s.outHeight);
  data.outH = s.outHeight;
  data.tmp = requestThreadScratch(context, 64, threads);
  data.scratch = context.requestScratchBufferInArena(output.elementCount * (i16 ? 8 : 4) + 64);

  const p = region.i32;
  writeTransposeConvShape(p, s, packed);
  p[TQ.ZpIn] = -out.inputOffset;
  p[TQ.ZpOut] = out.outputOffset;
  p[TQ.ActMin] = out.actMin;
  p[TQ.ActMax] = out.actMax;
  p[TQ.U8] = input.type === TensorType.UINT8 ? 1 : 0;
  p[TQ.Bias] = biasRegion.offset;
  p[TQ.Rq] = rq.offset;
  data.p = p;
  data.params = region.offset;
}

/**
 * The filter `[outC, kH, kW, inC]` minus `wzp` as int16 in a new persistent buffer, as qs8_tconv_run and
 * qs16_tconv_run read it (TQ.Packed): per tap, per block of 8 output channels, per input channel, 8 values
 * (zeros past outC).
 */
export function packTransposeConvFilter(context: TfLiteContext, w: ArrayLike<number>, wzp: number, s: TransposeConvShape): ArenaRegion {
  const { inDepth: inC, outDepth: outC } = s;
  const taps = s.filterHeight * s.filterWidth;
  const blocks = Math.ceil(outC / 8);
  const packed = context.allocatePersistentBuffer(taps * blocks * inC * 16);
  const w16 = packed.i16;
  for (let t = 0; t < taps; t++)
    for (let n = 0; n < blocks; n++)
      for (let c = 0; c < inC; c++)
        for (let j = 0; j < 8; j++) {
          const oc = n * 8 + j;
          w16[((t * blocks + n) * inC + c) * 8 + j] = oc < outC ? w[(oc * taps + t) * inC + c]! - wzp : 0;
        }
  return packed;
}

/** Clears the TQ block `p` and writes its geometry words (Batches to PadW), Packed and Blocks. */
export function writeTransposeConvShape(p: Int32Array, s: TransposeConvShape, packed: ArenaRegion): void {
  p.fill(0, 0, TQ.Words);
  p[TQ.Batches] = s.batches;
  p[TQ.InH] = s.inHeight;
  p[TQ.InW] = s.inWidth;
  p[TQ.InC] = s.inDepth;
  p[TQ.OutH] = s.outHeight;
  p[TQ.OutW] = s.outWidth;
  p[TQ.OutC] = s.outDepth;
  p[TQ.KH] = s.filterHeight;
  p[TQ.KW] = s.filterWidth;
  p[TQ.StrideH] = s.strideHeight;
  p[TQ.StrideW] = s.strideWidth;
  p[TQ.PadH] = s.padHeight;
  p[TQ.PadW] = s.padWidth;
  p[TQ.Packed] = packed.offset;
  p[TQ.Blocks] = Math.ceil(s.outDepth / 8);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeConvData;
  data.p[TQ.Acc] = context.getScratchBuffer(data.scratch).offset;
  data.p[TQ.Tmp] = threadScratchOffset(context, data.tmp!);
  const input = inputOffset(context, node, 2, data.input);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = data.k!;
  const par = data.par;
  if (par) par.pool.run(k, par.instance, data.i16 ? Fn.Tconv16 : Fn.Tconv8, data.params, input, output, 0, data.outH, 1, par.chunks);
  else if (data.i16) k.qs16_tconv_run(data.params, input, output, 0, data.outH, 0);
  else k.qs8_tconv_run(data.params, input, output, 0, data.outH, 0);
}

/** The int8, uint8 and 16x8 TRANSPOSE_CONV registration. */
export function createTransposeConv(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<TransposeConvData> {
  return {
    builtinCode: BuiltinOperator.TRANSPOSE_CONV,
    version: 5,
    provider: PROVIDER,
    name: 'TRANSPOSE_CONV/wasm-s8-scatter',
    supports,
    init: (): TransposeConvData => ({
      k: null,
      params: 0,
      p: new Int32Array(0),
      input: -1,
      scratch: -1,
      tmp: null,
      i16: false,
      outH: 0,
      par: null,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
