/**
 * CONV_2D, int8 per-channel, dispatched as TFLM's CMSIS-NN kernel (kernels/cmsis_nn/conv.cc) calls
 * arm_convolve_wrapper_s8 (DSP build):
 *
 * | condition                                                          | path                      | scratch                      |
 * |--------------------------------------------------------------------|---------------------------|------------------------------|
 * | no padding, 1x1 filter, no dilation, filter depth = input depth, stride 1 | arm_convolve_1x1_s8_fast | 0                       |
 * | the same with another stride                                       | arm_convolve_1x1_s8       | 0                            |
 * | input height 1, filter height 1, dilation_w 1, (stride_w * C) % 4 = 0 | arm_convolve_1_x_n_s8 (DSP: runs arm_convolve_s8) | as arm_convolve_s8 |
 * | anything else (incl. groups, dilation, padding)                    | arm_convolve_s8 (im2col)  | 4 * aligned(kH*kW*C) bytes   |
 *
 * int16 activations (arm_convolve_wrapper_s16) and int4 filters are not implemented here: `supports()`
 * declines them so the next provider serves the node.
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
import { convolve1x1Emu, convolve1x1Fast, convolve1x1FastEmu, convolve1x1FastFast } from '../cmsis/convolve-1x1.js';
import { convolveS8BufferSize, convolveS8Emu, convolveS8Fast, newMatMultKernelArgs, type ConvolveS8Work } from '../cmsis/convolve-s8.js';
import { newMatMultNtTArgs, type MatMultNtTArgs } from '../cmsis/mat-mult-nt-t-s8.js';
import { emptyConvParams, type ConvParams } from '../cmsis/types.js';
import { bufferView, viewBase } from '../cmsis/word-view.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { prepareOutputStage, windowOf } from './conv-common.js';
import { declineArity, declineTypes, expectType, expectWindowOutput, setConvOutputShape, INT8_ONLY, opData } from '@micrort/kernel-support';

const OP = 'CONV_2D';

/** The arm_convolve_wrapper_s8 paths. */
export type ConvPath = 'arm_convolve_1x1_s8_fast' | 'arm_convolve_1x1_s8' | 'arm_convolve_1_x_n_s8' | 'arm_convolve_s8';

interface ConvData {
  path: ConvPath;
  p: ConvParams;
  nt: MatMultNtTArgs;
  work: ConvolveS8Work;
  scratchIndex: number;
  hasBias: boolean;
  emu: NodeEmulation;
}

/**
 * arm_convolve_wrapper_s8's choice for the given geometry (DSP build). `kC` is the filter's input depth.
 */
export function selectConvPath(p: ConvParams): ConvPath {
  if (p.padW === 0 && p.padH === 0 && p.kW === 1 && p.kH === 1 && p.dilW === 1 && p.dilH === 1 && p.inC === p.kC) {
    return p.strideW === 1 && p.strideH === 1 ? 'arm_convolve_1x1_s8_fast' : 'arm_convolve_1x1_s8';
  }
  if (p.inH === 1 && p.dilW === 1 && p.kH === 1 && (p.strideW * p.inC) % 4 === 0 && p.inC === p.kC) return 'arm_convolve_1_x_n_s8';
  return 'arm_convolve_s8';
}

/** arm_convolve_wrapper_s8_get_buffer_size (DSP build) for the chosen path. */
export function convBufferSize(path: ConvPath, p: ConvParams): number {
  return path === 'arm_convolve_1x1_s8_fast' || path === 'arm_convolve_1x1_s8' ? 0 : convolveS8BufferSize(p.inC, p.kH, p.kW);
}

