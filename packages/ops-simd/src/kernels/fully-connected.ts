/**
 * FULLY_CONNECTED, int8 with per-tensor int8 weights (zero point 0), as TFLM's CMSIS-NN kernel
 * (kernels/cmsis_nn/fully_connected.cc) runs it:
 *
 * - output rank > 2 and depth % 4 == 0: treated as a 1x1 convolution, arm_convolve_1x1_s8_fast, with the
 *   per-tensor multiplier broadcast into two persistent per-channel arrays (4 bytes per output channel each);
 * - otherwise arm_fully_connected_s8 (arm_nn_vec_mat_mult_t_s8). With `fullyConnectedKernelSums` (default)
 *   the weight-row sums are computed once in prepare into a persistent buffer of 4 bytes per output channel
 *   (arm_vector_sum_s8), or per invoke into a scratch buffer of that size when the weights are not constant,
 *   as TFLM does when arm_fully_connected_s8_get_buffer_size() is non-zero.
 *
 * Per-channel weights, weight zero points, shuffled weights, int16 and int4 are declined by `supports()`.
 */
import {
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { convolve1x1FastEmu, convolve1x1FastFast } from '../cmsis/convolve-1x1.js';
import { bufferView, viewBase } from '../cmsis/word-view.js';
import {
  fullyConnectedS8Emu,
  fullyConnectedS8Fast,
  vectorSumS8Emu,
  vectorSumS8Fast,
  type FullyConnectedArgs,
} from '../cmsis/fully-connected-s8.js';
import { newMatMultNtTArgs, type MatMultNtTArgs } from '../cmsis/mat-mult-nt-t-s8.js';
import { emptyConvParams, type ConvParams } from '../cmsis/types.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import {
  calculateOpDataFullyConnected,
  declineArity,
  declineAsymmetric,
  declineTypes,
  expectBias,
  expectType,
  INT8_ONLY,
  opData,
} from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';
const INT32_BIAS: readonly TensorType[] = [TensorType.INT32];

/** The CMSIS-NN function serving a FULLY_CONNECTED node. */
export type FullyConnectedPath = 'arm_convolve_1x1_s8_fast' | 'arm_fully_connected_s8';

interface FcData {
  path: FullyConnectedPath;
  fc: FullyConnectedArgs;
  conv: ConvParams;
  nt: MatMultNtTArgs;
  /** Kernel sums computed per invoke (non-constant weights): scratch index, else -1. */
  sumsScratch: number;
  hasBias: boolean;
  emu: NodeEmulation;
}

