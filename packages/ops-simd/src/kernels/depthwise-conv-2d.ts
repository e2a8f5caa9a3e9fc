/**
 * DEPTHWISE_CONV_2D, int8 per-channel, dispatched as arm_depthwise_conv_wrapper_s8 (DSP build), which TFLM's
 * CMSIS-NN kernel (kernels/cmsis_nn/depthwise_conv.cc) calls:
 *
 * | condition                                                            | path                        | scratch            |
 * |----------------------------------------------------------------------|-----------------------------|--------------------|
 * | multiplier 1, batch 1, no dilation, 3x3 filter, padding <= 1         | arm_depthwise_conv_3x3_s8   | 0                  |
 * | multiplier 1, batch 1, no dilation, other filters                    | arm_depthwise_conv_s8_opt   | 2 * C * kH * kW    |
 * | anything else                                                        | arm_depthwise_conv_s8       | 0                  |
 *
 * int16 activations and int4 filters are declined by `supports()`.
 *
 * In-place variant (schedules `inplace`, `patch+inplace`; fast mode, depth multiplier 1): one channel at
 * a time through a one-channel scratch buffer, so the output can overwrite the input's buffer.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  type DepthwiseConv2DOptions,
  type InPlaceVariant,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { depthwiseConv3x3Emu, depthwiseConv3x3Fast } from '../cmsis/depthwise-conv-3x3-s8.js';
import { depthwiseConvS8InPlace } from '../cmsis/depthwise-conv-s8-in-place.js';
import { bufferView, noWordOperands, viewBase, type WordOperands } from '../cmsis/word-view.js';
import { depthwiseConvS8Emu, depthwiseConvS8Fast } from '../cmsis/depthwise-conv-s8.js';
import { depthwiseConvS8OptBufferSize, depthwiseConvS8OptEmu, depthwiseConvS8OptFast } from '../cmsis/depthwise-conv-s8-opt.js';
import { emptyConvParams, type ConvParams } from '../cmsis/types.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { prepareOutputStage, windowOf } from './conv-common.js';
import { declineArity, declineTypes, expectType, expectWindowOutput, setConvOutputShape, INT8_ONLY, opData } from '@micrort/kernel-support';

const OP = 'DEPTHWISE_CONV_2D';

/** The arm_depthwise_conv_wrapper_s8 paths. */
export type DepthwisePath = 'arm_depthwise_conv_3x3_s8' | 'arm_depthwise_conv_s8_opt' | 'arm_depthwise_conv_s8';

interface DepthwiseData {
  path: DepthwisePath;
  p: ConvParams;
  scratchIndex: number;
  hasBias: boolean;
  acc: Int32Array;
  /** Fast mode word operands (views set in prepare, bases in invoke). */
  words: WordOperands;
  emu: NodeEmulation;
  /** Scratch buffer of the in-place variant (one output channel), or -1 when the node runs normally. */
  inPlaceScratch: number;
}

/** arm_depthwise_conv_wrapper_s8's choice (DSP build). */
export function selectDepthwisePath(p: ConvParams): DepthwisePath {
  if (p.chMult === 1 && p.batches === 1 && p.dilW === 1 && p.dilH === 1) {
    return p.kW === 3 && p.kH === 3 && p.padH <= 1 && p.padW <= 1 ? 'arm_depthwise_conv_3x3_s8' : 'arm_depthwise_conv_s8_opt';
  }
  return 'arm_depthwise_conv_s8';
}

/** `true` for an int8 depthwise convolution, else why not (int16 activations, float...). */
function supported(context: TfLiteContext, node: Node): true | string {
  return declineArity(node, [2, 3], 1) ?? declineTypes(context, node, [0, 1], INT8_ONLY) ?? true;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<DepthwiseData>(OP, node);
  const params = node.builtinData as DepthwiseConv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing DepthwiseConv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'filter', filter, TensorType.INT8);
  const output = setConvOutputShape(OP, context, node, { input, filter }, params, filter.dims[3]!);
  expectType(OP, node, 'output', output, TensorType.INT8);
  const p = data.p;
  p.batches = input.dims[0]!;
  p.inH = input.dims[1]!;
  p.inW = input.dims[2]!;
  p.inC = input.dims[3]!;
  p.kH = filter.dims[1]!;
  p.kW = filter.dims[2]!;
  p.kC = 1;
  p.outC = filter.dims[3]!;
  if (filter.dims[0] !== 1)
    throw new KernelError(
      OP,
      node.index,
      `filter (tensor ${filter.index}) must have shape [1, kH, kW, C], got [${Array.from(filter.dims).join(', ')}]`,
    );
  if (output.dims[0] !== p.batches || output.dims[3] !== p.outC) {
    throw new KernelError(
      OP,
      node.index,
      `output shape [${Array.from(output.dims).join(', ')}] does not match batch ${p.batches} and ${p.outC} channels`,
    );
  }
  if (p.inC < 1 || p.outC % p.inC !== 0)
    throw new KernelError(OP, node.index, `output channels ${p.outC} are not a multiple of the input channels ${p.inC}`);
  p.chMult = p.outC / p.inC;
  p.strideH = params.strideH;
  p.strideW = params.strideW;
  p.dilH = params.dilationHFactor;
  p.dilW = params.dilationWFactor;
  const pad = expectWindowOutput(OP, node, windowOf(p), params.padding, output);
  p.outH = pad.outHeight;
  p.outW = pad.outWidth;
  p.padH = pad.height;
  p.padW = pad.width;
  prepareOutputStage(OP, context, node, { input, filter, bias, output }, p, 3, params.fusedActivationFunction);
  p.inputOffset = -input.params.zeroPoint;
  p.outputOffset = output.params.zeroPoint;
  data.path = selectDepthwisePath(p);
  data.scratchIndex =
    data.path === 'arm_depthwise_conv_s8_opt' ? context.requestScratchBufferInArena(depthwiseConvS8OptBufferSize(p.inC, p.kH, p.kW)) : -1;
  data.hasBias = bias !== null;
  data.emu = nodeEmulation(o, node, OP, data.path);
  // Word access for the fast mode: the arena (where the per-channel data just went) and the weights' buffer.
  data.words.inView = bufferView(p.multiplier.buffer);
  data.words.wView = filter.isConstant ? bufferView(filter.data.buffer) : data.words.inView;
}

