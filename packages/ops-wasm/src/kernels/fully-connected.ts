/**
 * FULLY_CONNECTED, int8 (per-tensor or per-channel symmetric weights), in WebAssembly: the convolution
 * GEMM (qs8_conv) as a 1x1 convolution over the batches, weights packed at prepare into the arena.
 * Declines other types, shuffled weights, non-constant weights or bias and asymmetric weights.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  TensorType,
  KernelError,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import {
  W,
  rightOnlyRange,
  WINDOW_PARAMS_BYTES,
  constantInputCopies,
  declineWeighted,
  extScratchBytes,
  inputOffset,
  writeWindowParams,
} from './kernel-common.js';
import { gemmPackedBytes, packGemm } from './weight-pack.js';
import {
  allocatePerChannelBuffers,
  calculateOpDataFullyConnected,
  declineArity,
  expectBias,
  expectFullyConnectedShape,
} from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';
const INT32_BIAS: readonly TensorType[] = [TensorType.INT32];

interface FcData {
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
  const opts = node.builtinData as FullyConnectedOptions | null;
  if (opts && opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT) return 'shuffled weights';
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  return declineWeighted(input, filter, bias, output) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as FcData;
  const opts = node.builtinData as FullyConnectedOptions | null;
  const activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (node.inputs.length < 2 || node.inputs.length > 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const {
    batches,
    outputDepth: units,
    accumDepth: depth,
  } = expectFullyConnectedShape(OP, node, input, filter, output, opts?.keepNumDims ?? false);
  expectBias(OP, node, bias, INT32_BIAS, units, input.type);
  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const fc = calculateOpDataFullyConnected(OP, context, node, input, filter, bias, output, activation);
  const { actMin, actMax } = fc;
  // the GEMM's requantization blocks take one multiplier per unit: a per-tensor one in every unit
  const q = fc.perChannelBuffers ?? allocatePerChannelBuffers(context, units);
  if (!fc.perChannelBuffers) {
    q.multiplier.fill(fc.outputMultiplier);
    q.shift.fill(fc.outputShift);
  }
  const kb8 = (depth + 7) >> 3;
  const packed = context.allocatePersistentBuffer(gemmPackedBytes(units, 1, kb8));
  const fast = rightOnlyRange(q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
  packGemm(
    packed,
    filter.data as Int8Array,
    units,
    1,
    depth,
    kb8,
    bias ? (bias.data as Int32Array) : null,
    q.multiplier,
    q.shift,
    input.params.zeroPoint,
    fast,
  );
  const zero = context.allocatePersistentBuffer(kb8 * 8);
  const ptrs = context.allocatePersistentBuffer(4 * 4);

  const p = paramsRegion.i32;
  // the batches are one row of 1x1 windows
  writeWindowParams(p, {
    batches: 1,
    inH: 1,
    inW: batches,
    inC: depth,
    outH: 1,
    outW: batches,
    outC: units,
    actMin,
    actMax,
    zpOut: output.params.zeroPoint,
  });
  p[W.Kb8] = kb8;
  p[W.Packed] = packed.offset;
  p[W.Zero] = zero.offset;
  p[W.Ptrs] = ptrs.offset;
  p[W.Direct] = 1;
  p[W.RightOnly] = fast ? 1 : 0;
  data.params = paramsRegion.offset;
  data.p = p;
  // one batch runs qs8_conv's one-pixel path, which reads the input in place: no scratch rows
  data.ext = batches === 1 ? -1 : context.requestScratchBufferInArena(extScratchBytes(kb8));
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as FcData;
  if (data.ext >= 0) data.p[W.Ext] = context.getScratchBuffer(data.ext).offset;
  data.k!.qs8_conv(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The FULLY_CONNECTED registration. */
export function createFullyConnected(): Registration<FcData> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/wasm-qs8-gemm',
    supports,
    init: (): FcData => ({ k: null, params: 0, fixed: -1, p: new Int32Array(0), ext: -1 }),
    prepare,
    invoke,
  };
}