/** `true` for int8 with per-tensor symmetric weights in the default layout, else why not. */
function supported(context: TfLiteContext, node: Node): true | string {
  const why = declineArity(node, [2, 3], 1) ?? declineTypes(context, node, [0, 1], INT8_ONLY);
  if (why) return why;
  const q = context.getTensor(node.inputs[1]!).quantization;
  if (q && q.scale.length > 1) return 'per-channel weights (handles per-tensor weights)';
  const asymmetric = declineAsymmetric('weights', context.getTensor(node.inputs[1]!));
  if (asymmetric) return asymmetric;
  const opts = node.builtinData as FullyConnectedOptions | null;
  if (opts && opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT) return `weights format ${opts.weightsFormat} (handles DEFAULT)`;
  return true;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<FcData>(OP, node);
  const params = node.builtinData as FullyConnectedOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing FullyConnectedOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'filter', filter, TensorType.INT8);
  expectType(OP, node, 'output', output, TensorType.INT8);
  if (filter.dims.length !== 2)
    throw new KernelError(OP, node.index, `filter (tensor ${filter.index}) must be 2-D, got [${Array.from(filter.dims).join(', ')}]`);
  if (output.dims.length < 2 || output.dims.length > 4)
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) must have rank 2..4, got ${output.dims.length}`);
  const depth = filter.dims[1]!;
  const rows = output.dims[output.dims.length - 1]!;
  if (filter.dims[0] !== rows)
    throw new KernelError(OP, node.index, `filter has ${filter.dims[0]} rows but the output has ${rows} channels`);
  const batches = output.elementCount / rows;
  if (input.elementCount !== batches * depth) {
    throw new KernelError(
      OP,
      node.index,
      `input (tensor ${input.index}) has ${input.elementCount} elements, expected ${batches} batches x ${depth}`,
    );
  }
  expectBias(OP, node, bias, INT32_BIAS, rows, input.type);
  const q = calculateOpDataFullyConnected(OP, context, node, input, filter, bias, output, params.fusedActivationFunction);
  const qm = { multiplier: q.outputMultiplier, shift: q.outputShift };
  const { actMin, actMax } = q;
  const fc = data.fc;
  fc.batches = batches;
  fc.depth = depth;
  fc.rows = rows;
  fc.lhsOffset = -input.params.zeroPoint;
  fc.dstOffset = output.params.zeroPoint;
  fc.multiplier = qm.multiplier;
  fc.shift = qm.shift;
  fc.actMin = actMin;
  fc.actMax = actMax;
  fc.kernelSums = null;
  data.sumsScratch = -1;
  data.hasBias = bias !== null;

  if (output.dims.length > 2 && depth % 4 === 0) {
    data.path = 'arm_convolve_1x1_s8_fast';
    const mult = context.allocatePersistentBuffer(rows * 4).i32.subarray(0, rows);
    const shift = context.allocatePersistentBuffer(rows * 4).i32.subarray(0, rows);
    mult.fill(qm.multiplier);
    shift.fill(qm.shift);
    const p = data.conv;
    p.batches = batches;
    p.inH = 1;
    p.inW = 1;
    p.inC = depth;
    p.outC = rows;
    p.multiplier = mult;
    p.shift = shift;
    data.nt = newMatMultNtTArgs({ lhsOffset: fc.lhsOffset, dstOffset: fc.dstOffset, actMin, actMax, multiplier: mult, shift });
    // Word access for the fast mode: the arena (where the multipliers just went) and the weights' buffer.
    data.nt.lhsView = bufferView(mult.buffer);
    data.nt.rhsView = filter.isConstant ? bufferView(filter.data.buffer) : data.nt.lhsView;
  } else {
    data.path = 'arm_fully_connected_s8';
    if (o.fullyConnectedKernelSums) {
      if (filter.isConstant) {
        const sums = context.allocatePersistentBuffer(rows * 4).i32.subarray(0, rows);
        vectorSumS8Fast(sums, depth, rows, filter.data as Int8Array, 1, null);
        fc.kernelSums = sums;
      } else {
        data.sumsScratch = context.requestScratchBufferInArena(rows * 4);
      }
    }
  }
  data.emu = nodeEmulation(o, node, OP, data.path);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<FcData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const filter = context.getEvalTensor(node.inputs[1]!).data as Int8Array;
  const bias = data.hasBias ? (context.getEvalTensor(node.inputs[2]!).data as Int32Array) : null;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const fc = data.fc;
  const m = data.emu.machine;
  if (data.sumsScratch >= 0) fc.kernelSums = context.getScratchBuffer(data.sumsScratch).i32;
  if (m === null) {
    if (data.path === 'arm_convolve_1x1_s8_fast') {
      data.nt.lhsViewBase = viewBase(data.nt.lhsView, input);
      data.nt.rhsViewBase = viewBase(data.nt.rhsView, filter);
      convolve1x1FastFast(data.conv, data.nt, input, filter, bias, output);
      return;
    }
    if (data.sumsScratch >= 0) vectorSumS8Fast(fc.kernelSums!, fc.depth, fc.rows, filter, 1, null);
    fullyConnectedS8Fast(fc, input, filter, bias, output);
    return;
  }
  data.emu.record!.invocations++;
  m.alu(10); // PopulateCommonParams
  m.branch();
  if (data.path === 'arm_convolve_1x1_s8_fast') {
    m.alu(4 * fc.rows); // the per-channel multiplier/shift fill loop of EvalQuantizedInt8
    convolve1x1FastEmu(m, data.conv, data.nt, input, filter, bias, output);
    return;
  }
  if (data.sumsScratch >= 0) vectorSumS8Emu(m, fc.kernelSums!, fc.depth, fc.rows, filter, 1, null);
  fullyConnectedS8Emu(m, fc, input, filter, bias, output);
}

/** Creates the FULLY_CONNECTED registration for the given options. */
export function createFullyConnected(o: ResolvedOptions): Registration<FcData> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/cmsis-nn-s8',
    supports: supported,
    init: (): FcData => {
      const conv = emptyConvParams();
      return {
        path: 'arm_fully_connected_s8',
        fc: {
          batches: 0,
          depth: 0,
          rows: 0,
          lhsOffset: 0,
          dstOffset: 0,
          multiplier: 0,
          shift: 0,
          actMin: -128,
          actMax: 127,
          kernelSums: null,
        },
        conv,
        nt: newMatMultNtTArgs({ lhsOffset: 0, dstOffset: 0, actMin: -128, actMax: 127, multiplier: conv.multiplier, shift: conv.shift }),
        sumsScratch: -1,
        hasBias: false,
        emu: { machine: null, record: null },
      };
    },
    prepare: (context, node) => prepare(o, context, node),
    invoke,
  };
}