/** Why the node is not an int8 convolution this kernel runs (int16 activations, float...), or null. */
function unsupported(context: TfLiteContext, node: Node): string | null {
  return declineArity(node, [2, 3], 1) ?? declineTypes(context, node, [0, 1], INT8_ONLY);
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<ConvData>(OP, node);
  const params = node.builtinData as Conv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'filter', filter, TensorType.INT8);
  const output = setConvOutputShape(OP, context, node, { input, filter }, params, filter.dims[0]!);
  expectType(OP, node, 'output', output, TensorType.INT8);

  const p = data.p;
  p.batches = input.dims[0]!;
  p.inH = input.dims[1]!;
  p.inW = input.dims[2]!;
  p.inC = input.dims[3]!;
  p.outC = filter.dims[0]!;
  p.kH = filter.dims[1]!;
  p.kW = filter.dims[2]!;
  p.kC = filter.dims[3]!;
  p.strideH = params.strideH;
  p.strideW = params.strideW;
  p.dilH = params.dilationHFactor;
  p.dilW = params.dilationWFactor;
  if (output.dims[0] !== p.batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${p.batches}`);
  if (output.dims[3] !== p.outC)
    throw new KernelError(OP, node.index, `output has ${output.dims[3]} channels, filter (tensor ${filter.index}) has ${p.outC}`);
  if (p.kC < 1 || p.inC % p.kC !== 0)
    throw new KernelError(OP, node.index, `input depth ${p.inC} is not a multiple of the filter depth ${p.kC}`);
  const groups = p.inC / p.kC;
  if (p.outC % groups !== 0) throw new KernelError(OP, node.index, `${p.outC} output channels cannot be split into ${groups} groups`);
  const pad = expectWindowOutput(OP, node, windowOf(p), params.padding, output);
  p.outH = pad.outHeight;
  p.outW = pad.outWidth;
  p.padH = pad.height;
  p.padW = pad.width;
  prepareOutputStage(OP, context, node, { input, filter, bias, output }, p, 0, params.fusedActivationFunction);

  data.path = selectConvPath(p);
  const bytes = convBufferSize(data.path, p);
  data.scratchIndex = bytes > 0 ? context.requestScratchBufferInArena(bytes) : -1;
  data.hasBias = bias !== null;
  data.nt = newMatMultNtTArgs({
    lhsOffset: p.inputOffset,
    dstOffset: p.outputOffset,
    actMin: p.actMin,
    actMax: p.actMax,
    multiplier: p.multiplier,
    shift: p.shift,
  });
  data.work.p = p;
  data.work.kernel = newMatMultKernelArgs(p);
  data.emu = nodeEmulation(o, node, OP, data.path);
  // Word access for the fast mode: the arena (where the per-channel data just went) and the weights' buffer.
  data.nt.lhsView = bufferView(p.multiplier.buffer);
  data.nt.rhsView = filter.isConstant ? bufferView(filter.data.buffer) : data.nt.lhsView;
  data.work.kernel.aView = data.nt.rhsView; // weights
  data.work.kernel.bView = data.nt.lhsView; // the im2col scratch, in the arena
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<ConvData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const filter = context.getEvalTensor(node.inputs[1]!).data as Int8Array;
  const bias = data.hasBias ? (context.getEvalTensor(node.inputs[2]!).data as Int32Array) : null;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  if (data.scratchIndex >= 0) {
    const region = context.getScratchBuffer(data.scratchIndex);
    data.work.buf8 = region.i8;
    data.work.buf16 = region.i16;
  }
  const m = data.emu.machine;
  if (m === null) {
    data.nt.lhsViewBase = viewBase(data.nt.lhsView, input);
    data.nt.rhsViewBase = viewBase(data.nt.rhsView, filter);
    data.work.kernel.aViewBase = data.nt.rhsViewBase;
    data.work.kernel.bViewBase = viewBase(data.work.kernel.bView, data.work.buf16);
    switch (data.path) {
      case 'arm_convolve_1x1_s8_fast':
        convolve1x1FastFast(data.p, data.nt, input, filter, bias, output);
        break;
      case 'arm_convolve_1x1_s8':
        convolve1x1Fast(data.p, data.nt, input, filter, bias, output);
        break;
      default:
        convolveS8Fast(data.work, input, filter, bias, output);
    }
    return;
  }
  data.emu.record!.invocations++;
  m.call(); // arm_convolve_wrapper_s8
  m.alu(8);
  m.branch(2);
  switch (data.path) {
    case 'arm_convolve_1x1_s8_fast':
      convolve1x1FastEmu(m, data.p, data.nt, input, filter, bias, output);
      break;
    case 'arm_convolve_1x1_s8':
      convolve1x1Emu(m, data.p, data.nt, input, filter, bias, output);
      break;
    case 'arm_convolve_1_x_n_s8':
      m.call(); // the DSP build of arm_convolve_1_x_n_s8 checks its arguments and calls arm_convolve_s8
      m.alu(4);
      convolveS8Emu(m, data.work, input, filter, bias, output);
      break;
    default:
      convolveS8Emu(m, data.work, input, filter, bias, output);
  }
}

/** Creates the CONV_2D registration for the given options. */
export function createConv2D(o: ResolvedOptions): Registration<ConvData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/cmsis-nn-s8',
    supports: (context, node) => unsupported(context, node) ?? true,
    init: (): ConvData => {
      const p = emptyConvParams();
      const none8 = new Int8Array(0);
      return {
        path: 'arm_convolve_s8',
        p,
        nt: newMatMultNtTArgs({ lhsOffset: 0, dstOffset: 0, actMin: -128, actMax: 127, multiplier: p.multiplier, shift: p.shift }),
        work: { p, buf8: none8, buf16: new Int16Array(0), kernel: newMatMultKernelArgs(p) },
        scratchIndex: -1,
        hasBias: false,
        emu: { machine: null, record: null },
      };
    },
    prepare: (context, node) => prepare(o, context, node),
    invoke,
  };
}
