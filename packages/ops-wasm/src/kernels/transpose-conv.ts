/**
 * TRANSPOSE_CONV, int8 (per-channel symmetric int8 filter, int32 bias) and TFLite's uint8 (per-tensor
 * quantization, any zero points), in WebAssembly: qs8_tconv (assembly/int8/transpose-conv.ts), TFLM's
 * reference kernel (int32 accumulation of (input - zp) × filter into the node's scratch buffer, then per
 * channel the bias, MultiplyByQuantizedMultiplier, the output zero point and the clamp to the output
 * type, as TFLM computes it with kTfLiteActNone), bit-exact with ops-reference. The output stage is
 * kernel-support's prepareConvOutputStage, the geometry its transposeConvShape. Declines float32 (the
 * float kernel's), int16 activations, non-constant filters or biases, asymmetric int8 and per-channel
 * uint8 filters; the next provider serves the node.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
  type TransposeConvOptions,
} from '@micrort/core';
import {
  declineArity,
  emptyOutputParams,
  expectConvRanks,
  expectKnownPadding,
  expectTransposeConvOutputShape,
  prepareConvOutputStage,
  setOutputShape,
  transposeConvShape,
} from '@micrort/kernel-support';
import { RQ_BYTES, TQ, TQ_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { RQ_WORDS, constantInputCopies, declineWeighted, inputOffset, writeRequantBlock } from './kernel-common.js';

const OP = 'TRANSPOSE_CONV';
const INT16_BIAS: readonly TensorType[] = [TensorType.INT64, TensorType.INT16];

interface TransposeConvData {
  k: KernelExports | null;
  params: number;
  p: Int32Array;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  scratch: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [3, 4], 1);
  if (arity) return arity;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.inputs[2]! < 0) return 'output_shape, filter and input are required';
  const filter = context.getTensor(node.inputs[1]!);
  const input = context.getTensor(node.inputs[2]!);
  const bias = node.inputs.length > 3 && node.inputs[3]! >= 0 ? context.getTensor(node.inputs[3]!) : null;
  return declineWeighted(input, filter, bias, context.getTensor(node.outputs[0]!)) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeConvData;
  const opts = node.builtinData as TransposeConvOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing TransposeConvOptions');
  checkArity(OP, node, [3, 4], 1);
  const outputShape = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const input = getInput(context, node, 2, OP);
  const bias = getOptionalInput(context, node, 3);
  if (outputShape.isConstant && outputShape.type === TensorType.INT32 && outputShape.dims.length === 1 && outputShape.dims[0] === 4)
    setOutputShape(OP, context, node, 0, outputShape.data as Int32Array);
  const output = getOutput(context, node, 0, OP);
  expectConvRanks(OP, node, { input, filter, output });
  expectTransposeConvOutputShape(OP, node, outputShape, output);
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
  // weights minus the filter zero point, int16: per tap, per block of 8 channels, per input channel
  const packed = context.allocatePersistentBuffer(taps * blocks * inC * 16);
  const w16 = packed.i16;
  const w = filter.data as Int8Array | Uint8Array;
  const wzp = input.type === TensorType.UINT8 ? filter.params.zeroPoint : 0;
  for (let t = 0; t < taps; t++)
    for (let n = 0; n < blocks; n++)
      for (let c = 0; c < inC; c++)
        for (let j = 0; j < 8; j++) {
          const oc = n * 8 + j;
          w16[((t * blocks + n) * inC + c) * 8 + j] = oc < outC ? w[(oc * taps + t) * inC + c]! - wzp : 0;
        }
  const biasRegion = context.allocatePersistentBuffer(blocks * 32);
  biasRegion.i32.fill(0);
  if (bias) biasRegion.i32.set(bias.data as Int32Array);
  const rq = context.allocatePersistentBuffer(blocks * 2 * RQ_BYTES);
  for (let b = 0; b < blocks * 2; b++) writeRequantBlock(rq.i32, b * RQ_WORDS, b * 4, outC, out.multiplier, out.shift);
  const tmp = context.allocatePersistentBuffer(32);
  data.scratch = context.requestScratchBufferInArena(output.elementCount * 4 + 32);

  const p = region.i32;
  p.fill(0, 0, TQ.Words);
  p[TQ.Batches] = s.batches;
  p[TQ.InH] = s.inHeight;
  p[TQ.InW] = s.inWidth;
  p[TQ.InC] = inC;
  p[TQ.OutH] = s.outHeight;
  p[TQ.OutW] = s.outWidth;
  p[TQ.OutC] = outC;
  p[TQ.KH] = s.filterHeight;
  p[TQ.KW] = s.filterWidth;
  p[TQ.StrideH] = s.strideHeight;
  p[TQ.StrideW] = s.strideWidth;
  p[TQ.PadH] = s.padHeight;
  p[TQ.PadW] = s.padWidth;
  p[TQ.ZpIn] = -out.inputOffset;
  p[TQ.ZpOut] = out.outputOffset;
  p[TQ.ActMin] = out.actMin;
  p[TQ.ActMax] = out.actMax;
  p[TQ.U8] = input.type === TensorType.UINT8 ? 1 : 0;
  p[TQ.Packed] = packed.offset;
  p[TQ.Blocks] = blocks;
  p[TQ.Bias] = biasRegion.offset;
  p[TQ.Rq] = rq.offset;
  p[TQ.Tmp] = tmp.offset;
  data.p = p;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeConvData;
  data.p[TQ.Acc] = context.getScratchBuffer(data.scratch).offset;
  const input = inputOffset(context, node, 2, data.input);
  data.k!.qs8_tconv(data.params, input, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The int8 / uint8 TRANSPOSE_CONV registration. */
export function createTransposeConv(): Registration<TransposeConvData> {
  return {
    builtinCode: BuiltinOperator.TRANSPOSE_CONV,
    version: 5,
    provider: PROVIDER,
    name: 'TRANSPOSE_CONV/wasm-s8-scatter',
    supports,
    init: (): TransposeConvData => ({ k: null, params: 0, p: new Int32Array(0), input: -1, scratch: -1 }),
    prepare,
    invoke,
  };
}