/**
 * The in-place variant (schedule `inplace`, fast mode only): depth multiplier 1, output no larger than
 * the input, one output channel of scratch (cmsis/depthwise-conv-s8-in-place.ts).
 */
function inPlaceVariant(o: ResolvedOptions, context: TfLiteContext, node: Node): InPlaceVariant | null {
  if (o.mode !== 'fast' || supported(context, node) !== true) return null;
  const params = node.builtinData as DepthwiseConv2DOptions | null;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!params || params.depthMultiplier !== 1 || input.dims.length !== 4 || output.dims.length !== 4) return null;
  if (input.dims[3] !== output.dims[3] || output.byteLength > input.byteLength) return null;
  return { input: 0, scratchBytes: output.dims[1]! * output.dims[2]! };
}

function useInPlaceVariant(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const v = inPlaceVariant(o, context, node);
  if (!v) throw new KernelError(OP, node.index, 'the in-place variant was granted to a node that does not declare it');
  opData<DepthwiseData>(OP, node).inPlaceScratch = context.requestScratchBufferInArena(v.scratchBytes);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<DepthwiseData>(OP, node);
  const p = data.p;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const filter = context.getEvalTensor(node.inputs[1]!).data as Int8Array;
  const bias = data.hasBias ? (context.getEvalTensor(node.inputs[2]!).data as Int32Array) : null;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  if (data.inPlaceScratch >= 0) {
    depthwiseConvS8InPlace(p, input, filter, bias, output, context.getScratchBuffer(data.inPlaceScratch).i8);
    return;
  }
  const m = data.emu.machine;
  if (m === null) {
    data.words.inBase = viewBase(data.words.inView, input);
    data.words.wBase = viewBase(data.words.wView, filter);
    if (data.path === 'arm_depthwise_conv_3x3_s8') depthwiseConv3x3Fast(p, input, filter, bias, output, data.words);
    else if (data.path === 'arm_depthwise_conv_s8_opt')
      depthwiseConvS8OptFast(p, input, filter, bias, output, context.getScratchBuffer(data.scratchIndex).i16);
    else depthwiseConvS8Fast(p, input, filter, bias, output, data.words);
    return;
  }
  data.emu.record!.invocations++;
  m.call(); // arm_depthwise_conv_wrapper_s8
  m.alu(6);
  m.branch(3);
  if (data.path === 'arm_depthwise_conv_3x3_s8') depthwiseConv3x3Emu(m, p, input, filter, bias, output, data.acc);
  else if (data.path === 'arm_depthwise_conv_s8_opt')
    depthwiseConvS8OptEmu(m, p, input, filter, bias, output, context.getScratchBuffer(data.scratchIndex).i16);
  else depthwiseConvS8Emu(m, p, input, filter, bias, output, data.acc);
}

/** Creates the DEPTHWISE_CONV_2D registration for the given options. */
export function createDepthwiseConv2D(o: ResolvedOptions): Registration<DepthwiseData> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/cmsis-nn-s8',
    supports: supported,
    init: (): DepthwiseData => ({
      path: 'arm_depthwise_conv_s8',
      p: emptyConvParams(),
      scratchIndex: -1,
      hasBias: false,
      acc: new Int32Array(4),
      words: noWordOperands(),
      emu: { machine: null, record: null },
      inPlaceScratch: -1,
    }),
    prepare: (context, node) => prepare(o, context, node),
    invoke,
    inPlaceVariant: (context, node) => inPlaceVariant(o, context, node),
    useInPlaceVariant: (context, node) => useInPlaceVariant(o, context, node),
  };
}
